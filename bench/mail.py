"""Mail-in benchmark: 1,000 replies through the inbound pipeline on Postgres.

Each reply is a real RFC 5322 message to the seat's reply address with a legal command,
stored raw (``inbound.store``, what ``receive_email`` calls) and then processed
(``inbound.process``, what the worker's task calls): parse, strip quotes, find the seat by
its token, apply through ``services.submit``, write the outbox rows; one transaction.
Reports moves per second and the p50/p95 latency from stored raw message to committed
events + outbox.  ``DATABASE_URL=postgres://... python -m bench.mail``.
"""

from __future__ import annotations

import os
import sys
import time

from bench.common import pct, setup_django

MOVES = int(os.environ.get("BENCH_MOVES", "1000"))


def main() -> int:
    setup_django("bench.mail")
    from django.core.management import call_command
    from django.test.utils import setup_databases, teardown_databases

    from games import services
    from games.models import Game, Player
    from games.rules import registry

    wl = registry.get("whitelotus")  # the game benchmarked, through the registry
    from notifications.inbound import routing as inbound
    from notifications.models import InboundMail
    from notifications.services import tokens
    from tests.notifications.helpers import compose

    old = setup_databases(verbosity=0, interactive=False)
    stored: list[float] = []
    processed: list[float] = []
    try:
        call_command("migrate", verbosity=0)
        people = [Player.objects.create(name=f"P{i}", email=f"p{i}@bench.invalid") for i in range(5)]
        game_no = 0
        began = time.perf_counter()
        while len(processed) < MOVES:
            game_no += 1
            game = services.create_game(people, seed=f"mail-bench-{game_no}")
            services.start_game(game)
            while Game.objects.get(pk=game.pk).status == Game.Status.RUNNING and len(processed) < MOVES:
                state = services.head_state(game)  # what to play: not timed
                seat = wl.pending(state)[0].seat
                line = wl.notation.format_command(state, wl.default(state, seat))
                address = tokens.reply_address(game.seats.get(position=seat))
                raw = compose(address, people[seat].email, f"{line}\n\n-- \nsent by the benchmark")
                start = time.perf_counter()
                row, _ = inbound.store(raw, InboundMail.Via.PIPE)
                mid = time.perf_counter()
                status = inbound.process(row.pk)
                end = time.perf_counter()
                if status != InboundMail.Status.APPLIED:
                    sys.exit(f"move {len(processed)} was not applied: {status}")
                stored.append(mid - start)
                processed.append(end - mid)
        wall = time.perf_counter() - began
    finally:
        teardown_databases(old, verbosity=0)

    total = [a + b for a, b in zip(stored, processed, strict=True)]
    print(f"{MOVES} replies by mail in {game_no} games (5 players, kosmos)")
    for label, values in (("store raw", stored), ("stored -> committed", processed)):
        print(f"{label + ':':<22}  p50 {pct(values, 50) * 1e3:.2f} ms  p95 {pct(values, 95) * 1e3:.2f} ms")
    rate, overall = MOVES / sum(total), MOVES / wall
    print(f"moves per second:       {rate:.0f} (pipeline only), {overall:.0f} (with the driver)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
