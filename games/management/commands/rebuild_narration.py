"""``manage.py rebuild_narration [--game N]``: write the narration projection again from the log."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from games import cli
from games.projections import narration

from ._base import run


class Command(BaseCommand):
    help = (
        "Rebuild the narrated lines of every move in effect (games.projections.narration) from "
        "the event log: of one game with --game, else of every game. Safe while games are "
        "played: each game is rebuilt under its row lock."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--game", type=int, help="only this game")

    def handle(self, *args: Any, **options: Any) -> None:
        pk = options["game"]
        counts = run(lambda: narration.rebuild_all(None if pk is None else [cli.get_game(pk)]))
        for pk, rows in counts.items():
            self.stdout.write(f"game {pk}: {rows} move(s) narrated")
        self.stdout.write(f"OK: {len(counts)} game(s) rebuilt")
