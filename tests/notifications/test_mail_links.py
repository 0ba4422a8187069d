"""Every game mail links the player's private seat page and the game's public page."""

from __future__ import annotations

import re

import pytest
from django.core import mail as django_mail

from games import services
from games.models import Player
from games.services.links import game_page_url, seat_for_key
from notifications.services.tokens import service_address
from tests.games.factories import running_game
from tests.notifications.helpers import compose, deliver_pending, receive, reply_to_of, sent_to

pytestmark = pytest.mark.django_db

PRIVATE = re.compile(r"Your page \(keep it private\):\n(\S+)\n")  # the link on a line of its own


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
        assert f"The game's public page:\n{game_page_url(game)}\n" in message.body
        keys.add(key)
    assert len(keys) == 3


def test_an_answer_sent_after_the_seat_changed_hands_carries_no_link_to_the_new_holders_page():
    game = running_game(3, seed="links")
    deliver_pending()
    old = game.seats.select_related("player").get(position=1).player
    receive(compose(reply_to_of(game, 1), old.email, "status"))  # answered once the worker gets to it
    newcomer = Player.objects.create(email="newcomer@example.org", name="Newcomer")
    services.replace_seat(game, 1, newcomer, by=None, reason="moved away")
    django_mail.outbox.clear()
    deliver_pending()
    to_old = sent_to(old.email)  # the answer, and the notice that the seat was handed over
    assert len(to_old) == 2
    for answer in to_old:
        assert PRIVATE.search(answer.body) is None, answer.body
        assert "/games/seat/" not in answer.alternatives[0][0]
        assert answer.reply_to == [service_address()]  # not the seat's token, which is the newcomer's now
    # the new holder's own mails still carry their link
    found = [PRIVATE.search(m.body) for m in sent_to(newcomer.email)]
    [link] = {f.group(1) for f in found if f is not None}
    opened = seat_for_key(link.rstrip("/").rsplit("/", 1)[-1])
    assert opened is not None and opened.player_id == newcomer.pk
