"""``manage.py rebuild_projections [--game N | --season N]``: the read models written again
from the event log (a finished game's result, a season's standings, a league's ratings).

They are disposable: run it after a migration that adds one, or whenever a projection is in
doubt; the test ``tests/leagues/test_projections.py`` proves a rebuild gives the rows the
games wrote as they were played.  Here, not in the games app: it rebuilds the leagues' rows
too, and the games app never imports the leagues app."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from games.models import Game
from leagues.models import Season
from leagues.projection import rebuild


class Command(BaseCommand):
    help = "Rebuild the projections (results, standings, ratings) from the event log."

    def add_arguments(self, parser: CommandParser) -> None:
        which = parser.add_mutually_exclusive_group()
        which.add_argument("--game", type=int, help="one game (and its season's standings)")
        which.add_argument("--season", type=int, help="one season's games and standings")

    def handle(self, *args: Any, **options: Any) -> None:
        game = season = None
        if options["game"] is not None:
            game = Game.objects.filter(pk=options["game"]).first()
            if game is None:
                raise CommandError(f"No game {options['game']}.")
        if options["season"] is not None:
            season = Season.objects.filter(pk=options["season"]).select_related("league").first()
            if season is None:
                raise CommandError(f"No season {options['season']}.")
        self.stdout.write(rebuild(game=game, season=season))
