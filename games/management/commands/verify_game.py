"""``manage.py verify_game``: check an exported record's draws and replay it."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from games.rules import verify


class Command(BaseCommand):
    help = (
        "Check a game record (export_game): the seed against the hash published at the start, "
        "the draw seed made from it and the players' contributions, every move through the "
        "rules, and the final scores against the record's result. Prints what was verified; "
        "exits with status 1 and says what failed otherwise. The same check runs without "
        "Django: python tools/verify_record.py RECORD_FILE."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("record", metavar="RECORD_FILE")

    def handle(self, *args: Any, **options: Any) -> None:
        path = options["record"]
        try:
            with open(path, encoding="utf-8") as handle:
                text = handle.read()
        except (OSError, UnicodeDecodeError) as error:
            raise CommandError(f"Cannot read {path}: {error}") from None
        try:
            verified = verify.verify_record(text)
        except verify.VerificationFailed as error:
            raise CommandError(f"FAILED: {error}") from None
        self.stdout.write("\n".join(verified.lines()))
