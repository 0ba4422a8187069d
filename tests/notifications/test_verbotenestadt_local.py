"""Local play of Die Verbotene Stadt: ``manage.py demo --rules verbotenestadt`` and
``manage.py bots`` play a game to its end by mail (the bots answer their decision mails over
SMTP; the person's seat answers from the local mailbox page as a person would)."""

from __future__ import annotations

import io
import time
from email.message import EmailMessage

import pytest
from django.core.management import call_command
from django.test import Client

from games import services
from games.models import Event, Game, Player
from games.rules import registry
from notifications.inbound import routing
from notifications.localmail.bots import play_bots
from notifications.localmail.models import LocalMail
from notifications.localmail.replying import build_reply
from notifications.models import InboundMail, MailPreference, OutboundMail
from tests.notifications.localplay import local_play  # noqa: F401  (a fixture)

vs = registry.get("verbotenestadt")
PERSON = "you@localhost"


def person_prompt(game: Game) -> LocalMail:
    """The newest decision mail of the person's seat, as it landed in the local mailbox."""
    latest = OutboundMail.objects.filter(game=game, seat=0, kind__in=("invitation", "decision")).latest("pk")
    return LocalMail.objects.filter(message_id=latest.message_id, to_address=PERSON).latest("pk")


@pytest.mark.slow
@pytest.mark.usefixtures("local_play")
def test_demo_and_bots_play_a_verbotene_stadt_game_to_its_end_by_mail():
    started = time.process_time()
    out = io.StringIO()
    call_command("demo", "--rules", "verbotenestadt", "--players", "2", "--seed", "demo-vs", stdout=out)
    game = Game.objects.get(rules="verbotenestadt")
    assert "Die Verbotene Stadt" in out.getvalue()
    for player in Player.objects.all():  # no pictures: the slow part of a mail, not tested here
        MailPreference.objects.update_or_create(player=player, game=None, defaults={"picture": False})
    bots = io.StringIO()
    call_command("bots", stdout=bots)  # the bot sets its dial; the person's dial is owed
    assert bots.getvalue().startswith("1 bot replies")
    for _ in range(400):
        game.refresh_from_db()
        if game.status == Game.Status.FINISHED:
            break
        state = services.head_state(game)
        if any(d.seat == 0 for d in vs.pending(state)):
            line = vs.notation.format_command(state, vs.about.Bot("person").choose(state, 0))
            response = Client().post(f"/mailbox/mail/{person_prompt(game).pk}/reply/", {"commands": line})
            assert response.status_code in (200, 302)
        elif not play_bots().replies:
            pytest.fail("nobody moved")
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    assert vs.outcome(services.head_state(game)) is not None
    moves = Event.objects.filter(game=game, kind=Event.Kind.COMMAND)
    assert {e.source for e in moves} == {Event.Source.MAIL}
    assert moves.filter(seat=1).exists() and moves.filter(seat=0).exists()
    assert not InboundMail.objects.exclude(status=InboundMail.Status.APPLIED).exists()
    assert OutboundMail.objects.filter(game=game, kind="game_over").count() == 2
    # this process's CPU time (every thread of it), not the wall clock: beside five other jobs
    # on two cores the wall clock took 85 s for a game that takes 30 s alone
    assert time.process_time() - started < 60


@pytest.mark.usefixtures("local_play")
def test_a_bot_answers_a_sealed_dial_once_while_the_others_choose():
    """Issue 29: in a demo, a bot dialled and then changed its dial in the same pass (``south:
    dial br``, then ``south: dial bg``), because each other bot's dial moved the head."""
    call_command(
        "demo", "--rules", "verbotenestadt", "--players", "4", "--seed", "sealed-once", stdout=io.StringIO()
    )
    game = Game.objects.get(rules="verbotenestadt")
    for player in Player.objects.all():
        MailPreference.objects.update_or_create(player=player, game=None, defaults={"picture": False})
    state = services.head_state(game)
    sealed = [d.seat for d in vs.pending(state) if d.sealed and d.seat != 0]
    assert len(sealed) == 3  # the three bots' dials, asked at once
    waiting: list[int] = []

    def worker_one_behind(prompt: LocalMail, line: str, *, message_id: str) -> EmailMessage:
        """The reply stored as the SMTP listener stores it, processed only when the next one
        comes: a busy worker, as under ``scripts/serve``."""
        for pk in waiting:
            routing.process(pk)
        waiting.clear()
        reply = build_reply(prompt, line, message_id=message_id)
        raw = reply.as_bytes()
        row = InboundMail.objects.create(
            message_id=routing.message_id_of(raw), raw=raw, size=len(raw), via=InboundMail.Via.SMTP
        )
        waiting.append(row.pk)
        return reply

    report = play_bots(send=worker_one_behind)
    for pk in waiting:
        routing.process(pk)
    dials = list(Event.objects.filter(game=game, kind=Event.Kind.COMMAND).values_list("seat", flat=True))
    assert sorted(dials) == sorted(sealed), report
    assert len(report.replies) == 3
    assert play_bots(send=worker_one_behind).replies == []  # asked again: nothing new to answer
