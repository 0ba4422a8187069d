"""``manage.py import_game``: a new game replaying a game record."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from games import jobs
from games.management.commands._base import run


class Command(BaseCommand):
    help = (
        "Create and start a game from a record (as export_game writes it) and replay every move "
        "line through the service (source 'system'). Players come from the header's 'players' "
        "line (red=Name <email>, ...); seats it does not name get <colour>@import.invalid. "
        "All or nothing: an illegal line stops the import and is named."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", metavar="FILE", help="the record, or - for standard input")
        parser.add_argument("--name", default=None, help="the new game's name (default: the record's)")
        parser.add_argument(
            "--board", default=None, help="load the board from this name or file instead of the record's"
        )

    def handle(self, *args: Any, **options: Any) -> None:
        source = options["file"]
        try:
            text = sys.stdin.read() if source == "-" else Path(source).read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as error:
            raise CommandError(f"Cannot read {source}: {error}") from None
        origin = "" if source == "-" else Path(source).name
        game = run(
            lambda: jobs.import_record(text, name=options["name"], board=options["board"], origin=origin)
        )
        self.stdout.write(jobs.describe_imported(game))
