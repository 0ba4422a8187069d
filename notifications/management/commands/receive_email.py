"""Read one raw message from standard input and store it (for an MTA pipe, e.g. Postfix's
``pipe`` transport: ``manage.py receive_email --sender ${sender} --recipient ${recipient}``).

Exit status follows sysexits(3), which MTAs understand: 0 stored (or a duplicate), 65 too
large (the MTA bounces it), 75 a temporary failure (the MTA tries again later).
"""

from __future__ import annotations

import sys
from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from notifications.inbound import MAX_BYTES, store
from notifications.models import InboundMail

EX_DATAERR = 65
EX_TEMPFAIL = 75


class Command(BaseCommand):
    help = "Store a raw mail read from stdin and queue it for processing (MTA pipe)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--sender", default="", help="the envelope sender")
        parser.add_argument("--recipient", action="append", default=[], help="an envelope recipient")

    def handle(self, *args: Any, sender: str, recipient: list[str], **options: Any) -> None:
        raw = sys.stdin.buffer.read(MAX_BYTES + 1)
        if len(raw) > MAX_BYTES:
            self.stderr.write(f"message larger than {MAX_BYTES} bytes: refused")
            sys.exit(EX_DATAERR)
        try:
            mail, created = store(raw, InboundMail.Via.PIPE, envelope_from=sender, envelope_to=recipient)
        except Exception as error:
            self.stderr.write(f"could not store the message: {type(error).__name__}")
            sys.exit(EX_TEMPFAIL)
        if options["verbosity"] > 1:
            self.stdout.write(f"stored as inbound mail {mail.pk}{'' if created else ' (duplicate)'}")
