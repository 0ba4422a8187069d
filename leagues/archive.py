"""The leagues' part of the games archive (``games.web.archive``, where the app config registers
it): a league and a season to search by, and each game's season as a link to its league."""

from __future__ import annotations

from collections.abc import Iterable

from django.db.models import Q
from django.urls import reverse

from games.web.player_games import Link
from leagues.models import League, LeagueGame, Season


class LeagueGroups:
    def leagues(self) -> list[tuple[str, str]]:
        return [(league.slug, league.name) for league in League.objects.order_by("name")]

    def seasons(self) -> list[tuple[str, str]]:
        seasons = Season.objects.select_related("league").order_by("league__name", "-created_at", "-pk")
        return [(str(season.pk), str(season)) for season in seasons]

    def games_in(self, league: str, season: str) -> Q | None:
        games = LeagueGame.objects.all()
        if league:
            games = games.filter(season__league__slug=league)
        if season:
            if not season.isdigit():
                return None
            games = games.filter(season_id=int(season))
        return Q(pk__in=games.values("game_id"))

    def links(self, game_ids: Iterable[int]) -> dict[int, list[Link]]:
        found = LeagueGame.objects.filter(game_id__in=list(game_ids)).select_related("season__league")
        return {
            link.game_id: [
                Link(
                    str(link.season),
                    reverse("leagues:season", args=[link.season.league.slug, link.season.pk]),
                )
            ]
            for link in found
        }
