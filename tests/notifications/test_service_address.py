"""A registered player's mail to an address of the service that names no game (a reply to the
daily digest, whose Reply-To is the service address) is read as their commands for all their
games and answered, never dropped (issue 29); a setting without ``here`` is for every game,
and clears a game's own setting of that kind, saying so with the line that sets it apart again."""

from __future__ import annotations

import pytest
from django.core import mail as django_mail
from django.test import override_settings

from games.models import Game
from notifications.models import InboundMail, MailPreference, OutboundMail
from notifications.outbound import digests
from notifications.services import preferences, tokens
from tests.games.factories import running_game
from tests.notifications.helpers import (
    a_digest_is_due,
    compose,
    deliver_pending,
    email_of,
    flat,
    receive,
    reply_to_of,
    sent_to,
)

pytestmark = pytest.mark.django_db

Mode = MailPreference.Mode


def the_digest() -> tuple[django_mail.EmailMessage, OutboundMail]:
    a_digest_is_due("en")
    django_mail.outbox.clear()
    assert digests.send_digests() == 1
    (row,) = deliver_pending()
    (sent,) = django_mail.outbox
    return sent, row


def answer_to(sent: django_mail.EmailMessage, row: OutboundMail, body: str) -> InboundMail:
    """A reply as a client writes it: to the Reply-To, quoting the mail."""
    quoted = "\n".join(f"> {line}" for line in row.text.splitlines()[:8])
    (address,) = sent.to
    return receive(
        compose(
            sent.reply_to[0],
            address,
            f"{body}\n\nOn Mon, the service wrote:\n{quoted}",
            in_reply_to=row.message_id,
        )
    )


def test_mail_decisions_in_a_reply_to_the_digest_stops_it_and_is_answered():
    sent, row = the_digest()
    assert sent.reply_to == [tokens.service_address()]
    inbound = answer_to(sent, row, "mail decisions")
    assert inbound.status == InboundMail.Status.APPLIED, inbound.outcome
    player = row.player
    assert preferences.of(player.pk, None).mode == Mode.DECISIONS
    assert preferences.digest_seats() == []
    (answer,) = deliver_pending()
    assert answer.kind == "account" and answer.to_email == player.email
    assert answer.in_reply_to == inbound.message_id
    assert "Your mail settings for all your games are now:" in answer.text
    assert "a mail when you must decide" in flat(answer.text)


@pytest.mark.parametrize(
    ("body", "says"),
    [
        ("status", "Your games:"),
        ("help", "This is the service's address"),
        ("link", "/me/"),
        (
            "Hi,\n\nstatus\n\nsee you soon",
            "I ignored these lines, which are not commands: Hi, / see you soon",
        ),
    ],
)
def test_status_help_and_link_at_the_service_address_are_answered(body, says):
    sent, row = the_digest()
    inbound = answer_to(sent, row, body)
    assert inbound.status == InboundMail.Status.ANSWERED, inbound.outcome
    (answer,) = deliver_pending()
    assert says in answer.text


def test_status_names_each_game_and_whether_a_decision_is_owed():
    game = running_game(3, seed="service-status")
    deliver_pending()
    player = game.seats.get(position=0).player
    receive(compose(tokens.service_address(), player.email, "status"))
    (answer,) = deliver_pending()
    assert f"== Game {game.pk} (Red) ==" in answer.text
    assert ("You must decide" in answer.text) != ("Nothing to decide for you now." in answer.text)


@pytest.mark.parametrize(
    ("body", "says"),
    [
        ("place Hangzhou", "“place Hangzhou” is not for this address"),
        ("mail digest here", "“mail digest here” sets one game apart, so it needs that game"),
        ("mail sometimes", "I could not read “mail sometimes” as a mail setting."),
    ],
)
def test_a_line_not_for_the_service_address_is_refused_with_where_it_goes(body, says):
    sent, row = the_digest()
    inbound = answer_to(sent, row, body)
    assert inbound.status == InboundMail.Status.REFUSED
    assert preferences.of(row.player.pk, None).mode == Mode.DIGEST  # nothing changed
    (answer,) = deliver_pending()
    assert says in flat(answer.text)
    assert "Nothing was changed." in answer.text


def test_a_german_reply_to_the_digest_is_answered_in_german():
    sent, row = the_digest()
    row.player.language = "de"
    row.player.save()
    answer_to(sent, row, "post entscheidungen")
    (answer,) = deliver_pending()
    assert answer.subject.startswith("Deine Mail-Einstellungen für alle deine Partien")
    assert preferences.of(row.player.pk, None).mode == Mode.DECISIONS


def test_a_stranger_at_the_service_address_is_still_not_answered():
    a_digest_is_due("en")
    deliver_pending()
    row = receive(compose(tokens.service_address(), "stranger@example.org", "mail decisions"))
    assert row.status == InboundMail.Status.UNKNOWN
    assert deliver_pending() == []


@override_settings(DEFAULT_FROM_EMAIL="White Lotus <lotus@lotus.test>")
def test_a_reply_to_the_address_the_mails_come_from_is_read_too():
    game = running_game(3, seed="service-from")
    deliver_pending()
    player = game.seats.get(position=1).player
    row = receive(compose("lotus@lotus.test", player.email, "help"))
    assert row.status == InboundMail.Status.ANSWERED, row.outcome


def test_a_blind_copy_of_a_move_to_the_service_address_is_left_to_the_games_address():
    game = running_game(3, seed="service-bcc")
    deliver_pending()
    seat = game.seats.get(position=1)
    raw = compose(tokens.reply_address(seat), seat.player.email, "status")
    from notifications.inbound import routing as inbound

    row, _ = inbound.store(raw, InboundMail.Via.SMTP, envelope_to=[tokens.service_address()])
    assert inbound.process(row.pk) == InboundMail.Status.UNKNOWN
    assert deliver_pending() == []


# --- a setting without "here" at a game's address ----------------------------------------------


def game_and_player() -> tuple[Game, int]:
    game = running_game(3, seed="apart")
    deliver_pending()
    return game, game.seats.get(position=1).player_id


@pytest.mark.parametrize(
    ("apart", "for_all", "check"),
    [
        ("mail digest here", "mail decisions", lambda p: p.mode == Mode.DECISIONS),
        ("picture off here", "picture on", lambda p: p.picture is True),
    ],
)
def test_a_setting_for_all_games_clears_the_games_own_and_says_so(apart, for_all, check):
    game, player = game_and_player()
    other = running_game(3, seed="apart-2")
    deliver_pending()
    receive(compose(reply_to_of(other, 1), email_of(other, 1), apart))
    receive(compose(reply_to_of(game, 1), email_of(game, 1), apart))
    deliver_pending()
    assert preferences.of(player, game.pk).set_here
    receive(compose(reply_to_of(game, 1), email_of(game, 1), for_all))
    (answer,) = deliver_pending()
    assert check(preferences.of(player, game.pk)) and check(preferences.of(player, other.pk))
    assert not preferences.of(player, game.pk).set_here
    text = flat(answer.text)
    assert "These games had a setting of their own, which now follows yours for all games:" in text
    assert f"Game {other.pk} (it had “{apart}”; write that line in a reply to a mail of the game" in text
    assert f"Game {game.pk} (it had “{apart}”" in text


def test_a_game_keeping_another_setting_of_its_own_says_which_and_how_to_clear_it():
    game, player = game_and_player()
    receive(compose(reply_to_of(game, 1), email_of(game, 1), "picture off here"))
    deliver_pending()
    receive(compose(reply_to_of(game, 1), email_of(game, 1), "mail all"))
    (answer,) = deliver_pending()
    text = flat(answer.text)
    assert "This game keeps settings of its own: picture off here." in text
    assert (
        "A setting without “here” is for all your games, this one included, and clears a game's own." in text
    )
    assert preferences.of(player, game.pk) == preferences.Preferences(Mode.ALL, False, True)


def test_the_answer_gives_the_line_in_the_readers_language():
    game, _ = game_and_player()
    holder = game.seats.get(position=1).player
    holder.language = "de"
    holder.save()
    receive(compose(reply_to_of(game, 1), email_of(game, 1), "post zusammenfassung hier"))
    deliver_pending()
    receive(compose(reply_to_of(game, 1), email_of(game, 1), "post entscheidungen"))
    (answer,) = deliver_pending()
    assert "sie hatte „post zusammenfassung hier“" in flat(answer.text)
    assert sent_to(holder.email)
