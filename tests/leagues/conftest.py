"""Fixtures for the league tests: the mail settings (seasons, members and moderators are made by
``tests.leagues.helpers``)."""

from __future__ import annotations

from typing import Any

import pytest


@pytest.fixture(autouse=True)
def mail_settings(settings: Any) -> None:
    settings.REPLY_DOMAIN = "lotus.test"
    settings.REPLY_PREFIX = "play"
    settings.MESSAGE_ID_DOMAIN = "lotus.test"
    settings.DEFAULT_FROM_EMAIL = "White Lotus <lotus@lotus.test>"
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    settings.MODERATOR_EMAILS = ["mod@lotus.test"]
    settings.SITE_URL = "https://lotus.test"
