"""Replay benchmark (issue 2): full replay of recorded games against JSON-decoding them.

Two games are recorded by the self-play bots (a 6-player kosmos game and a 5-player
designer game), stored as the service stores events (one JSON object per accepted command,
with a schema version), then timed:

* decode: ``json.loads`` of the event list;
* replay: decode, turn each payload into a typed command and apply it from ``setup``.

Target: replay <= 25 x decode.  Both are timed in the same run, best of several repeats, so
the ratio holds on a noisy machine.  Run: ``python -m bench.replay``
"""

from __future__ import annotations

import json
import sys
import time
from collections.abc import Callable
from typing import Any

from games.rules import registry

TARGET = 25.0
rules = registry.get("whitelotus")  # the game benchmarked, through the registry


def play(config: Any, seed: str, players: int) -> list[tuple[int, Any]]:
    """A game of the game's bots (as its self-play plays it): the moves."""
    state = rules.setup(config, seed)
    bots = [rules.Bot(f"{seed}:bot:{s}") for s in range(players)]
    moves = []
    while decisions := rules.pending(state):
        seat = decisions[0].seat
        command = bots[seat].choose(state, seat)
        state, _ = rules.apply(state, seat, command)
        moves.append((seat, command))
    return moves


def record(players: int, edition: str, seed: str) -> tuple[Any, str, str]:
    config = rules.make_config(rules.load_board(rules.default_board), players, edition, rules.OPTIONS, 0)
    moves = play(config, seed, players)
    events = [
        {"v": 1, "seq": i + 1, "kind": "command", "seat": seat, "payload": rules.command_to_dict(c)}
        for i, (seat, c) in enumerate(moves)
    ]
    return config, seed, json.dumps(events)


def best(fn: Callable[[], object], repeat: int, number: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        for _ in range(number):
            fn()
        times.append((time.perf_counter() - start) / number)
    return min(times)


def main() -> int:
    worst = 0.0
    print(f"{'game':<22} {'events':>6} {'replay':>10} {'per event':>10} {'decode':>10} {'ratio':>7}")
    for players, edition, seed in ((6, "kosmos", "bench-6k"), (5, "designer", "bench-5d")):
        config, seed, text = record(players, edition, seed)
        n = len(json.loads(text))

        def decode(text: str = text) -> object:
            return json.loads(text)

        def replay(text: str = text, config: Any = config, seed: str = seed) -> object:
            state = rules.setup(config, seed)
            for event in json.loads(text):
                state, _ = rules.apply(state, event["seat"], rules.command_from_dict(event["payload"]))
            return state

        t_replay = best(replay, repeat=5, number=3)
        t_decode = best(decode, repeat=5, number=200)
        ratio = t_replay / t_decode
        worst = max(worst, ratio)
        print(
            f"{players}p {edition:<19} {n:>6} {t_replay * 1e3:>8.2f}ms {t_replay / n * 1e6:>8.1f}us "
            f"{t_decode * 1e6:>8.1f}us {ratio:>6.1f}x"
        )
    verdict = "meets" if worst <= TARGET else "MISSES"
    print(f"worst ratio {worst:.1f}x: {verdict} the target of {TARGET:.0f}x")
    return 0 if worst <= TARGET else 1


if __name__ == "__main__":
    sys.exit(main())
