"""``manage.py seat_round <league> [--season NAME] [--while-running]``: seat a season's next round
and start it."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from games import services
from leagues.models import Season
from leagues.seating import seat_round


class Command(BaseCommand):
    help = (
        "Seat the members of a league's season (default: its latest) into the games of the next "
        "round, 3 to 6 players each with a fair rotation of seat order, and start them: every "
        "player gets the invitation mail."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("league", help="the league's short name (slug)")
        parser.add_argument("--season", default="", help="the season's name (default: the latest)")
        parser.add_argument(
            "--while-running",
            action="store_true",
            help="seat the next round even though games of the last one are not over yet",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        seasons = Season.objects.filter(league__slug=options["league"])
        if options["season"]:
            seasons = seasons.filter(name=options["season"])
        season = seasons.order_by("-created_at", "-pk").first()
        if season is None:
            raise CommandError(f"No such season in league {options['league']!r}.")
        try:
            games = seat_round(season, while_running=options["while_running"])
        except services.GameError as error:
            raise CommandError(str(error)) from None
        for game in games:
            seats = ", ".join(f"{s.colour} {s.player.email}" for s in game.seats.select_related("player"))
            self.stdout.write(f"game {game.pk} ({game.name}): {seats}")
