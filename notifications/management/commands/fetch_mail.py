"""Fetch players' replies from an ordinary mailbox by IMAP (``notifications.imap``)."""

from __future__ import annotations

import signal
import threading
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser

from notifications.imap.fetch import CONNECTION_ERRORS, Account
from notifications.imap.watching import watch
from notifications.services.redact import one_line


class Command(BaseCommand):
    help = (
        "Fetch replies from the IMAP mailbox in IMAP_HOST/IMAP_USER: IDLE where the server offers "
        "it, else a look every IMAP_POLL_SECONDS; while another fetcher holds the mailbox it waits "
        "for it to let go; --once for one look (cron)."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--once", action="store_true", help="one look at the mailbox, then exit")
        parser.add_argument("--seconds", type=float, default=None, help="stop after so many seconds")

    def handle(self, *args: Any, once: bool, seconds: float | None, **options: Any) -> None:
        if not settings.IMAP_HOST or not settings.IMAP_USER:
            raise CommandError("IMAP_HOST and IMAP_USER are not set: there is no mailbox to fetch")
        account = Account.from_settings()
        stop = threading.Event()
        before = {}
        if not once:
            for sig in (signal.SIGINT, signal.SIGTERM):
                before[sig] = signal.signal(sig, lambda *_: stop.set())
            if options.get("verbosity", 1):
                self.stdout.write(f"Fetching replies from {account.name}; Ctrl-C stops.")
        try:
            # the long-running fetcher waits while beat's task (or another host's fetcher) holds
            # the mailbox, and takes over once it lets go: it never ends quietly for that
            tally = watch(account, seconds=seconds, stop=stop, once=once, wait_for_lease=not once)
        except CONNECTION_ERRORS as error:  # --once: say why in one line (a wrong password, host)
            raise CommandError(f"could not fetch from {account.name}: {one_line(error)}") from None
        finally:
            for sig, handler in before.items():
                signal.signal(sig, handler)
        if options.get("verbosity", 1):
            self.stdout.write(str(tally))
