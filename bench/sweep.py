"""Sweep benchmark: the minute sweep over 100,000 running games on Postgres.

Times one sweep when nothing is due and when 1,000 defaults are due (each one a real game,
played through ``services.apply_default`` with its mails written), and shows that an idle
sweep costs the same with 100,000 games as with 1,000 (the indexes find what is due).
Target: <= 50 ms with none due.  ``DATABASE_URL=postgres://... python -m bench.sweep``.
"""

from __future__ import annotations

import os
import statistics
import sys
import time
from collections.abc import Callable
from datetime import timedelta
from typing import Any

from bench.common import setup_django

GAMES = int(os.environ.get("BENCH_GAMES", "100000"))
DUE = int(os.environ.get("BENCH_DUE", "1000"))


def main() -> int:
    setup_django("bench.sweep")
    from django.core.management import call_command
    from django.test.utils import setup_databases, teardown_databases
    from django.utils import timezone

    from games import services
    from games.models import Game, PendingDecision, Player, Seat
    from games.rules import registry
    from notifications.sweep import sweep

    rules = registry.get(registry.DEFAULT)  # the game benchmarked, through the registry
    colours = tuple(rules.seat_colours[:3])

    old = setup_databases(verbosity=0, interactive=False)
    try:
        call_command("migrate", verbosity=0)
        people = [Player.objects.create(name=f"P{i}", email=f"p{i}@bench.invalid") for i in range(3)]
        # DUE real games, started through services (their decisions are real rows)
        real = []
        for n in range(DUE):
            game = services.create_game(people, seed=f"sweep-{n}")
            services.start_game(game)
            real.append(game.pk)
        _analyze()
        idle_small = _idle(sweep)
        # the rest: running games with a decision due in two days, written in bulk
        now = timezone.now()
        filler = Game.objects.bulk_create(
            [
                Game(
                    name=f"filler {n}",
                    rules=rules.name,
                    engine_version=rules.about.VERSION,
                    board_digest="-",
                    seed_hash="-",
                    status="running",
                )
                for n in range(GAMES - DUE)
            ],
            batch_size=5000,
        )
        Seat.objects.bulk_create(  # seats too: the sweep also looks for vacations that are over
            [
                Seat(game=g, position=p, colour=c, player=people[p])
                for g in filler
                for p, c in enumerate(colours)
            ],
            batch_size=5000,
        )
        PendingDecision.objects.bulk_create(
            [
                PendingDecision(
                    game=g,
                    seat=0,
                    kind="place",
                    since_seq=2,
                    deadline_at=now + timedelta(days=2),
                    remind_at=now + timedelta(days=1),
                )
                for g in filler
            ],
            batch_size=5000,
        )
        _analyze()
        idle_large = _idle(sweep)
        PendingDecision.objects.owed().filter(game_id__in=real).update(deadline_at=now - timedelta(minutes=1))
        start = time.perf_counter()
        report = sweep()
        busy = time.perf_counter() - start
    finally:
        teardown_databases(old, verbosity=0)

    print(f"idle sweep, {DUE:>6} games:  median {idle_small * 1e3:.2f} ms")
    ratio = idle_large / idle_small
    print(f"idle sweep, {GAMES:>6} games:  median {idle_large * 1e3:.2f} ms  (ratio {ratio:.2f}x)")
    print(
        f"sweep with {report.defaults} defaults due among {GAMES} games: {busy * 1e3:.0f} ms "
        f"({busy / max(report.defaults, 1) * 1e3:.2f} ms per default, mails written)"
    )
    ok = idle_large <= 0.050 and report.defaults == DUE
    print(f"idle sweep {'meets' if ok else 'MISSES'} the target of 50 ms")
    return 0 if ok else 1


def _analyze() -> None:
    """Fresh planner statistics, as autovacuum would have them in a database in use."""
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("ANALYZE")


def _idle(sweep: Callable[[], Any]) -> float:
    times = []
    for _ in range(21):
        start = time.perf_counter()
        report = sweep()
        times.append(time.perf_counter() - start)
        assert report.defaults == report.reminders == 0, report
    return statistics.median(times)


if __name__ == "__main__":
    sys.exit(main())
