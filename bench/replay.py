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

from games.rules.whitelotus import Config, command_from_dict, command_to_dict, load_board, setup
from games.rules.whitelotus.constants import COLOURS
from games.rules.whitelotus.engine import apply
from games.rules.whitelotus.selfplay import play

TARGET = 25.0


def record(players: int, edition: str, seed: str) -> tuple[Config, str, str]:
    config = Config(load_board(), COLOURS[:players], edition)
    _, moves, _ = play(config, seed)
    events = [
        {"v": 1, "seq": i + 1, "kind": "command", "seat": seat, "payload": command_to_dict(c)}
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

        def replay(text: str = text, config: Config = config, seed: str = seed) -> object:
            state = setup(config, seed)
            for event in json.loads(text):
                state, _ = apply(state, event["seat"], command_from_dict(event["payload"]))
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
