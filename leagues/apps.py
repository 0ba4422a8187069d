"""The leagues app: seasons, scoped moderators, sign-up, seating, standings and ratings."""

from __future__ import annotations

from django.apps import AppConfig


class LeaguesConfig(AppConfig):
    name = "leagues"
    verbose_name = "Leagues"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from games import permissions

        from . import receivers  # noqa: F401  (connect the signal receivers)
        from .scope import LeagueScope

        permissions.register(LeagueScope())
