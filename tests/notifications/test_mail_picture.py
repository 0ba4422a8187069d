"""The board picture in the mails, through the real outbox and sending path: an inline PNG in
a multipart/related message, referenced by Content-ID from the HTML, with the text board kept
for plain-text readers."""

from __future__ import annotations

import io
from datetime import timedelta

import pytest
import time_machine
from django.core import mail as django_mail
from django.core.mail import EmailMessage, EmailMultiAlternatives
from django.utils import timezone
from PIL import Image, ImageChops

from games import services
from games.presentation.picture import PNG_WIDTH, raster
from games.presentation.picture.raster import svg_to_png
from games.rules import whitelotus as wl
from games.services.timing import TimeControls
from notifications import sweep
from notifications.models import BoardPicture, OutboundMail
from notifications.outbound import emails, pictures, sending
from tests.games.factories import players, running_game, whose_turn
from tests.notifications.helpers import (
    compose,
    deliver_pending,
    email_of,
    parts,
    receive,
    reply_to_of,
    sent_to,
)

pytestmark = pytest.mark.django_db


def png_of(message: EmailMessage) -> bytes:
    payload = parts(message)["image/png"].get_payload(decode=True)
    assert isinstance(payload, bytes)
    return payload


def message_of(row: OutboundMail) -> EmailMessage:
    return next(m for m in django_mail.outbox if m.extra_headers["Message-ID"] == f"<{row.message_id}>")


def played_one_move() -> tuple[int, str]:
    """A 4-player game where the first seat has moved by mail: the next seat's decision mail."""
    game = running_game(4, seed="picture")
    deliver_pending()
    seat = whose_turn(game)
    state = services.head_state(game)
    command = wl.Notation.format_command(state, wl.legal(state, seat)[0])
    receive(compose(reply_to_of(game, seat), email_of(game, seat), command))
    sent = deliver_pending()
    nxt = whose_turn(game)
    assert [m.kind for m in sent if m.seat == nxt] == ["decision"]
    return game.pk, email_of(game, nxt)


def test_a_decision_mail_shows_the_board_inline_and_keeps_the_text_board():
    _, address = played_one_move()
    message = sent_to(address)[-1]
    assert message.subject.startswith("Your move: ")
    assert message.message().get_content_type() == "multipart/related"
    found = parts(message)
    text = found["text/plain"].get_payload(decode=True).decode()
    html = found["text/html"].get_payload(decode=True).decode()
    image = found["image/png"]
    content_id = image["Content-ID"]
    assert content_id.startswith("<board.") and content_id.endswith(">")
    assert f'src="cid:{content_id[1:-1]}"' in html
    assert 'alt="The board as a picture (written out below)"' in html
    assert image.get_content_disposition() == "inline"
    # the text board is still there for plain-text readers: every province in play, with its number
    assert "The board (year 1):" in text
    assert "  4 Ningxia" in text and "* lotus area" in text
    picture = Image.open(io.BytesIO(png_of(message)))
    assert picture.format == "PNG" and picture.size[0] == PNG_WIDTH


def test_every_seat_gets_the_picture_of_its_own_mail_and_invitations_carry_it_too():
    running_game(3, seed="picture")
    sent = deliver_pending()
    assert {m.kind for m in sent} == {"invitation"}
    assert len(django_mail.outbox) == 3
    pictures = {png_of(m) for m in django_mail.outbox}
    assert len(pictures) == 1  # the picture draws public facts only: one for the table


def test_status_answers_carry_the_picture_and_help_answers_do_not():
    game = running_game(3, seed="picture")
    deliver_pending()
    seat = whose_turn(game)
    receive(compose(reply_to_of(game, seat), email_of(game, seat), "status\nhelp"))
    rows = {row.kind: row for row in deliver_pending()}
    assert set(rows) == {"status", "help"}
    status, help_mail = (message_of(rows[kind]) for kind in ("status", "help"))
    assert "image/png" in parts(status)
    assert "image/png" not in parts(help_mail)
    assert "cid:" not in rows["help"].html and "cid:board." in rows["status"].html


def test_a_retried_mail_carries_the_same_picture(monkeypatch):
    game = running_game(3, seed="picture")
    row = OutboundMail.objects.filter(game=game, seat=0).get()
    attempts: list[bytes] = []
    real_send = EmailMultiAlternatives.send

    def fail_once(self: EmailMultiAlternatives, fail_silently: bool = False) -> int:
        attempts.append(png_of(self))
        if len(attempts) == 1:
            raise ConnectionError("the provider is down")
        return int(real_send(self, fail_silently))

    monkeypatch.setattr(EmailMultiAlternatives, "send", fail_once)
    with pytest.raises(ConnectionError):
        sending.deliver(row.pk)
    svg_to_png.cache_clear()  # the second attempt draws the picture again
    assert sending.deliver(row.pk) == "sent"
    assert len(attempts) == 2 and attempts[0] == attempts[1]
    row.refresh_from_db()
    assert row.status == OutboundMail.Status.SENT and row.html.count("cid:board.") == 1


def test_the_picture_speaks_the_readers_language(monkeypatch):
    game = running_game(3, seed="picture")
    seat = game.seats.select_related("player").get(position=1)
    seat.player.language = "de"
    seat.player.save()
    row = OutboundMail.objects.get(game=game, seat=1)
    row.player = seat.player  # as sending does: the mail goes to who holds the seat
    drawn: list[str] = []
    real = pictures.draw_png
    monkeypatch.setattr(pictures, "draw_png", lambda svg, *args: drawn.append(svg) or real(svg, *args))
    rendered = emails.render(row)
    assert rendered.picture.startswith(b"\x89PNG") and len(drawn) == 1
    assert "Jahr 1" in drawn[0] and "Gebietsmarker setzen" in drawn[0]
    assert "Year 1" not in drawn[0]


def test_a_mail_whose_map_the_seat_was_just_shown_leaves_the_picture_out():
    """A reminder of the decision the invitation asked: nobody moved, so the seat's last
    picture shows this very map; the reminder carries the text board only, without a
    dangling cid: in its HTML (a picture less per mail the map did not change)."""
    game = services.create_game(players(3), seed="picture", time_controls=TimeControls())
    services.start_game(game)
    deliver_pending()
    seat = whose_turn(game)
    invitation = sent_to(email_of(game, seat))[-1]
    assert "image/png" in parts(invitation)
    with time_machine.travel(timezone.now() + timedelta(hours=24, minutes=1), tick=False):
        assert sweep.sweep().reminders == 1
    (row,) = deliver_pending()
    assert row.kind == "reminder" and row.seat == seat
    reminder = message_of(row)
    assert "image/png" not in parts(reminder) and "cid:" not in row.html
    assert "The board (year 1):" in row.text  # the text board is always there


def test_a_decision_mail_after_the_map_changed_carries_the_picture_again():
    _, address = played_one_move()  # the first seat placed a marker: a new map
    invitation, decision = sent_to(address)[-2:]
    assert "image/png" in parts(invitation) and "image/png" in parts(decision)
    assert png_of(invitation) != png_of(decision)


def test_a_map_no_mail_shows_again_is_never_rasterised(monkeypatch):
    """The SVG's parts are compared before anything is drawn: an event whose every mail leaves
    the picture out (the seat's last picture shows that very map) is kept as a sketch (its
    parts, no PNG), and only the events a mail carries a picture of are rasterised, once each."""
    drawn: list[int] = []
    real = pictures.draw_of
    monkeypatch.setattr(
        pictures,
        "draw_of",
        lambda rules, state, names, before=None: drawn.append(1) or real(rules, state, names, before),
    )
    game = running_game(3, seed="picture")
    deliver_pending()
    for _ in range(24):
        state = services.head_state(game)
        seat = wl.pending(state)[0].seat
        services.submit(game, seat, wl.default(state, seat))
        deliver_pending()
    carried = {
        row.seq
        for row in OutboundMail.objects.filter(game=game, status=OutboundMail.Status.SENT)
        if "cid:board." in row.html
    }
    pictures_kept = dict(BoardPicture.objects.filter(game=game).values_list("seq", "png"))
    rasterised = {seq for seq, png in pictures_kept.items() if bytes(png)}
    sketched = set(pictures_kept) - rasterised
    assert rasterised == carried and len(drawn) == len(rasterised)
    assert sketched, "no mail left its picture out: the game did not show what it should"
    shown_without = OutboundMail.objects.filter(game=game, seq__in=sketched, kind="decision")
    assert shown_without.exists() and all("cid:" not in row.html for row in shown_without)


def test_a_games_first_picture_is_drawn_from_the_start_of_another_game_like_it(monkeypatch):
    """A season starts many games at once: the second game's invitation picture is redrawn
    from the first game's (only what differs, the panel's names), not drawn from nothing, and
    shows what a picture drawn whole shows; a game of other colours is drawn from nothing."""
    drawn: list[bool] = []
    real = pictures.draw_of
    monkeypatch.setattr(
        pictures,
        "draw_of",
        lambda rules, state, names, before=None: (
            drawn.append(before is not None) or real(rules, state, names, before)
        ),
    )
    first = running_game(3, seed="kin-a")
    deliver_pending()
    second = services.create_game(players(3)[::-1], seed="kin-b")  # other players, the same colours
    services.start_game(second)
    (row, *_) = [m for m in deliver_pending() if m.game_id == second.pk]
    assert drawn == [False, True]
    png = bytes(BoardPicture.objects.get(game=second, seq=row.seq, language="en").png)
    whole = raster.rasterise(
        pictures._svg(second.engine, services.head_state(second), emails_names(second)), PNG_WIDTH
    )
    redrawn = Image.open(io.BytesIO(png)).convert("RGB")
    same_palette = raster.quantise(whole, raster.palette_in(png)).convert("RGB")
    diff = ImageChops.difference(redrawn, same_palette)
    assert sum(n for n, px in (diff.getcolors(1 << 24) or []) if px != (0, 0, 0)) <= 100
    assert png != bytes(BoardPicture.objects.get(game=first, language="en").png)  # other names
    other = services.create_game(players(4), seed="kin-c")  # a fourth colour: nothing alike
    services.start_game(other)
    deliver_pending()
    assert drawn[-1] is False


def emails_names(game):
    """The names the mails' picture gives each colour (as ``emails`` passes them)."""
    return {s.colour: s.player.name for s in game.seats.select_related("player")}
