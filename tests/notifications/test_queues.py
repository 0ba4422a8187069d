"""Moves first: the mails a player waits for after a move go to the ``moves`` queue, the bulk
(invitations, news, digests, league mails) to ``mail`` (notifications/outbound/queues.py)."""

from __future__ import annotations

from typing import Any

import pytest
import redis
from django.conf import settings

from games import services
from games.models import PendingDecision
from games.rules import registry
from games.services import bots
from notifications.models import OutboundMail
from notifications.outbound import queues
from notifications.tasks import process_inbound, send_mails
from tests.games.factories import players
from whitelotus.celery import app


def test_a_decision_or_a_refusal_goes_first_and_an_invitation_or_a_digest_waits():
    assert queues.queue_of("decision") == queues.MOVES
    assert queues.queue_of("error") == queues.MOVES
    assert queues.queue_of("invitation") == queues.MAIL
    assert queues.queue_of("digest") == queues.MAIL
    assert queues.queue_of("standings") == queues.MAIL
    assert queues.queue_of("invitation", {"decision": "bid"}) == queues.MOVES  # the first mover's
    assert queues.queue_of("invitation", {"decision": ""}) == queues.MAIL


def test_taking_a_reply_in_goes_first_and_unrouted_tasks_are_bulk():
    router = app.amqp.router
    assert router.route({}, process_inbound.name)["queue"].name == queues.MOVES
    assert router.route({}, "notifications.tasks.send_digests")["queue"].name == queues.MAIL
    assert {q.name for q in settings.CELERY_TASK_QUEUES} == {queues.MOVES, queues.MAIL}


def test_the_bots_task_keeps_its_name_and_goes_first_and_the_worker_finds_it():
    # defined in games.services.bots (which enqueues it) under the name queued tasks have always
    # had; the app's ready() imports it, so a worker has it without a tasks module of the app's
    app.loader.import_default_modules()  # what a worker loads: each app's tasks module
    assert bots.play_bots.name == "games.tasks.play_bots"
    assert app.tasks["games.tasks.play_bots"].run is bots.play_bots.run
    assert app.amqp.router.route({}, bots.play_bots.name)["queue"].name == queues.MOVES


@pytest.mark.django_db
def test_a_season_start_s_invitations_wait_while_the_first_mover_s_and_the_move_s_mails_go_first(
    monkeypatch, django_capture_on_commit_callbacks
):
    sent: list[tuple[list[int], str]] = []

    def publish(args: tuple[list[int]], queue: str, **_: Any) -> None:
        sent.append((args[0], queue))

    monkeypatch.setattr(send_mails, "apply_async", publish)
    game = services.create_game(players(3), seed="queues")
    with django_capture_on_commit_callbacks(execute=True):
        services.start_game(game)  # the invitations
    # the first mover's invitation is its decision mail: it goes first, the others wait
    first = next(
        r for r in OutboundMail.objects.filter(game=game, kind="invitation") if r.context.get("decision")
    )
    assert sorted(sent, key=lambda s: s[1]) == [
        (
            [r.pk for r in OutboundMail.objects.filter(game=game).exclude(pk=first.pk).order_by("pk")],
            queues.MAIL,
        ),
        ([first.pk], queues.MOVES),
    ]
    sent.clear()
    row = PendingDecision.objects.owed().get(game=game)
    rules = registry.get(game.rules)
    state = services.head_state(game)
    with django_capture_on_commit_callbacks(execute=True):
        services.submit(game, row.seat, rules.default(state, row.seat))
    assert sent, "the move wrote no mail"
    assert {q for _, q in sent} == {queues.MOVES}


def test_the_broker_keeps_the_two_queues_apart(redis_url):
    """On the real Redis a send task for a decision lands in the moves list, an invitation's in
    the mail list (each queue is its own list: a worker on ``-Q moves`` never sees the bulk)."""
    client = redis.Redis.from_url(redis_url)
    eager = app.conf.task_always_eager
    app.conf.update(broker_url=redis_url, task_always_eager=False)
    try:
        app.control.purge()
        send_mails.apply_async(([1],), queue=queues.queue_of("decision"))
        send_mails.apply_async(([2],), queue=queues.queue_of("invitation"))
        send_mails.apply_async(([3],), queue=queues.queue_of("invitation"))
        assert (client.llen(queues.MOVES), client.llen(queues.MAIL)) == (1, 2)
    finally:
        app.control.purge()
        app.conf.update(task_always_eager=eager)
