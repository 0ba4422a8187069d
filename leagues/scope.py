"""The league moderators' scope, registered with ``games.services.permissions`` by the app config."""

from __future__ import annotations

from django.contrib.auth.models import User
from django.db.models import Q

from games.models import Game
from leagues.models import League


class LeagueScope:
    """A league's moderators moderate the games seated for its seasons, and only those."""

    def games_of(self, user: User) -> Q | None:
        leagues = list(League.objects.filter(moderators=user).values_list("pk", flat=True))
        if not leagues:
            return None
        return Q(league_game__season__league__in=leagues)

    def players_elsewhere(self, user: User) -> Q:
        others = League.objects.exclude(moderators=user).values("pk")
        return Q(memberships__season__league__in=others)

    def colleague_ids(self, user: User) -> set[int]:
        leagues = League.objects.filter(moderators=user).values("pk")
        return set(
            League.moderators.through.objects.filter(league__in=leagues).values_list("user_id", flat=True)
        )

    def moderator_ids(self, game: Game) -> set[int]:
        ids = League.objects.filter(seasons__league_games__game=game).values_list("moderators", flat=True)
        return {pk for pk in ids if pk is not None}
