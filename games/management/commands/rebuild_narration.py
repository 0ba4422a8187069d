"""``manage.py rebuild_narration [--game N]``: write the narration projection again from the log."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from games import jobs, services
from games.management.commands._base import run
from games.models import Game
from games.projections import narration


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
        games = run(lambda: [jobs.get_game(pk)]) if pk is not None else list(Game.objects.order_by("pk"))
        failed = 0
        for game in games:
            try:
                rows = narration.rebuild(game)
            except services.GameError as error:  # its board file changed, ...: the others go on
                failed += 1
                self.stderr.write(f"game {game.pk}: not rebuilt: {error}")
                continue
            self.stdout.write(f"game {game.pk}: {rows} move(s) narrated")
        if failed:
            raise CommandError(f"{failed} game(s) could not be rebuilt")
        self.stdout.write("OK")
