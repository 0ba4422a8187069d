"""Submit benchmark: accepted moves through ``services.submit`` on Postgres, against
bare ``INSERT ...; COMMIT`` round trips into a one-column table, one before each submit
(alternating: whatever else loads the machine weighs on both alike).

Targets: p50 of a submit <= 3x p50 of the bare round trip on the event store alone
(the mail receiver disconnected), and <= 4x with the mail outbox rows written in its
transaction.  A move is three round trips after ``BEGIN``: the row lock, one
statement with its events, the pending decisions and the outbox rows (``games.store.rows``), and
the commit; the ``BEGIN; INSERT; COMMIT`` it is measured against is three.
Needs Postgres: ``DATABASE_URL=postgres://... python -m bench.submit``.  It creates
and drops its own database (``<name>_bench``) so nothing else is touched.
"""

from __future__ import annotations

import os
import sys
import time
from typing import Any

from bench.common import pct as _pct
from bench.common import setup_django

MOVES = int(os.environ.get("BENCH_MOVES", "1000"))


def main() -> int:
    setup_django("bench.submit")
    from django.core.management import call_command
    from django.db import connection
    from django.test.utils import setup_databases, teardown_databases

    from games import services
    from games.models import Game, Player
    from games.rules import registry

    wl = registry.get("whitelotus")  # the game benchmarked, through the registry

    old = setup_databases(verbosity=0, interactive=False)
    try:
        call_command("migrate", verbosity=0)
        with connection.cursor() as cur:
            cur.execute("CREATE TABLE IF NOT EXISTS bench_bare (x integer)")
        connection.set_autocommit(True)

        people = [Player.objects.create(name=f"P{i}", email=f"p{i}@bench.invalid") for i in range(5)]
        from games.store.signals import events_appended
        from notifications.outbound.receivers import write_outbox

        bare_mail: list[float] = []
        with_mail, games_with_mail = _submits(services, Game, wl, people, "mail", bare_mail)
        trips_mail = _round_trips(services, Game, wl, people, "mail-count")
        events_appended.disconnect(write_outbox, dispatch_uid="notifications.outbound.outbox")
        bare: list[float] = []
        try:
            submits, game_no = _submits(services, Game, wl, people, "store", bare)
            trips = _round_trips(services, Game, wl, people, "store-count")
        finally:
            events_appended.connect(write_outbox, dispatch_uid="notifications.outbound.outbox")
    finally:
        teardown_databases(old, verbosity=0)

    b50, b95 = _pct(bare, 50), _pct(bare, 95)
    bm50, bm95 = _pct(bare_mail, 50), _pct(bare_mail, 95)
    s50, s95 = _pct(submits, 50), _pct(submits, 95)
    print(
        f"{MOVES} bare INSERT+COMMIT: p50 {b50 * 1e3:.3f} ms  p95 {b95 * 1e3:.3f} ms  "
        f"(interleaved with the event store's submits)"
    )
    print(
        f"{MOVES} services.submit:     p50 {s50 * 1e3:.3f} ms  p95 {s95 * 1e3:.3f} ms  "
        f"({game_no} games, snapshot every {os.environ.get('GAMES_SNAPSHOT_EVERY', '25')} events)"
    )
    m50, m95 = _pct(with_mail, 50), _pct(with_mail, 95)
    print(
        f"{MOVES} bare INSERT+COMMIT: p50 {bm50 * 1e3:.3f} ms  p95 {bm95 * 1e3:.3f} ms  "
        f"(interleaved with the submits with the outbox)"
    )
    print(
        f"{MOVES} submit + mail outbox: p50 {m50 * 1e3:.3f} ms  p95 {m95 * 1e3:.3f} ms  "
        f"({games_with_mail} games; their outbox rows in the same transaction)"
    )
    print(
        f"round trips per move (BEGIN and COMMIT included): {trips:.2f} on the event store, "
        f"{trips_mail:.2f} with the outbox; a bare commit is 3"
    )
    ratio, with_mails = s50 / b50, m50 / bm50
    print(f"p50 ratio {ratio:.1f}x: {'meets' if ratio <= 3 else 'MISSES'} the target of 3x (event store)")
    print(
        f"p50 ratio with the mail outbox {with_mails:.1f}x: "
        f"{'meets' if with_mails <= 4 else 'MISSES'} the target of 4x"
    )
    return 0 if ratio <= 3 and with_mails <= 4 else 1


def _submits(
    services: Any, game_model: Any, wl: Any, people: list[Any], tag: str, bare: list[float]
) -> tuple[list[float], int]:
    """Time MOVES accepted default moves through ``services.submit``, game after game, each
    right after a bare ``BEGIN; INSERT; COMMIT`` timed into ``bare``: the two alternate, so
    whatever else loads the machine weighs on both alike."""
    from django.db import connection

    submits: list[float] = []
    game_no = 0
    while len(submits) < MOVES:
        game_no += 1
        game = services.create_game(people, seed=f"bench-{tag}-{game_no}")
        services.start_game(game)
        game.refresh_from_db()
        while game.status == game_model.Status.RUNNING and len(submits) < MOVES:
            state = services.head_state(game)  # what to play: not timed
            seat = wl.pending(state)[0].seat
            command = wl.default(state, seat)
            start = time.perf_counter()
            with connection.cursor() as cur:
                cur.execute("BEGIN")
                cur.execute("INSERT INTO bench_bare (x) VALUES (%s)", [len(bare)])
                cur.execute("COMMIT")
            bare.append(time.perf_counter() - start)
            start = time.perf_counter()
            services.submit(game, seat, command, expected_seq=game.head_seq)
            submits.append(time.perf_counter() - start)
            game.refresh_from_db(fields=["status", "head_seq"])
    return submits, game_no


COUNTED = 200


def _round_trips(services: Any, game_model: Any, wl: Any, people: list[Any], tag: str) -> float:
    """The mean round trips of COUNTED more moves (not timed): the statements Django sends,
    and the ``BEGIN`` and ``COMMIT`` the driver sends around each move's transaction."""
    from django.db import connection

    statements = 0

    def count(execute: Any, sql: str, params: Any, many: bool, context: Any) -> Any:
        nonlocal statements
        statements += 1
        return execute(sql, params, many, context)

    moves = 0
    game_no = 0
    while moves < COUNTED:
        game_no += 1
        game = services.create_game(people, seed=f"bench-{tag}-{game_no}")
        services.start_game(game)
        game.refresh_from_db()
        while game.status == game_model.Status.RUNNING and moves < COUNTED:
            state = services.head_state(game)
            seat = wl.pending(state)[0].seat
            command = wl.default(state, seat)
            with connection.execute_wrapper(count):
                services.submit(game, seat, command, expected_seq=game.head_seq)
            moves += 1
            game.refresh_from_db(fields=["status", "head_seq"])
    return statements / moves + 2


if __name__ == "__main__":
    sys.exit(main())
