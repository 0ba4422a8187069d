"""Whole games played only by mail over SMTP on loopback, with a real Celery worker on the
real Redis: Django sends through its SMTP backend to a player mailbox (aiosmtpd); scripted
players read their mails, choose a command from each mail's own menu and reply over SMTP
into the service's SMTP listener (``manage.py smtpd``'s controller)."""

from __future__ import annotations

import random
import re
import time

import pytest

from games import services
from games.models import Event, Game
from games.rules import whitelotus as wl
from notifications.models import InboundMail, OutboundMail
from notifications.smtp import controller
from tests.games.factories import players

from .mailbox import free_port, pick, reply, start_mailbox
from .workers import worker

SCORE = re.compile(r"^\s+(\d+)\. (\w+) \((\w+)\): (\d+)", re.MULTILINE)


@pytest.mark.parametrize("edition", ["kosmos", "designer"])
def test_a_whole_game_is_played_by_mail_over_smtp(edition, postgres_transactional, redis_url, settings):
    box, mailbox_server = start_mailbox()
    inbound_server = controller("127.0.0.1", free_port())
    inbound_server.start()
    settings.EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    settings.EMAIL_HOST, settings.EMAIL_PORT = "127.0.0.1", mailbox_server.port
    rng = random.Random(edition)
    try:
        with worker(redis_url):
            people = players(3)
            game = services.create_game(people, edition=edition, seed=f"e2e-{edition}")
            services.start_game(game)
            addresses = {p.email.lower(): p.email for p in people}
            seen = 0
            deadline = time.monotonic() + 600
            while Game.objects.get(pk=game.pk).status != Game.Status.FINISHED:
                assert time.monotonic() < deadline, "the game did not finish in time"
                if not box.wait_for(seen + 1, timeout=30):
                    pytest.fail(f"no mail for 30 s; last: {box.mails[-1].subject if box.mails else None}")
                while seen < len(box.mails):
                    mail = box.mails[seen]
                    seen += 1
                    assert not mail.subject.startswith("Refused:"), mail.text
                    if "What you can do now:" in mail.text:
                        command = pick(mail.text, rng)
                        reply(mail, addresses[mail.to], command, "127.0.0.1", inbound_server.port)
            _wait(lambda: len([m for m in box.mails if m.subject.startswith("Game over")]) == 3)
    finally:
        inbound_server.stop()
        mailbox_server.stop()

    game.refresh_from_db()
    moves = [
        (e.seat, wl.command_from_dict(e.payload["command"]))
        for e in services.effective(game.events.order_by("seq"))
        if e.kind in (Event.Kind.COMMAND, Event.Kind.DEFAULT)
    ]
    final = wl.replay(services.config_of(game), f"e2e-{edition}", moves)
    expected = wl.outcome(final)
    assert expected is not None
    over = [m for m in box.mails if m.subject.startswith("Game over")]
    for mail in over:
        told = {colour.lower(): int(total) for _, colour, _, total in SCORE.findall(mail.text)}
        assert told == {c: expected.scores[s] for s, c in enumerate(final.config.colours)}
    assert InboundMail.objects.filter(status=InboundMail.Status.APPLIED).count() == len(
        [e for e in game.events.all() if e.source == Event.Source.MAIL]
    )
    _wait(lambda: not OutboundMail.objects.filter(status=OutboundMail.Status.PENDING).exists())


def _wait(condition, timeout: float = 20) -> None:
    end = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < end, "timed out"
        time.sleep(0.1)
