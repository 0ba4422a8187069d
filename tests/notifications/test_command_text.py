"""Hostile command text through the whole pipeline: a huge word or number, invisible and
look-alike characters are answered at once, with a short quote, and nothing escapes as an
exception (notation.clean and the bounds of parse_command; inbound.refuse)."""

from __future__ import annotations

import time

import pytest

from games import services
from games.models import Event
from notifications.models import InboundMail
from notifications.services import tokens
from tests.games.factories import running_game
from tests.notifications.helpers import compose, deliver_pending, receive, sent_to

pytestmark = pytest.mark.django_db


def _mail(game, seat: int, body: str) -> InboundMail:
    holder = game.seats.get(position=seat)
    return receive(compose(tokens.reply_address(holder), holder.player.email, body))


def test_a_word_of_100000_characters_is_refused_at_once_and_quoted_short():
    game = running_game(3, seed="mail")
    deliver_pending()
    started = time.thread_time()  # CPU time: the bound holds on a busy machine
    row = _mail(game, 0, "x" * 100_000)
    assert time.thread_time() - started < 2  # the typo suggestion alone took 6 s
    assert row.status == InboundMail.Status.REFUSED
    assert row.outcome == "This line has 100000 characters; a command has at most 200."
    deliver_pending()
    answer = sent_to("ada@example.org")[-1]
    assert len(answer.body) < 20_000
    assert "  > " + "x" * 60 + "…\n" in answer.body  # the line fits 76 columns, unbroken


def test_a_number_of_5000_digits_is_refused_not_raised():
    game = running_game(3, seed="mail")
    deliver_pending()
    row = _mail(game, 0, "army " + "7" * 5000)  # int() of it raised ValueError past IllegalCommand
    assert row.status == InboundMail.Status.REFUSED
    assert "a command has at most 200" in row.outcome


def test_a_command_with_invisible_characters_and_full_width_letters_is_applied():
    game = running_game(3, seed="mail")
    deliver_pending()
    before = game.events.count()
    row = _mail(game, 0, "\ufeffｐｌａｃｅ Ning\u200bxia\u00ad")
    assert row.status == InboundMail.Status.APPLIED, row.outcome
    assert game.events.count() == before + 1
    assert game.events.latest("seq").kind == Event.Kind.COMMAND


def test_help_with_a_zero_width_space_is_still_help():
    game = running_game(3, seed="mail")
    deliver_pending()
    row = _mail(game, 0, "he\u200blp")
    assert row.status == InboundMail.Status.ANSWERED, row.outcome


def test_a_vacation_of_endless_days_is_refused_not_raised():
    game = running_game(3, seed="mail")
    deliver_pending()
    row = _mail(game, 1, "vacation " + "9" * 400 + " days")  # overflowed timedelta
    assert row.status == InboundMail.Status.REFUSED
    assert row.outcome == "Write the days you will be away, e.g.: vacation 5 days"
    row = _mail(game, 1, "urlaub\u200b 3 tage")
    assert row.status == InboundMail.Status.APPLIED, row.outcome


def test_a_line_of_invisible_characters_is_no_command():
    game = running_game(3, seed="mail")
    result = services.submit(game, 0, "place Ningxia\n\u200b\ufeff\n")
    assert [e.command_text for e in result.events] == ["place Ningxia"]
