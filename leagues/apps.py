"""The leagues app: seasons, scoped moderators, sign-up, seating, standings and ratings."""

from __future__ import annotations

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class LeaguesConfig(AppConfig):
    name = "leagues"
    verbose_name = _("Leagues")
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from games import archive, permissions, player_games

        from . import receivers  # noqa: F401  (connect the signal receivers)
        from .archive import LeagueGroups
        from .scope import LeagueScope
        from .views import seasons_of

        permissions.register(LeagueScope())
        player_games.register(seasons_of)
        archive.register(LeagueGroups())
