"""Listen for mail over SMTP (aiosmtpd) and feed it to the inbound pipeline."""

from __future__ import annotations

import signal
import threading
from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from notifications.inbound.smtp import controller


class Command(BaseCommand):
    help = "Run the SMTP listener that receives players' replies (self-hosting and local play)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--host", default=None, help="address to listen on (default: SMTPD_HOST)")
        parser.add_argument("--port", type=int, default=None, help="port (default: SMTPD_PORT)")

    def handle(self, *args: Any, host: str | None, port: int | None, **options: Any) -> None:
        server = controller(host, port)
        server.start()
        if options.get("verbosity", 1):  # scripts/serve says it in its own block (-v 0)
            self.stdout.write(f"Receiving mail on {server.hostname}:{server.port}; Ctrl-C stops.")
        stop = threading.Event()
        for sig in (signal.SIGINT, signal.SIGTERM):
            signal.signal(sig, lambda *_: stop.set())
        try:
            stop.wait()
        finally:
            server.stop()
