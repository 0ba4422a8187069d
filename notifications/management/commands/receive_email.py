"""Read one raw message from standard input and store it (for an MTA pipe, e.g. Postfix's
``pipe`` transport; ``deploy/postfix/`` has the wrapper and the ``master.cf`` lines).

Exit status follows sysexits(3), which MTAs understand: 0 stored (or a duplicate), 65 too
large (the MTA bounces it), 75 a temporary failure (the MTA tries again later).  Every failure
before the mail is stored is 75 with one line on stderr and no traceback: run as
``manage.py receive_email`` (or ``python -m notifications.inbound.pipe``), the command goes through
``notifications.inbound.pipe``, which catches settings and import errors before Django is set up.
"""

from __future__ import annotations

import sys
from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from notifications.inbound.pipe import add_pipe_arguments, deliver
from notifications.inbound.routing import EX_OK


class Command(BaseCommand):
    help = "Store a raw mail read from stdin and queue it for processing (MTA pipe)."

    def add_arguments(self, parser: CommandParser) -> None:
        add_pipe_arguments(parser)

    def handle(self, *args: Any, sender: str | None, recipient: list[str], **options: Any) -> None:
        # manage.py hands receive_email to notifications.inbound.pipe before Django starts: this runs
        # only through call_command, on the pipe's own code path
        status = deliver(
            sys.stdin.buffer, sender, recipient, options["verbosity"], stdout=self.stdout, stderr=self.stderr
        )
        if status != EX_OK:
            sys.exit(status)
