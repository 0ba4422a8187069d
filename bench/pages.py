"""Game pages benchmark: how long a replay page of a finished 6-player game takes.

A 6-player kosmos game is played to its end through ``games.services`` (random legal moves,
fixed seed), then its pages are fetched through Django's test client, each timed whole
(URL resolution, database reads, replay, SVG, template):

* cold: the first replay page after the process's timelines are forgotten (one replay);
* warm: the other steps (the timeline is kept per head: no replay);
* fragment: what the page's script fetches per step;
* game: the public page at the head.

Needs Postgres: ``DATABASE_URL=postgres://... python -m bench.pages`` (its own ``_bench``
database, created and dropped).  No target: the numbers are reported in RESULTS.md.
"""

from __future__ import annotations

import random
import statistics
import sys
import time

from bench.common import pct, setup_django

SEED = 6


def main() -> int:
    setup_django("bench.pages")
    from django.core.management import call_command
    from django.test import Client
    from django.test.utils import setup_databases, teardown_databases
    from django.urls import reverse

    from games import services
    from games.models import Player
    from games.presentation import steps
    from games.rules import registry

    wl = registry.get("whitelotus")  # the game benchmarked, through the registry

    old = setup_databases(verbosity=0, interactive=False)
    try:
        call_command("migrate", verbosity=0)
        people = [Player.objects.create(name=f"P{i}", email=f"p{i}@bench.invalid") for i in range(6)]
        game = services.create_game(people, seed="bench-pages")
        services.start_game(game)
        rng = random.Random(SEED)
        state = services.head_state(game)
        while wl.outcome(state) is None:
            decision = rng.choice(wl.pending(state))
            services.submit(game, decision.seat, rng.choice(wl.legal(state, decision.seat)))
            state = services.head_state(game)
        game.refresh_from_db()
        client = Client(HTTP_HOST="localhost")

        def timed(url: str) -> float:
            start = time.perf_counter()
            response = client.get(url)
            elapsed = time.perf_counter() - start
            assert response.status_code == 200, (url, response.status_code)
            return elapsed

        count = len(steps.timeline(game))
        cold = []
        for n in (1, count // 2, count):
            steps.clear_cache()
            cold.append(timed(reverse("games:replay-step", args=[game.pk, n])))
        warm = [timed(reverse("games:replay-step", args=[game.pk, n])) for n in range(1, count + 1, 3)]
        fragment = [
            timed(reverse("games:replay-step", args=[game.pk, n]) + "?fragment=1")
            for n in range(1, count + 1, 3)
        ]
        page = [timed(reverse("games:game", args=[game.pk])) for _ in range(20)]
        print(f"6p kosmos game, {game.head_seq} events, {count} steps, finished (every hand shown)")
        print(f"replay page, cold (one replay):  mean {statistics.mean(cold) * 1000:7.1f} ms")
        for name, values in (("replay page, warm", warm), ("replay fragment", fragment), ("game page", page)):
            print(
                f"{name + ':':<32} p50 {pct(values, 50) * 1000:7.1f} ms  p95 {pct(values, 95) * 1000:7.1f} ms"
                f"  ({len(values)} pages)"
            )
    finally:
        teardown_databases(old, verbosity=0)
    return 0


if __name__ == "__main__":
    sys.exit(main())
