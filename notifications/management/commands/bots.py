"""``manage.py bots``: the bots of local play answer their decision mails (once, or in a loop)."""

from __future__ import annotations

import time
from typing import Any

from django.core.management.base import BaseCommand, CommandParser
from django.db import DatabaseError, close_old_connections

from notifications.localmail.bots import BOT_DOMAIN, play_bots


class Command(BaseCommand):
    help = (
        f"Answer every pending decision of bot seats (players at @{BOT_DOMAIN}) by replying to their "
        "decision mails in the local mailbox over SMTP. --loop: again every SECONDS until stopped."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--loop", type=float, metavar="SECONDS", help="run every SECONDS until stopped")

    def handle(self, *args: Any, loop: float | None = None, **options: Any) -> None:
        while True:
            try:
                report = play_bots()
            except (OSError, DatabaseError) as error:
                # the SMTP listener not up yet (serve starts both at once), SQLite busy with
                # another writer: a loop tries again; a single run says so and fails
                if loop is None:
                    raise
                self.stderr.write(f"bots: {type(error).__name__}: {error}; trying again")
            else:
                if report.replies or loop is None:
                    self.stdout.write(str(report))
            if loop is None:
                return
            close_old_connections()
            time.sleep(loop)
