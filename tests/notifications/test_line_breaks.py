"""Line breaks, long words and folded subjects as real clients send and show them (issue 29):
U+2028, U+2029, NEL and a lone CR are line breaks in talk and in a ready text; a word longer
than the quote box is broken inside it; a long non-ASCII subject is folded with its first
encoded word on the Subject line; a ready without Message-ID hashes the stored mail's id."""

from __future__ import annotations

import email
import email.policy

import pytest
from django.core import mail as django_mail

from games import services
from games.models import Game, Press
from games.rules import rng
from notifications.models import InboundMail, OutboundMail
from notifications.outbound import sending
from notifications.outbound.plaintext import LIMIT
from notifications.outbound.press import box_lines
from notifications.services import tokens
from tests.games.factories import players, running_game
from tests.notifications.helpers import check_layout, deliver_pending, receive, sent_to

pytestmark = pytest.mark.django_db


def raw_mail(to: str, sender: str, body: str, *, message_id: str | None = "<m1@player.test>") -> bytes:
    """A mail as a client's bytes: UTF-8 text as typed, whatever separators it holds (the
    ``email`` package would turn U+2028 into a line break while writing)."""
    head = [f"From: {sender}", f"To: {to}", "Subject: Re: your move", "MIME-Version: 1.0"]
    if message_id:
        head.append(f"Message-ID: {message_id}")
    head += ["Content-Type: text/plain; charset=utf-8", "Content-Transfer-Encoding: 8bit"]
    return ("\r\n".join(head) + "\r\n\r\n").encode() + body.encode("utf-8") + b"\r\n"


def talk_game() -> Game:
    game = running_game(3, seed="breaks")
    deliver_pending()
    django_mail.outbox.clear()
    return game


@pytest.mark.parametrize("separator", ["\u2028", "\u2029", "\x85", "\r"])
def test_a_unicode_or_old_mac_line_break_in_talk_is_a_line_break(separator):
    game = talk_game()
    seat = game.seats.get(position=0)
    body = f"say all: first line{separator}second line"
    row = receive(raw_mail(tokens.reply_address(seat), seat.player.email, body))
    assert row.status == InboundMail.Status.APPLIED, row.outcome
    assert Press.objects.get().text == "first line\nsecond line"
    deliver_pending()
    (press,) = [m for m in sent_to(game.seats.get(position=1).player.email) if "to all" in m.subject]
    assert "  | first line\n  | second line\n" in press.body
    assert not {"\u2028", "\u2029", "\x85", "\r"} & set(press.body.replace("\r\n", "\n"))


def test_a_word_longer_than_the_quote_box_is_broken_inside_it():
    game = talk_game()
    seat = game.seats.get(position=0)
    shout = "A" * 2000
    row = receive(raw_mail(tokens.reply_address(seat), seat.player.email, f"say all: {shout}"))
    assert row.status == InboundMail.Status.APPLIED, row.outcome
    deliver_pending()
    (press,) = [m for m in sent_to(game.seats.get(position=1).player.email) if "to all" in m.subject]
    check_layout(press.body, "press with a 2,000-letter word")
    boxed = [line for line in press.body.splitlines() if line.startswith("  | ")]
    assert "".join(line[4:] for line in boxed) == shout
    assert max(len(line) for line in boxed) == 76
    assert "overflow-wrap: anywhere" in press.alternatives[0][0]


def test_the_quote_box_keeps_blank_lines_and_breaks_between_words():
    assert box_lines("one two\n\nthree", width=5) == ["one", "two", "", "three"]
    assert box_lines("x" * 12, width=5) == ["xxxxx", "xxxxx", "xx"]


def ready_game() -> Game:
    return services.create_game(players(3), seed="ready-breaks", ready_hours=24)


def test_ready_without_a_message_id_hashes_the_stored_mails_own_id_and_shows_it():
    game = ready_game()
    values = []
    for position in (0, 1):
        seat = game.seats.select_related("player").get(position=position)
        row = receive(raw_mail(tokens.reply_address(seat), seat.player.email, "prêt", message_id=None))
        assert row.status == InboundMail.Status.APPLIED, row.outcome
        assert row.message_id.endswith("@no-message-id")
        values.append(services.entropy_of(game)[position])
        assert values[-1] == rng.contribution("", row.message_id)
        answer = OutboundMail.objects.filter(kind="ready", seat=position).latest("pk")
        deliver_pending()
        assert row.message_id in " ".join(OutboundMail.objects.get(pk=answer.pk).text.split())
    assert values[0] != values[1]  # not the SHA-256 of a line break, twice
    assert rng.contribution("", "") not in values


def test_a_ready_text_with_a_line_separator_is_its_first_line_in_one_block():
    game = ready_game()
    seat = game.seats.select_related("player").get(position=0)
    row = receive(
        raw_mail(tokens.reply_address(seat), seat.player.email, "ready thunder\u2028over the river")
    )
    assert services.entropy_of(game)[0] == rng.contribution("thunder", row.message_id)
    (answer,) = [m for m in deliver_pending() if m.kind == "ready"]
    text = answer.text
    assert "\u2028" not in text
    block = text.split("Your text:\n", 1)[1].split("\n")
    assert block[0] == "  thunder" and block[1].startswith("Your mail's Message-ID:")


def test_a_long_non_ascii_subject_is_folded_without_a_leading_space():
    running_game(3, seed="fold", name="Ligue d’automne du Lotus : 2026 Automne · tableau 1.1")
    deliver_pending()
    sent = django_mail.outbox[0]
    assert not sent.subject.isascii() and len(sent.subject) > 70
    raw = sent.message().as_bytes()
    head = raw.split(b"\n\n", 1)[0].decode()
    subject_line = next(line for line in head.splitlines() if line.startswith("Subject:"))
    assert subject_line.startswith("Subject: =?utf-8?"), head
    assert all(len(line) <= LIMIT for line in head.splitlines())
    parsed = email.message_from_bytes(raw, policy=email.policy.default)
    assert str(parsed["Subject"]) == sent.subject and not str(parsed["Subject"]).startswith(" ")
    assert isinstance(sent, sending._Mail)


def test_the_mailbox_replies_to_a_subject_folded_as_old_mails_were_without_a_double_space():
    """A mail stored before the fold was fixed ("Subject:" and an empty first line) is still
    answered "Re: New game …" from the local mailbox, with one space."""
    from notifications.localmail.models import LocalMail
    from notifications.localmail.replying import build_reply

    raw = (
        b"From: White Lotus <lotus@localhost>\r\nTo: you@localhost\r\nReply-To: play+t@localhost\r\n"
        b"Subject: \r\n =?utf-8?q?New_game_=C2=B7_Partie_12_=E2=80=94_a_long_and_non-ASCII_subject?=\r\n"
        b"Message-ID: <old@localhost>\r\nContent-Type: text/plain; charset=utf-8\r\n\r\nHello\r\n"
    )
    stored = LocalMail.objects.create(to_address="you@localhost", raw=raw, message_id="old@localhost")
    reply = build_reply(stored, "place Ningxia")
    assert str(reply["Subject"]) == "Re: New game · Partie 12 — a long and non-ASCII subject"
