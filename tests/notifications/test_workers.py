"""Deadlines and mail with a real Celery worker on the real Redis (Postgres, committed data):
races between workers and players, and a broker that goes away and comes back."""

from __future__ import annotations

import shutil
import subprocess
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import timedelta

import pytest
import redis
from django.db import close_old_connections
from django.utils import timezone
from kombu import pools as kombu_pools

from games import services
from games.models import Event, Game, Heartbeat, PendingDecision
from games.rules import whitelotus as wl
from notifications.inbound import routing
from notifications.models import InboundMail, OutboundMail
from notifications.outbound import sending
from notifications.services import tokens
from notifications.tasks import sweep_deadlines, sweep_mail
from tests.conftest import IN_CI
from tests.games.factories import players
from tests.notifications.helpers import compose
from tests.notifications.mailbox import free_port
from tests.notifications.workers import quiet, worker
from tests.waiting import wait_for
from whitelotus.celery import app


def started_game(seed: str) -> Game:
    game = services.create_game(players(3), seed=seed)
    services.start_game(game)
    game.refresh_from_db()
    return game


def make_due(game: Game) -> PendingDecision:
    row = PendingDecision.objects.owed().get(game=game)
    PendingDecision.objects.filter(pk=row.pk).update(deadline_at=timezone.now() - timedelta(minutes=1))
    return row


def moves_after(game: Game, seat: int, seq: int) -> list[Event]:
    return list(game.events.filter(seat=seat, seq__gt=seq, kind__in=services.MOVE_KINDS))


def test_a_due_deadline_is_defaulted_exactly_once_by_racing_workers(postgres_transactional, redis_url):
    game = started_game("race-1")
    row = make_due(game)
    with worker(redis_url, concurrency=4):
        for _ in range(4):
            sweep_deadlines.delay()
        wait_for(lambda: Heartbeat.objects.filter(name="sweep").exists(), "a sweep's heartbeat")
        wait_for(lambda: len(moves_after(game, row.seat, row.since_seq)) == 1, "the default move")
        quiet(redis_url, "the four sweeps")
    defaults = moves_after(game, row.seat, row.since_seq)
    assert [(e.kind, e.source) for e in defaults] == [(Event.Kind.DEFAULT, Event.Source.DEADLINE)]


@pytest.mark.parametrize("attempt", range(3))  # the order of arrival varies: each outcome must be clean
def test_a_real_move_at_the_deadline_and_the_default_never_both_apply(
    attempt, postgres_transactional, redis_url
):
    game = started_game(f"race-move-{attempt}")
    row = make_due(game)
    seat = game.seats.get(position=row.seat)
    state = services.head_state(game)
    line = wl.format_command(state, wl.legal(state, row.seat)[-1])
    stored, _ = routing.store(
        compose(tokens.reply_address(seat), seat.player.email, line), InboundMail.Via.PIPE
    )
    with worker(redis_url, concurrency=2):
        player = threading.Thread(target=_process, args=(stored.pk,))
        sweep_deadlines.delay()
        player.start()
        player.join()
        wait_for(
            lambda: InboundMail.objects.get(pk=stored.pk).status != InboundMail.Status.NEW,
            "the player's mail to be taken",
        )
        wait_for(lambda: bool(moves_after(game, row.seat, row.since_seq)), "a move of the seat")
        quiet(redis_url, "the sweep and the mails it sent")
    moves = moves_after(game, row.seat, row.since_seq)
    assert len(moves) == 1, moves
    status = InboundMail.objects.get(pk=stored.pk).status
    if moves[0].kind == Event.Kind.DEFAULT:
        assert status == InboundMail.Status.REFUSED  # answered with the current decision
    else:
        assert status == InboundMail.Status.APPLIED and moves[0].source == Event.Source.MAIL


def _process(pk: int) -> None:
    try:
        routing.process(pk)
    finally:
        close_old_connections()


@contextmanager
def spare_redis() -> Iterator[tuple[str, subprocess.Popen[bytes]]]:
    """A Redis of our own on a free loopback port, so that it can be stopped and started."""
    binary = shutil.which("redis-server")
    if binary is None:
        if IN_CI:
            pytest.fail("CI must have redis-server")
        pytest.skip("no redis-server binary")
    port = free_port()
    args = [binary, "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"]
    process = subprocess.Popen(args, stdout=subprocess.DEVNULL)
    url = f"redis://127.0.0.1:{port}/0"
    wait_for(lambda: _answers(url), f"the spare Redis on port {port}")
    try:
        yield url, process
    finally:
        process.terminate()
        process.wait(60)


def _answers(url: str) -> bool:
    try:
        return bool(redis.Redis.from_url(url, socket_connect_timeout=0.5).ping())
    except redis.exceptions.ConnectionError:
        return False


def _use_broker(url: str) -> None:
    """Point the Celery app at ``url`` and drop the connections it holds to the old one."""
    app.conf.update(broker_url=url)
    kombu_pools.reset()  # closes and forgets every pooled connection (they are keyed by URL)
    # celery keeps its own references to the pools it made: let it make new ones
    app._pool = None  # type: ignore[attr-defined]
    app.amqp._producer_pool = None  # type: ignore[attr-defined]


def test_while_redis_is_down_moves_by_mail_are_committed_and_mail_catches_up(
    postgres_transactional, redis_url, settings
):
    game = started_game("redis-down")
    with spare_redis() as (url, process):
        _use_broker(url)
        try:
            process.terminate()
            process.wait(60)  # the broker is gone
            seat_no = PendingDecision.objects.owed().get(game=game).seat
            seat = game.seats.get(position=seat_no)
            state = services.head_state(game)
            line = wl.format_command(state, wl.legal(state, seat_no)[0])
            started = time.monotonic()
            stored, _ = routing.store(
                compose(tokens.reply_address(seat), seat.player.email, line), InboundMail.Via.PIPE
            )
            # enqueueing gave up after its retry policy (about 4 s); the request did not hang
            assert time.monotonic() - started < 30
            assert routing.process(stored.pk) == InboundMail.Status.APPLIED
            assert moves_after(game, seat_no, 0)[0].source == Event.Source.MAIL
            pending = OutboundMail.objects.filter(status=OutboundMail.Status.PENDING)
            assert pending.exists()
        finally:
            _use_broker(redis_url)
    # the broker is back: the sweep finds the rows left pending and sends them
    OutboundMail.objects.update(created_at=timezone.now() - timedelta(minutes=5))
    with worker(redis_url):
        sweep_mail.delay()
        wait_for(
            lambda: not OutboundMail.objects.filter(status=OutboundMail.Status.PENDING).exists(),
            "every pending mail to be sent",
        )
    assert sending.stale_pending() == []
