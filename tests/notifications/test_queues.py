"""Moves first: the mails a player waits for after a move go to the ``moves`` queue, the first
movers' invitations of a season start to ``starts``, the bulk (the other invitations, news,
digests, league mails) to ``mail`` (notifications/outbound/queues.py)."""

from __future__ import annotations

import time
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
    assert queues.queue_of("invitation", {"decision": "bid"}) == queues.STARTS  # the first mover's
    assert queues.queue_of("invitation", {"decision": ""}) == queues.MAIL


def test_taking_a_reply_in_goes_first_and_unrouted_tasks_are_bulk():
    router = app.amqp.router
    assert router.route({}, process_inbound.name)["queue"].name == queues.MOVES
    assert router.route({}, "notifications.tasks.send_digests")["queue"].name == queues.MAIL
    assert [q.name for q in settings.CELERY_TASK_QUEUES] == [queues.MOVES, queues.STARTS, queues.MAIL]


def test_the_bots_task_keeps_its_name_and_goes_first_and_the_worker_finds_it():
    # defined in games.services.bots (which enqueues it) under the name queued tasks have always
    # had; the app's ready() imports it, so a worker has it without a tasks module of the app's
    app.loader.import_default_modules()  # what a worker loads: each app's tasks module
    assert bots.play_bots.name == "games.tasks.play_bots"
    assert app.tasks["games.tasks.play_bots"].run is bots.play_bots.run
    assert app.amqp.router.route({}, bots.play_bots.name)["queue"].name == queues.MOVES


@pytest.mark.django_db
def test_a_season_start_s_first_movers_wait_apart_from_the_move_s_mails_and_before_the_bulk(
    monkeypatch, django_capture_on_commit_callbacks
):
    sent: list[tuple[list[int], str]] = []

    def publish(args: tuple[list[int]], queue: str, **_: Any) -> None:
        sent.append((args[0], queue))

    monkeypatch.setattr(send_mails, "apply_async", publish)
    game = services.create_game(players(3), seed="queues")
    with django_capture_on_commit_callbacks(execute=True):
        services.start_game(game)  # the invitations
    # the first mover's invitation is its decision mail: published before the other seats'
    # invitations, on a queue of its own (a season start's thousands never stand before a reply)
    first = next(
        r for r in OutboundMail.objects.filter(game=game, kind="invitation") if r.context.get("decision")
    )
    assert sent == [
        ([first.pk], queues.STARTS),
        (
            [r.pk for r in OutboundMail.objects.filter(game=game).exclude(pk=first.pk).order_by("pk")],
            queues.MAIL,
        ),
    ]
    sent.clear()
    row = PendingDecision.objects.owed().get(game=game)
    rules = registry.get(game.rules)
    state = services.head_state(game)
    with django_capture_on_commit_callbacks(execute=True):
        services.submit(game, row.seat, rules.default(state, row.seat))
    assert sent, "the move wrote no mail"
    assert {q for _, q in sent} == {queues.MOVES}


def test_the_broker_keeps_the_queues_apart(redis_url):
    """On the real Redis a send task for a decision lands in the moves list, a first mover's
    invitation in the starts list, an invitation's in the mail list (each queue is its own
    list: a worker on ``-Q moves`` never sees a season start)."""
    client = redis.Redis.from_url(redis_url)
    eager = app.conf.task_always_eager
    app.conf.update(broker_url=redis_url, task_always_eager=False)
    try:
        app.control.purge()
        send_mails.apply_async(([1],), queue=queues.queue_of("decision"))
        send_mails.apply_async(([2],), queue=queues.queue_of("invitation"))
        send_mails.apply_async(([3],), queue=queues.queue_of("invitation"))
        send_mails.apply_async(([4],), queue=queues.queue_of("invitation", {"decision": "place"}))
        lengths = [client.llen(queue) for queue in (queues.MOVES, queues.STARTS, queues.MAIL)]
        assert lengths == [1, 1, 2]
    finally:
        app.control.purge()
        app.conf.update(task_always_eager=eager)


@pytest.mark.django_db
def test_the_sweep_sends_again_what_a_player_waits_for_before_older_invitations():
    """Rows whose task was lost (a broker's restart): a move's answer and a first mover's
    invitation are sent again first, then the bulk, each oldest first."""
    from datetime import timedelta

    from django.utils import timezone

    from notifications.outbound import sending

    long_ago = timezone.now() - timedelta(minutes=30)

    def row(kind: str, minutes: int, **context: str) -> int:
        mail = OutboundMail.objects.create(
            key=f"sweep-{kind}-{minutes}",
            message_id=f"<{kind}-{minutes}@test>",
            kind=kind,
            to_email="a@example.org",
            context=context,
        )
        OutboundMail.objects.filter(pk=mail.pk).update(created_at=long_ago + timedelta(minutes=minutes))
        return mail.pk

    invitations = [row("invitation", m, decision="") for m in (0, 2, 3)]
    first_mover = row("invitation", 5, decision="place")
    answer = row("decision", 9, decision="bid")
    digest = row("digest", 1)
    fresh = OutboundMail.objects.create(
        key="sweep-new", message_id="<new@test>", kind="decision", to_email="a@example.org"
    )
    found = sending.stale_pending()
    assert found == [first_mover, answer, invitations[0], digest, invitations[1], invitations[2]]
    assert fresh.pk not in found  # its own task is still coming
    assert sending.stale_pending(limit=2) == [first_mover, answer]


@pytest.mark.django_db
def test_the_mail_sweep_sends_lost_rows_again_in_batches_on_their_queues_first_movers_first(monkeypatch):
    from datetime import timedelta

    from django.utils import timezone

    from notifications import tasks

    sent: list[tuple[list[int], str]] = []
    monkeypatch.setattr(send_mails, "apply_async", lambda args, queue, **_: sent.append((args[0], queue)))
    monkeypatch.setattr(tasks, "SWEEP_BATCH", 2)
    rows = [
        OutboundMail.objects.create(
            key=f"lost-{n}",
            message_id=f"<lost-{n}@test>",
            kind=kind,
            to_email="a@example.org",
            context=context,
        ).pk
        for n, (kind, context) in enumerate(
            [("invitation", {"decision": ""})] * 3 + [("invitation", {"decision": "place"}), ("decision", {})]
        )
    ]
    OutboundMail.objects.update(created_at=timezone.now() - timedelta(minutes=10))
    tasks.sweep_mail()
    assert sent == [
        ([rows[4]], queues.MOVES),
        ([rows[3]], queues.STARTS),
        (rows[0:2], queues.MAIL),
        (rows[2:3], queues.MAIL),
    ]


def test_a_publish_the_broker_refused_is_tried_again_off_the_request_then_left_to_the_sweep(monkeypatch):
    """A broker restarting for a few seconds: the send task of a move's mails, and the task of a
    reply taken in, are published again a moment later by the process that wrote the rows,
    not minutes later by the sweeps."""
    import threading

    from kombu.exceptions import OperationalError

    from notifications.inbound import routing

    tries: list[tuple[str, str | None]] = []
    done = threading.Event()

    def refusing(name: str, until: int) -> Any:
        def apply_async(args: tuple[Any, ...], queue: str | None = None, **_: Any) -> None:
            tries.append((name, queue))
            if sum(1 for n, _ in tries if n == name) < until:
                raise OperationalError("Error 111 connecting to 127.0.0.1:6379. Connection refused.")
            if name == "inbound":
                done.set()

        return apply_async

    monkeypatch.setattr(queues, "REPUBLISH_AFTER", (0.01, 0.01, 0.01))
    monkeypatch.setattr(send_mails, "apply_async", refusing("mails", 3))
    monkeypatch.setattr(routing.process_inbound, "apply_async", refusing("inbound", 2))
    queues.publish(send_mails, [[7, 8]], queues.MOVES)  # returns at once
    routing._enqueue(9)
    assert done.wait(5), tries
    deadline = time.monotonic() + 5
    while len(tries) < 5 and time.monotonic() < deadline:
        time.sleep(0.01)
    assert sorted(tries, key=str) == sorted([("mails", queues.MOVES)] * 3 + [("inbound", None)] * 2, key=str)
    # a broker down for longer: after the last retry the rows are the sweeps', nothing raised
    tries.clear()
    monkeypatch.setattr(send_mails, "apply_async", lambda *a, **k: (tries.append(("x", None)), 1 / 0))
    queues.publish(send_mails, [[9]], queues.MAIL)
    deadline = time.monotonic() + 5
    while len(tries) < 4 and time.monotonic() < deadline:
        time.sleep(0.01)
    time.sleep(0.05)
    assert len(tries) == 4  # the first try and the three again
