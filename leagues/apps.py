"""The leagues app: seasons, scoped moderators, sign-up, seating, standings and ratings."""

from __future__ import annotations

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class LeaguesConfig(AppConfig):
    name = "leagues"
    verbose_name = _("Leagues")
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from games.services import permissions
        from games.web import archive, player_games
        from leagues import mail, receivers  # noqa: F401  (connect the signal receivers)
        from leagues.archive import LeagueGroups
        from leagues.scope import LeagueScope
        from leagues.signup import answer_join
        from leagues.views import seasons_of
        from notifications.inbound import routing
        from notifications.outbound import emails

        permissions.register(LeagueScope())
        emails.register_kind("standings", mail.standings_mail)
        emails.register_kind("welcome", mail.welcome_mail)
        routing.register_service_handler(answer_join)
        player_games.register(seasons_of)
        archive.register(LeagueGroups())
