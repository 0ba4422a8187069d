"""Every game mail links the player's private seat page and the game's public page."""

from __future__ import annotations

import re

import pytest
from django.core import mail as django_mail

from games.links import game_page_url, seat_for_key
from tests.games.factories import running_game

from .helpers import deliver_pending

pytestmark = pytest.mark.django_db

PRIVATE = re.compile(r"Your page \(keep it private\): (\S+)")


def test_each_seat_is_sent_the_link_to_its_own_page_and_the_public_page():
    game = running_game(3, seed="links")
    deliver_pending()
    keys = set()
    for seat in game.seats.select_related("player"):
        [message] = [m for m in django_mail.outbox if seat.player.email in m.to]
        html = message.alternatives[0][0]
        link = PRIVATE.search(message.body)
        assert link is not None, message.body
        key = link.group(1).rstrip("/").rsplit("/", 1)[-1]
        opened = seat_for_key(key)
        assert opened is not None and opened.pk == seat.pk
        assert f'href="{link.group(1)}"' in html
        assert f"The game's public page: {game_page_url(game)}" in message.body
        keys.add(key)
    assert len(keys) == 3
