"""No mail to seat A shows seat B's hand, sealed choice or drawn tile: whole random games
played through the service, every mail rendered (text and HTML) and read as its seat would."""

from __future__ import annotations

import html
import random

import pytest
from django.core import mail as django_mail

from games import services
from games.rules import whitelotus as wl
from notifications.models import OutboundMail
from tests.games.factories import play_randomly, players
from tests.notifications.helpers import deliver_pending

pytestmark = pytest.mark.django_db


def private_lines(game) -> dict[int, set[str]]:
    """Every sentence the engine said to one seat only, by seat."""
    said: dict[int, set[str]] = {}
    for _, state, log in services.walk(game):
        for entry in log:
            if entry.private_to is not None:
                said.setdefault(entry.private_to, set()).add(wl.Presentation.narrate(state, entry))
    return said


@pytest.mark.slow
@pytest.mark.parametrize(("edition", "n", "seed"), [("kosmos", 3, 1), ("kosmos", 5, 2), ("designer", 4, 3)])
def test_no_mail_to_a_seat_shows_another_seats_secrets(edition, n, seed):
    rng = random.Random(seed)
    game = services.create_game(players(n), edition=edition, seed=f"privacy-{seed}")
    services.start_game(game)
    play_randomly(game, rng)
    deliver_pending()
    secrets = private_lines(game)
    sent = {m.extra_headers["Message-ID"].strip("<>"): m for m in django_mail.outbox}
    checked = 0
    for row in OutboundMail.objects.filter(game=game).exclude(seat=None):
        message = sent[row.message_id]
        text = message.body + html.unescape(message.alternatives[0][0])
        mine = secrets.get(row.seat, set())
        for other, lines in secrets.items():
            if other == row.seat:
                continue
            for line in lines - mine:
                assert line not in text, (row.kind, row.seat, other, line)
        seen = wl.view(services.state_at(game, row.seq), row.seat)
        hand = seen["hand"]
        if "Your hand:" in message.body:
            assert f"Your hand: {hand['influence']} influence, {hand['army']} army" in message.body
        if "The tile you drew:" in message.body:
            assert "drawn" in seen
        checked += 1
    assert checked > 50
