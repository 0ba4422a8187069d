"""Fixtures for the league tests: the mail settings, two leagues with a moderator each."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User

from games.models import Player
from leagues.models import League, Season


@pytest.fixture(autouse=True)
def mail_settings(settings: Any) -> None:
    settings.REPLY_DOMAIN = "lotus.test"
    settings.REPLY_PREFIX = "play"
    settings.MESSAGE_ID_DOMAIN = "lotus.test"
    settings.DEFAULT_FROM_EMAIL = "White Lotus <lotus@lotus.test>"
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    settings.MODERATOR_EMAILS = ["mod@lotus.test"]
    settings.SITE_URL = "https://lotus.test"


def member(name: str) -> Player:
    return Player.objects.get_or_create(email=f"{name.lower()}@example.org", defaults={"name": name})[0]


def season_of(league: League, names: list[str], **kw: Any) -> Season:
    """A season of these members whose games start at once (``ready_hours`` 0: the ready
    window's own tests give one)."""
    kw.setdefault("ready_hours", 0)
    season = Season.objects.create(league=league, name="Autumn", **kw)
    for name in names:
        season.memberships.create(player=member(name))
    return season


def moderator_user(username: str, league: League) -> User:
    user = User.objects.create_user(username, f"{username}@example.org", "pw", is_staff=True)
    league.moderators.add(user)
    return user
