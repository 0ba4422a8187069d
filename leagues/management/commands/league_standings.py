"""``manage.py league_standings <league>``: print each season's standings (from their projection)."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from leagues.models import League
from leagues.standings import league_standings


class Command(BaseCommand):
    help = (
        "Print the standings of every season of a league (read from their projection, which "
        "rebuild_projections writes again from the logs)."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("league", help="the league's short name (slug)")

    def handle(self, *args: Any, **options: Any) -> None:
        league = League.objects.filter(slug=options["league"]).first()
        if league is None:
            raise CommandError(f"No league {options['league']!r}.")
        for table in league_standings(league, league.seasons.order_by("created_at", "pk")):
            season = table.season
            self.stdout.write(f"{season} ({table.games} finished games)")
            self.stdout.write("  #  player                  games  wins  points  rating  missed  left")
            for place, row in enumerate(table.rows, 1):
                rating = f"{row.rating.ordinal:7.2f}" if row.rating else "      —"
                self.stdout.write(
                    f"{place:3d}  {row.name[:22]:22}  {row.played:5d}  {row.wins:4d}  {row.points:6g}"
                    f"  {rating}  {row.missed:6d}  {len(row.left):4d}"
                )
