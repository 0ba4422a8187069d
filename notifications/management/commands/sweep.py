"""Run the deadline sweep once (beat runs it every minute), or say when it last ran."""

from __future__ import annotations

import sys
from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from notifications.sweep import health, sweep


class Command(BaseCommand):
    help = "Run the deadline sweep once: ended vacations, reminders, defaults. --health: check it runs."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--health", action="store_true", help="only say when the sweep last ran")

    def handle(self, *args: Any, health: bool = False, **options: Any) -> None:
        if health:
            ok, detail = _health()
            self.stdout.write(("ok: " if ok else "NOT OK: ") + detail)
            sys.exit(0 if ok else 1)
        self.stdout.write(str(sweep()))


_health = health
