"""The local mailbox: mails stored whole, read on a page, answered as the recipient by SMTP
into the same inbound pipeline; the demo game whose bots answer their own mails."""

from __future__ import annotations

import io
import os
import subprocess
import sys
from email.mime.image import MIMEImage
from pathlib import Path

import pytest
from django.core.mail import EmailMultiAlternatives
from django.core.management import call_command
from django.core.management.base import CommandError
from django.test import Client

from games import services
from games.models import Event, Game
from games.rules import whitelotus as wl
from notifications.localmail.backend import EmailBackend
from notifications.localmail.bots import play_bots
from notifications.localmail.demo import create_demo
from notifications.localmail.models import LocalMail
from notifications.localmail.reading import read
from notifications.localmail.replying import build_reply
from notifications.models import InboundMail, OutboundMail
from tests.games.factories import running_game
from tests.notifications.localplay import local_play  # noqa: F401  (a fixture)

PNG = bytes.fromhex("89504e470d0a1a0a0000000d4948445200000001000000010806000000") + b"\0" * 20


def _mail_with_picture() -> EmailMultiAlternatives:
    message = EmailMultiAlternatives(
        subject="Game 1: your move",
        body="What you can do now:\n  place <province>",
        from_email="White Lotus <lotus@lotus.test>",
        to=["ada@example.org", "bao@example.org"],
        reply_to=["play+abcdefghijklmnopqrstuvwxyz@lotus.test"],
        headers={"Message-ID": "<wl.test.1@lotus.test>"},
    )
    message.attach_alternative('<p>Board</p><img src="cid:board.png"><script>alert(1)</script>', "text/html")
    message.mixed_subtype = "related"
    image = MIMEImage(PNG, "png")
    image.add_header("Content-ID", "<board.png>")
    message.attach(image)
    return message


@pytest.mark.django_db
def test_every_sent_mail_is_kept_whole_for_each_recipient_and_printed_in_one_line():
    out = io.StringIO()
    assert EmailBackend(stream=out).send_messages([_mail_with_picture()]) == 1
    rows = list(LocalMail.objects.order_by("to_address"))
    assert [r.to_address for r in rows] == ["ada@example.org", "bao@example.org"]
    reading = read(rows[0])
    assert reading.message_id == "<wl.test.1@lotus.test>"
    assert reading.reply_to == "play+abcdefghijklmnopqrstuvwxyz@lotus.test"
    assert "place <province>" in reading.text
    assert reading.inline["board.png"].data == PNG
    lines = out.getvalue().splitlines()
    assert len(lines) == 2
    assert (
        lines[0]
        == 'mail to ada@example.org: "Game 1: your move"  http://localhost:8000/mailbox/ada@example.org/'
    )


@pytest.mark.django_db
def test_the_mailbox_is_not_there_unless_local_mailbox_is_on(settings):
    EmailBackend(stream=io.StringIO()).send_messages([_mail_with_picture()])
    mail = LocalMail.objects.first()
    assert mail is not None
    settings.LOCAL_MAILBOX = False
    client = Client()
    for url in ("/mailbox/", "/mailbox/ada@example.org/", f"/mailbox/mail/{mail.pk}/raw/"):
        assert client.get(url).status_code == 404, url
    assert client.post(f"/mailbox/mail/{mail.pk}/reply/", {"commands": "pass"}).status_code == 404


@pytest.mark.django_db
def test_the_html_part_is_shown_in_a_sandbox_with_its_inline_picture(settings):
    settings.LOCAL_MAILBOX = True
    EmailBackend(stream=io.StringIO()).send_messages([_mail_with_picture()])
    mail = LocalMail.objects.get(to_address="ada@example.org")
    client = Client()
    page = client.get("/mailbox/ada@example.org/").content.decode()
    assert (
        f'sandbox="allow-popups allow-popups-to-escape-sandbox" src="/mailbox/mail/{mail.pk}/html/"' in page
    )
    assert "<script>" not in page  # the HTML part is only ever in the frame
    frame = client.get(f"/mailbox/mail/{mail.pk}/html/")
    assert frame["Content-Security-Policy"].startswith("sandbox ")
    assert "script-src" not in frame["Content-Security-Policy"]  # default-src 'none' forbids scripts
    assert f'src="/mailbox/mail/{mail.pk}/cid/board.png/"' in frame.content.decode()
    picture = client.get(f"/mailbox/mail/{mail.pk}/cid/board.png/")
    assert picture["Content-Type"] == "image/png" and picture.content == PNG
    assert client.get(f"/mailbox/mail/{mail.pk}/cid/other.png/").status_code == 404


@pytest.mark.django_db
def test_a_reply_is_threaded_from_the_recipient_to_the_reply_to_with_the_original_quoted():
    EmailBackend(stream=io.StringIO()).send_messages([_mail_with_picture()])
    reply = build_reply(LocalMail.objects.get(to_address="bao@example.org"), "place Hubei\n")
    assert reply["From"] == "bao@example.org"
    assert reply["To"] == "play+abcdefghijklmnopqrstuvwxyz@lotus.test"
    assert reply["Subject"] == "Re: Game 1: your move"
    assert reply["In-Reply-To"] == "<wl.test.1@lotus.test>"
    assert reply["References"] == "<wl.test.1@lotus.test>"
    body = reply.get_content()
    assert body.startswith("place Hubei\n\nOn ")
    assert "wrote:\n> What you can do now:\n>   place <province>" in body


def _prompt_mail(game: Game, address: str) -> LocalMail:
    mails = [
        m
        for m in LocalMail.objects.filter(to_address=address).order_by("-pk")
        if "What you can do now:" in read(m).text
    ]
    assert mails, f"no decision mail for {address}"
    return mails[0]


@pytest.mark.usefixtures("local_play")
def test_a_reply_sent_from_the_mailbox_page_goes_in_by_smtp_and_moves_the_game():
    game = running_game(3, seed="mailbox")
    first = wl.pending(services.head_state(game))[0].seat
    address = game.seats.get(position=first).player.email
    prompt = _prompt_mail(game, address)
    command = wl.format_command(services.head_state(game), wl.legal(services.head_state(game), first)[0])
    before = LocalMail.objects.count()
    page = Client().get(f"/mailbox/{address}/").content.decode()
    assert "<li><code>place &lt;province&gt;  where &lt;province&gt; is one of:" in page  # the menu

    response = Client().post(f"/mailbox/mail/{prompt.pk}/reply/", {"commands": command}, follow=True)

    assert response.status_code == 200
    assert "to the game by SMTP" in response.content.decode()
    inbound = InboundMail.objects.get()
    assert inbound.via == InboundMail.Via.SMTP and inbound.status == InboundMail.Status.APPLIED, (
        inbound.outcome
    )
    event = Event.objects.filter(game=game, kind=Event.Kind.COMMAND).get()
    assert (event.seat, event.source, event.command_text) == (first, Event.Source.MAIL, command)
    assert LocalMail.objects.count() > before  # the next mails are in the mailboxes
    assert "Sent since your reply" in response.content.decode()
    assert "commands applied" in response.content.decode()
    assert 'class="flash success" role="status">' in response.content.decode()


@pytest.mark.usefixtures("local_play")
def test_the_demo_game_moves_when_the_bots_job_runs():
    game = create_demo("you@localhost", players=4, edition="kosmos", seat=1, seed="demo-bots")
    assert game.status == Game.Status.RUNNING
    assert LocalMail.objects.filter(to_address="you@localhost").exists()  # the invitation

    report = play_bots()

    assert report.replies, "the bots made no move"
    game.refresh_from_db()
    moves = Event.objects.filter(game=game, kind=Event.Kind.COMMAND)
    assert moves.count() == len(report.replies)
    assert {e.source for e in moves} == {Event.Source.MAIL}
    assert all(e.seat != 1 for e in moves)  # never for the person's seat
    assert InboundMail.objects.filter(status=InboundMail.Status.APPLIED).count() == len(report.replies)
    # the bots stopped because it is the person's turn (or a sealed choice waits for them)
    waiting = {d.seat for d in wl.pending(services.head_state(game))}
    assert 1 in waiting
    assert not play_bots().replies  # nothing more to do until the person answers


@pytest.mark.usefixtures("local_play")
def test_bots_and_a_person_play_a_demo_game_on_by_mail():
    game = create_demo("you@localhost", players=3, edition="designer", seat=0, seed="demo-person")
    for _ in range(4):
        play_bots()
        state = services.head_state(game)
        assert 0 in {d.seat for d in wl.pending(state)}
        command = wl.format_command(state, wl.legal(state, 0)[0])
        Client().post(f"/mailbox/mail/{_prompt_mail(game, 'you@localhost').pk}/reply/", {"commands": command})
    people = Event.objects.filter(game=game, kind=Event.Kind.COMMAND, seat=0).count()
    assert people == 4
    assert Event.objects.filter(game=game, kind=Event.Kind.COMMAND).exclude(seat=0).count() >= 4
    assert not InboundMail.objects.exclude(status=InboundMail.Status.APPLIED).exists()


@pytest.mark.usefixtures("local_play")
def test_a_refused_reply_says_why_and_the_answer_lands_in_the_mailbox():
    game = running_game(3, seed="mailbox-refused")
    first = wl.pending(services.head_state(game))[0].seat
    address = game.seats.get(position=first).player.email
    prompt = _prompt_mail(game, address)

    response = Client().post(f"/mailbox/mail/{prompt.pk}/reply/", {"commands": "place Atlantis"}, follow=True)

    page = response.content.decode()
    assert "refused (answered with the reason)" in page
    # shown as a refusal, not in the green box of a move played
    assert 'class="flash error" role="alert">' in page and 'class="flash success"' not in page
    assert "Refused: nothing was played." in page
    assert not Event.objects.filter(game=game, kind=Event.Kind.COMMAND).exists()
    newest = LocalMail.objects.filter(to_address=address).latest("pk")
    assert newest.pk != prompt.pk and "Atlantis" in read(newest).text


@pytest.mark.usefixtures("local_play")
def test_bots_leave_games_without_bot_players_alone():
    running_game(3, seed="no-bots")
    report = play_bots()
    assert report.replies == [] and not InboundMail.objects.exists()


@pytest.mark.django_db
def test_the_demo_command_prints_your_mailbox_and_the_game_and_refuses_a_bot_address():
    out = io.StringIO()
    call_command("demo", "--email", "me@example.org", "--players", "3", stdout=out)
    game = Game.objects.get()
    assert [s.player.email for s in game.seats.order_by("position")] == [
        "me@example.org",
        "blue@bot.localhost",
        "green@bot.localhost",
    ]
    assert "/mailbox/me@example.org/" in out.getvalue() and f"/games/{game.pk}/" in out.getvalue()
    with pytest.raises(CommandError, match="bot"):
        call_command("demo", "--email", "red@bot.localhost", stdout=io.StringIO())


def test_without_site_url_the_links_follow_the_port_the_local_server_runs_on():
    env = {k: v for k, v in os.environ.items() if k != "SITE_URL"} | {"PORT": "9123"}
    code = "import django; django.setup(); from django.conf import settings; print(settings.SITE_URL)"
    printed = subprocess.run(
        [sys.executable, "-c", code],
        env=env | {"DJANGO_SETTINGS_MODULE": "whitelotus.settings"},
        capture_output=True,
        text=True,
        check=True,
        cwd=Path(__file__).resolve().parents[2],
    ).stdout
    assert printed.strip() == "http://localhost:9123"


@pytest.mark.usefixtures("local_play")
def test_a_bot_waits_while_its_newest_decision_mail_is_still_on_its_way():
    game = create_demo("you@localhost", players=3, seat=2, seed="demo-wait")
    OutboundMail.objects.create(  # as a worker leaves it until it gets to it
        key="not-sent-yet", message_id="wl.later@lotus.test", kind="decision", game=game, seat=0, seq=99
    )

    report = play_bots()

    assert report.replies == [] and report.waiting == [f"game {game.pk} red"]
    assert not InboundMail.objects.exists()


@pytest.mark.usefixtures("local_play")
def test_the_bots_command_answers_for_the_bots_once_and_says_what_it_did():
    game = create_demo("you@localhost", players=3, seat=2, seed="demo-command")
    out = io.StringIO()

    call_command("bots", stdout=out)

    moves = Event.objects.filter(game=game, kind=Event.Kind.COMMAND).order_by("seq")
    assert out.getvalue().startswith(f"{moves.count()} bot replies")
    assert [m.seat for m in moves] == [0, 1]  # red and blue, then it is your turn
