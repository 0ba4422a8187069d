"""A whole game played by mail through an ordinary mailbox: the service sends by SMTP
submission (STARTTLS, AUTH) to a provider on loopback, the scripted players answer each
decision mail from its own menu to its Reply-To (``play+<token>@lotus.test``), the provider
delivers the answers into one Dovecot mailbox (``doveadm save``, with the Delivered-To header
it writes), and the fetcher, IDLE on that mailbox, takes them in; a real Celery worker on the
real Redis processes them and sends the mails they cause.

Faults on the way: the provider refuses for rate twice (the outbox waits, then drains), the
mailbox's server throws the fetcher out (it logs in again), and one answer arrives twice (it
is applied once)."""

from __future__ import annotations

import random
import threading
import time
from email.message import EmailMessage
from email.utils import make_msgid

import pytest

from games import services
from games.models import Event, Game
from notifications import tasks
from notifications.imap.fetch import Tally
from notifications.imap.watching import watch
from notifications.models import InboundMail, OutboundMail, SendingPace
from tests.games.factories import players
from tests.notifications.dovecot import USER, running_dovecot, tool
from tests.notifications.mailbox import Received, pick
from tests.notifications.submission import PASSWORD, start_provider
from tests.notifications.submission import USER as SMTP_USER
from tests.notifications.workers import worker
from tests.waiting import PATIENCE, wait_for

GAME_PATIENCE = 1800.0


def answer(mail: Received, sender: str, body: str) -> bytes:
    """A player's answer to a mail, as the provider puts it in the league's mailbox."""
    to = str(mail.message["Reply-To"])
    message = EmailMessage()
    message["Delivered-To"] = to
    message["Return-Path"] = f"<{sender}>"
    message["From"] = sender
    message["To"] = to
    message["Subject"] = "Re: " + mail.subject
    message["Message-ID"] = make_msgid(domain="player.test")
    message["In-Reply-To"] = str(mail.message["Message-ID"])
    message["References"] = str(mail.message["Message-ID"])
    quoted = "\n".join("> " + line for line in mail.text.splitlines())
    message.set_content(f"{body}\n\nOn Sun, 22 Nov 2026 at 10:00, White Lotus wrote:\n{quoted}\n")
    return message.as_bytes()


@pytest.mark.slow
def test_a_whole_game_is_played_through_an_ordinary_mailbox(
    postgres_transactional, redis_url, settings, monkeypatch, tmp_path
):
    import subprocess

    box, smtp_server, cert = start_provider(tmp_path, "starttls")
    monkeypatch.setenv("SSL_CERT_FILE", str(cert))
    settings.EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    settings.EMAIL_HOST, settings.EMAIL_PORT = "127.0.0.1", smtp_server.port
    settings.EMAIL_HOST_USER, settings.EMAIL_HOST_PASSWORD = SMTP_USER, PASSWORD
    settings.EMAIL_USE_TLS = True
    settings.MAIL_SEND_PER_MINUTE, settings.MAIL_SEND_PER_DAY = 600, 5000
    settings.MAIL_RATE_PAUSE_SECONDS = 1.0
    rng = random.Random("mailbox")
    answers: list[bytes] = []
    tallies: list[Tally] = []
    stop = threading.Event()
    try:
        with running_dovecot() as dovecot, worker(redis_url):
            fetcher = threading.Thread(target=lambda: tallies.append(watch(dovecot.account(), stop=stop)))
            fetcher.start()
            try:
                wait_for(lambda: dovecot.count("INBOX") == 0 and tallies == [], "the fetcher to start")
                people = players(3)
                game = services.create_game(people, seed="mailbox-game")
                services.start_game(game)
                addresses = {p.email.lower(): p.email for p in people}
                seen = 0
                swept = time.monotonic()
                deadline = time.monotonic() + GAME_PATIENCE
                while Game.objects.get(pk=game.pk).status != Game.Status.FINISHED:
                    assert time.monotonic() < deadline, f"the game did not finish in {GAME_PATIENCE:.0f} s"
                    tasks.drain_outbox()  # beat's drain: what the refusals held
                    if time.monotonic() > swept + 10:  # beat's sweep: tasks lost on the way
                        tasks.sweep_mail()
                        swept = time.monotonic()
                    if not box.wait_for(seen + 1, timeout=1.0):
                        assert time.monotonic() < deadline and fetcher.is_alive()
                        continue
                    while seen < len(box.mails):
                        mail = box.mails[seen]
                        seen += 1
                        assert not mail.subject.startswith("Refused:"), mail.text
                        if "What you can do now:" not in mail.text:
                            continue
                        raw = answer(mail, addresses[mail.to], pick(mail.text, rng))
                        answers.append(raw)
                        dovecot.deliver(raw)
                        if len(answers) == 4:  # the provider: "slow down", twice
                            box.refusals = ["451 4.7.1 Too many messages, try again later"] * 2
                        if len(answers) == 8:  # the mailbox's server throws the fetcher out
                            kicked = subprocess.run(
                                [tool("doveadm"), "-c", str(dovecot.config), "kick", USER],
                                capture_output=True,
                                timeout=60,
                            )
                            assert kicked.returncode == 0, kicked.stderr
                        if len(answers) == 12:  # the same answer delivered twice
                            dovecot.deliver(raw)
                wait_for(
                    lambda: len([m for m in box.mails if m.subject.startswith("Game over")]) == 3,
                    "the three game-over mails",
                )
                wait_for(lambda: dovecot.count("INBOX") == 0, "every answer moved out of the inbox")
                processed = dovecot.count("WhiteLotus.Processed")
            finally:
                stop.set()
                fetcher.join(PATIENCE)
    finally:
        smtp_server.stop()

    assert not fetcher.is_alive()
    [tally] = tallies
    print(
        f"{len(answers)} answers by mail, {len(box.mails)} mails sent; fetcher: {tally}; "
        f"provider refused {box.refused}"
    )
    assert box.refused == 2 and SendingPace.objects.get().last_refusal.startswith("SMTPRecipientsRefused")
    assert tally.reconnects >= 1 and tally.idles >= 1
    assert processed == len(answers) + 1  # the double too, moved with the rest
    assert tally.stored == len(answers) and tally.duplicates == 1
    game.refresh_from_db()
    by_mail = [e for e in game.events.all() if e.source == Event.Source.MAIL]
    assert InboundMail.objects.filter(status=InboundMail.Status.APPLIED).count() == len(by_mail)
    assert InboundMail.objects.filter(via="imap").count() == len(answers)
    assert not OutboundMail.objects.exclude(status=OutboundMail.Status.SENT).exists()
    sent_ids = [str(m.message["Message-ID"]) for m in box.mails]
    assert len(sent_ids) == len(set(sent_ids)) == OutboundMail.objects.count()  # each mail once
