"""Seat addresses on one mailbox: ``<prefix><separator><token>@<domain>``, the separator ``+``
or ``-`` (REPLY_SEPARATOR), in the Reply-To of every mail and read back from the recipients;
the tokens cut out of the logs either way."""

from __future__ import annotations

import pytest

from notifications.models import OutboundMail
from notifications.outbound import sending
from notifications.services import tokens
from notifications.services.redact import redact
from tests.games.factories import running_game
from tests.notifications.helpers import compose, deliver_pending, receive, sent_to


@pytest.mark.parametrize("separator", ["+", "-"])
def test_the_reply_to_of_every_mail_is_the_seats_address_with_the_separator(db, settings, separator):
    settings.REPLY_PREFIX, settings.REPLY_DOMAIN, settings.REPLY_SEPARATOR = (
        "league",
        "example.org",
        separator,
    )
    game = running_game(3, seed=f"sep{separator}")
    deliver_pending()
    for seat in game.seats.all():
        token = tokens.live_token(seat).token
        [mail] = sent_to(seat.player.email)
        assert mail.reply_to == [f"league{separator}{token}@example.org"]
    assert OutboundMail.objects.exclude(status="sent").count() == 0


@pytest.mark.parametrize("separator", ["+", "-"])
def test_a_reply_to_the_address_with_the_separator_finds_its_seat(db, settings, separator):
    settings.REPLY_PREFIX, settings.REPLY_DOMAIN, settings.REPLY_SEPARATOR = (
        "league",
        "example.org",
        separator,
    )
    game = running_game(3, seed=f"find{separator}")
    seat = game.seats.get(position=0)
    address = tokens.reply_address(seat)
    assert tokens.find([address.upper()]) == tokens.live_token(seat)
    other = "+" if separator == "-" else "-"
    assert tokens.find([address.replace(separator, other, 1)]) is None  # the other separator is not ours
    row = receive(compose(address, seat.player.email, "help"))
    assert (row.game_id, row.seat, row.status) == (game.pk, 0, "answered"), row.outcome


def test_tokens_are_cut_from_the_logs_after_either_separator():
    token = "abcdefghijklmnopqrstuvwxyz"
    assert redact(f"to league+{token}@example.org") == "to league+[token]@example.org"
    assert redact(f"to league-{token}@example.org") == "to league-[token]@example.org"
    assert redact("to league-secretary@example.org") == "to league-secretary@example.org"


def test_a_mail_outside_a_game_answers_to_the_mailbox_itself(db, settings):
    settings.REPLY_PREFIX, settings.REPLY_DOMAIN, settings.REPLY_SEPARATOR = "league", "example.org", "-"
    from notifications.outbound import outbox

    row = outbox.notify("t1", "digest", "ada@example.org", {})
    assert sending._message(row).reply_to == ["league@example.org"]
