"""The move path's round trips (issue 16): a move locks the game, writes its events with the
pending decisions they change, and commits; the seats are read once per process and head,
and read again whenever an event may have changed hands."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from games import services
from games.models import Event, Game, PendingDecision
from games.services import bots
from tests.games.factories import running_game

pytestmark = pytest.mark.django_db

Capture = Callable[..., Any]


@pytest.fixture(autouse=True)
def _bot_tasks_run_here() -> Any:
    from whitelotus.celery import app

    eager = app.conf.task_always_eager
    app.conf.task_always_eager = True
    yield
    app.conf.task_always_eager = eager


def default_move(game: Game) -> tuple[int, Any]:
    rules = services.rules_of(game)
    state = services.head_state(game)
    seat = rules.pending(state)[0].seat
    return seat, rules.default(state, seat)


def statements(queries: CaptureQueriesContext) -> list[str]:
    return [
        q["sql"]
        for q in queries.captured_queries
        if q["sql"] not in ("BEGIN", "COMMIT") and "SAVEPOINT" not in q["sql"]
    ]


def test_a_move_after_this_process_played_the_last_reads_no_seats(
    django_capture_on_commit_callbacks: Capture,
):
    game = running_game(4, seed="path")
    with django_capture_on_commit_callbacks(execute=True):  # the commit keeps the seats at the head
        services.submit(game, *default_move(game))
    game.refresh_from_db()
    seat, command = default_move(game)
    with CaptureQueriesContext(connection) as queries:
        services.submit(game, seat, command, expected_seq=game.head_seq)
    assert not [sql for sql in statements(queries) if "games_seat" in sql]


def test_on_postgres_a_move_is_the_lock_then_one_statement_with_its_decisions(
    django_capture_on_commit_callbacks: Capture,
):
    if connection.vendor != "postgresql":
        pytest.skip("the single statement is Postgres's (SQLite runs the updates first)")
    game = running_game(4, seed="path")
    with django_capture_on_commit_callbacks(execute=True):
        services.submit(game, *default_move(game))
    game.refresh_from_db()
    seat, command = default_move(game)
    with CaptureQueriesContext(connection) as queries:
        services.submit(game, seat, command, expected_seq=game.head_seq)
    sql = [s for s in statements(queries) if "mailpreference" not in s]  # read when mails fold
    assert sql[0].startswith("UPDATE games_game SET head_seq")
    assert sql[1].startswith("WITH changed0 AS (UPDATE games_pendingdecision")
    assert 'INSERT INTO "games_event"' in sql[1]
    assert 'INSERT INTO "notifications_outboundmail"' in sql[1]  # the next seat's decision mail
    assert len(sql) == 2, sql


def test_the_decisions_written_with_the_event_are_the_ones_the_state_owes():
    game = running_game(4, seed="path")
    rules = services.rules_of(game)
    for _ in range(12):
        services.submit(game, *default_move(game))
        state = services.head_state(game)
        owed = set(PendingDecision.objects.owed().filter(game=game).values_list("seat", "kind"))
        assert owed == {(d.seat, d.kind) for d in rules.pending(state)}
    events = list(game.events.order_by("seq"))
    assert [e.seq for e in events] == list(range(1, len(events) + 1))
    assert all(e.pk is not None for e in events)


def test_several_lines_are_several_events_in_one_statement_with_their_ids():
    game = running_game(4, seed="lines")
    rules = services.rules_of(game)
    for _ in range(80):  # play on to a seat that decides twice in a row
        state = services.head_state(game)
        seat = rules.pending(state)[0].seat
        first = rules.default(state, seat)
        after, _ = rules.apply(state, seat, first)
        if any(d.seat == seat for d in rules.pending(after)):
            break
        services.submit(game, seat, first)
    else:
        pytest.fail("no seat decided twice in a row")
    written = rules.notation.format_command
    text = f"{written(state, first)}\n{written(after, rules.default(after, seat))}"
    result = services.submit(game, seat, text)
    assert len(result.events) == 2
    stored = game.events.filter(seq__in=[e.seq for e in result.events]).order_by("seq")
    assert [e.pk for e in result.events] == list(stored.values_list("pk", flat=True))


def test_a_seat_handed_to_the_bot_after_the_seats_were_known_is_played_by_the_bot(
    django_capture_on_commit_callbacks: Capture,
):
    game = running_game(3, seed="handover")
    services.submit(game, *default_move(game))  # the seats are known at this head
    game.refresh_from_db()
    rules = services.rules_of(game)
    state = services.head_state(game)
    idle = next(s for s in range(3) if s not in {d.seat for d in rules.pending(state)})
    bots.hand_to_bot(game, idle, by=None, reason="dropped out")
    with django_capture_on_commit_callbacks(execute=True):
        # the people play on until the bot's seat owes something: the bot answers at once
        for _ in range(40):
            game.refresh_from_db()
            state = services.head_state(game)
            if any(d.seat == idle for d in rules.pending(state)) or game.status != Game.Status.RUNNING:
                break
            seat = rules.pending(state)[0].seat
            services.submit(game, seat, rules.default(state, seat), expected_seq=game.head_seq)
    assert game.events.filter(seat=idle, source=Event.Source.BOT).exists()


def test_rows_together_sends_at_its_end_and_nothing_on_an_error():
    from games.models import Player
    from games.store import rows

    with rows.together():
        ada = Player(name="Ada", email="ada@rows.invalid")
        rows.insert([ada])
        assert ada.pk is None and not Player.objects.filter(email="ada@rows.invalid").exists()
        with rows.together():  # an inner one sends its own at its end
            bao = Player(name="Bao", email="bao@rows.invalid")
            rows.insert([bao])
        assert bao.pk is not None and ada.pk is None
    assert Player.objects.get(pk=ada.pk).name == "Ada"
    with pytest.raises(RuntimeError), rows.together():
        rows.insert([Player(name="Chen", email="chen@rows.invalid")])
        raise RuntimeError("the move failed")
    assert not Player.objects.filter(email="chen@rows.invalid").exists()
