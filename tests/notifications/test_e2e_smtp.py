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
from games.rules import registry
from games.rules import whitelotus as wl
from notifications.inbound.commands import PROMPTS
from notifications.inbound.smtp import controller
from notifications.models import InboundMail, OutboundMail
from tests.games.factories import players
from tests.notifications.mailbox import free_port, menu_of, pick, reply, start_mailbox
from tests.notifications.workers import worker
from tests.waiting import PATIENCE, wait_for

#: a whole game by mail: minutes on an idle machine, a bound only a failing game reaches
GAME_PATIENCE = 1800.0
SCORE = re.compile(r"^\s+(\d+)\. (\w+) \((\w+)\): (\d+)", re.MULTILINE)


@pytest.mark.slow
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
            deadline = time.monotonic() + GAME_PATIENCE
            while Game.objects.get(pk=game.pk).status != Game.Status.FINISHED:
                assert time.monotonic() < deadline, f"the game did not finish in {GAME_PATIENCE:.0f} s"
                if not box.wait_for(seen + 1, timeout=PATIENCE):
                    last = box.mails[-1].subject if box.mails else None
                    pytest.fail(f"no mail for {PATIENCE:.0f} s; last: {last}")
                while seen < len(box.mails):
                    mail = box.mails[seen]
                    seen += 1
                    assert not mail.subject.startswith("Refused:"), mail.text
                    if "What you can do now:" in mail.text:
                        command = pick(mail.text, rng)
                        reply(mail, addresses[mail.to], command, "127.0.0.1", inbound_server.port)
            wait_for(
                lambda: len([m for m in box.mails if m.subject.startswith("Game over")]) == 3,
                "the three game-over mails",
            )
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
    wait_for(
        lambda: not OutboundMail.objects.filter(status=OutboundMail.Status.PENDING).exists(),
        "every pending mail to be sent",
    )


PLACE = re.compile(r"^\s+\d+\w* (\w+) \((\w+)\): (\d+) points", re.MULTILINE)


@pytest.mark.slow
def test_a_whole_verbotene_stadt_game_is_played_by_mail_over_smtp(
    postgres_transactional, redis_url, settings
):
    """Die Verbotene Stadt by mail alone: each player answers the newest mail that asks them
    (the bots' choice, as ``manage.py bots`` plays), and once each: a plan (the mail's own
    example), a new dial in a re-bribe window, and a challenge's answer from the menu."""
    vs = registry.get("verbotenestadt")
    box, mailbox_server = start_mailbox()
    inbound_server = controller("127.0.0.1", free_port())
    inbound_server.start()
    settings.EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    settings.EMAIL_HOST, settings.EMAIL_PORT = "127.0.0.1", mailbox_server.port
    rng = random.Random("vs")
    done: set[str] = set()
    started = time.monotonic()
    try:
        with worker(redis_url):
            people = players(3)
            # north begins, as the game this test was written for (the default is by lot)
            game = services.create_game(people, rules="verbotenestadt", seed="e2e-vs", first_seat=0)
            services.start_game(game)
            addresses = {p.email.lower(): p for p in people}
            seen = 0
            while Game.objects.get(pk=game.pk).status != Game.Status.FINISHED:
                assert time.monotonic() < started + GAME_PATIENCE, (
                    f"the game did not finish in {GAME_PATIENCE:.0f} s"
                )
                if not box.wait_for(seen + 1, timeout=PATIENCE):
                    last = box.mails[-1].subject if box.mails else None
                    pytest.fail(f"no mail for {PATIENCE:.0f} s; last: {last}")
                while seen < len(box.mails):
                    mail = box.mails[seen]
                    seen += 1
                    assert not mail.subject.startswith("Refused:"), mail.text
                    player = addresses[mail.to]
                    seat = game.seats.get(player=player).position
                    newest = (
                        OutboundMail.objects.filter(game=game, seat=seat, kind__in=PROMPTS)
                        .order_by("-pk")
                        .first()
                    )
                    if "What you can do now:" not in mail.text or newest is None:
                        continue
                    if f"<{newest.message_id}>" != str(mail.message["Message-ID"]):
                        continue  # a newer mail asks this seat: it answers that one
                    command = _vs_choice(vs, game, seat, mail.text, done, rng)
                    reply(mail, player.email, command, "127.0.0.1", inbound_server.port)
            wait_for(
                lambda: len([m for m in box.mails if m.subject.startswith("Game over")]) == 3,
                "the three game-over mails",
            )
    finally:
        inbound_server.stop()
        mailbox_server.stop()

    assert done == {"plan", "dial", "challenge"}, done
    game.refresh_from_db()
    commands = {e.command_text.split()[0] for e in game.events.filter(kind=Event.Kind.COMMAND)}
    assert {"plan", "dial", "move"} <= commands and commands & {"believe", "doubt"}
    final, same = services.replay_game(game)
    assert same
    expected = vs.outcome(final)
    assert expected is not None
    for mail in [m for m in box.mails if m.subject.startswith("Game over")]:
        told = {seat.lower(): int(total) for seat, _, total in PLACE.findall(mail.text)}
        assert told == {c: expected.scores[s] for s, c in enumerate(final.config.seats)}, mail.text
    assert (
        time.monotonic() - started < GAME_PATIENCE
    )  # about 25 s on an idle machine; CI runs it beside other tests
    wait_for(
        lambda: not OutboundMail.objects.filter(status=OutboundMail.Status.PENDING).exists(),
        "every pending mail to be sent",
    )


def _vs_choice(vs, game: Game, seat: int, text: str, done: set[str], rng: random.Random) -> str:
    state = services.head_state(game)
    kind = next(d.kind for d in vs.pending(state) if d.seat == seat)
    example = re.search(r"For example: (plan .*)", text)
    if kind == "move" and "plan" not in done and example:
        done.add("plan")
        return example.group(1)
    if kind == "rebribe" and "dial" not in done:
        dials = next((line for line in menu_of(text) if "dial one of:" in line), "")
        mine = vs.view(state, seat)["dial"]["code"]
        codes = [c for c in dials.split(":", 1)[-1].split() if c != mine]
        if codes:
            done.add("dial")
            return f"dial {rng.choice(codes)}"
    if kind == "challenge":
        done.add("challenge")
        return rng.choice(["believe", "doubt"])
    return str(
        vs.notation.format_command(state, vs.about.Bot(f"e2e-{seat}-{game.head_seq}").choose(state, seat))
    )
