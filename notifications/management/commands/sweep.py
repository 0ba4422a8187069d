"""Run the deadline sweep once (beat runs it every minute), or say when it last ran."""

from __future__ import annotations

import sys
import time
from typing import Any

from django.core.management.base import BaseCommand, CommandParser
from django.db import close_old_connections

from notifications.sweep import health, sweep
from notifications.tasks import sweep_mail


class Command(BaseCommand):
    help = "Run the deadline sweep once: ended vacations, reminders, defaults. --health: check it runs."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--health", action="store_true", help="only say when the sweep last ran")
        parser.add_argument(
            "--loop",
            type=int,
            metavar="SECONDS",
            help="sweep (deadlines and mail) every SECONDS until stopped: stands in for celery beat "
            "on a machine without a broker",
        )

    def handle(self, *args: Any, health: bool = False, loop: int | None = None, **options: Any) -> None:
        if health:
            ok, detail = _health()
            self.stdout.write(("ok: " if ok else "NOT OK: ") + detail)
            sys.exit(0 if ok else 1)
        if loop is None:
            self.stdout.write(str(sweep()))
            return
        while True:
            report, mail = sweep(), sweep_mail()
            if (
                report.vacations_ended
                or report.reminders
                or report.defaults
                or not mail.startswith("re-enqueued 0 outbound and 0 ")
            ):
                self.stdout.write(f"{report}; {mail}")
            close_old_connections()
            time.sleep(loop)


_health = health
