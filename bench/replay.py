"""Replay benchmark: full replay of recorded games against JSON-decoding them.

Three games are recorded by the self-play bots (White Lotus: a 6-player kosmos game and a
5-player designer game; Die Verbotene Stadt: a 4-player game), stored as the service stores
events (one JSON object per accepted command, with a schema version), then timed:

* decode: ``json.loads`` of the event list;
* replay: decode, turn each payload into a typed command and fold the moves from ``setup``
  (``rules.serial.fold``, as the service replays stored events).

Target: replay <= 10 x decode, for every game.  Both are timed in the same run in alternating
rounds, as CPU time of this process (``time.process_time``: time spent waiting for a core
shared with other work is not counted), best round of each, so the ratio holds on a busy
machine.  Run: ``python -m bench.replay``

Where a step goes (sampled, the fold): White Lotus at ~14x spends it in the bidding step
(``contest.apply``, over a quarter inclusive), placement and its ``placeable``, tiles
(``tile_spots``, bit-mask iteration in ``bits``) and ``set_area``'s census updates; Die
Verbotene Stadt at ~20x in moving officials (``_move``, its fate die and the seeded draws),
sealed windows closing (salts and commitments) and a move's legality (``trace``, ``slide``).
Copies and the contract's dispatch are a few percent (bench/RESULTS.md).
"""

from __future__ import annotations

import json
import sys
import time
from collections.abc import Callable, Sequence
from typing import Any

from games.rules import registry
from games.rules.base import Rules

TARGET = 10.0
# (game, players, edition, seed): each game reached through the registry, as the service does
GAMES = (
    ("whitelotus", 6, "kosmos", "bench-6k"),
    ("whitelotus", 5, "designer", "bench-5d"),
    ("verbotenestadt", 4, "ravensburger", "bench-4r"),
)


def play(rules: Rules, config: Any, seed: str, players: int) -> list[tuple[int, Any]]:
    """A game of the game's bots (as its self-play plays it): the moves."""
    state = rules.setup(config, seed)
    bots = [rules.about.Bot(f"{seed}:bot:{s}") for s in range(players)]
    moves = []
    while decisions := rules.pending(state):
        seat = decisions[0].seat
        command = bots[seat].choose(state, seat)
        state, _ = rules.apply(state, seat, command)
        moves.append((seat, command))
    return moves


def record(rules: Rules, players: int, edition: str, seed: str) -> tuple[Any, str, str]:
    board = rules.serial.load_board(rules.about.default_board)
    config = rules.serial.make_config(
        board, players, edition, rules.about.OPTIONS, rules.about.default_first_seat
    )
    moves = play(rules, config, seed, players)
    events = [
        {"v": 1, "seq": i + 1, "kind": "command", "seat": seat, "payload": rules.serial.command_to_dict(c)}
        for i, (seat, c) in enumerate(moves)
    ]
    return config, seed, json.dumps(events)


def best(fns: Sequence[tuple[Callable[[], object], int]], rounds: int) -> list[float]:
    """The best time per call of each ``(fn, calls per round)``, the functions taking turns
    round by round so that each sees the same load."""
    times: list[list[float]] = [[] for _ in fns]
    for _ in range(rounds):
        for (fn, number), found in zip(fns, times, strict=True):
            start = time.process_time()
            for _ in range(number):
                fn()
            found.append((time.process_time() - start) / number)
    return [min(found) for found in times]


def main() -> int:
    worst = 0.0
    print(f"{'game':<30} {'events':>6} {'replay':>10} {'per event':>10} {'decode':>10} {'ratio':>7}")
    for name, players, edition, seed in GAMES:
        rules = registry.get(name)
        config, seed, text = record(rules, players, edition, seed)
        n = len(json.loads(text))

        def decode(text: str = text) -> object:
            return json.loads(text)

        def replay(text: str = text, config: Any = config, seed: str = seed, rules: Rules = rules) -> object:
            command = rules.serial.command_from_dict
            moves = ((event["seat"], command(event["payload"]), ()) for event in json.loads(text))
            return rules.serial.fold(rules.setup(config, seed), moves)

        t_replay, t_decode = best([(replay, 2), (decode, 40)], rounds=15)
        ratio = t_replay / t_decode
        worst = max(worst, ratio)
        label = f"{name} {players}p {edition}"
        print(
            f"{label:<30} {n:>6} {t_replay * 1e3:>8.2f}ms {t_replay / n * 1e6:>8.1f}us "
            f"{t_decode * 1e6:>8.1f}us {ratio:>6.1f}x"
        )
    verdict = "meets" if worst <= TARGET else "MISSES"
    print(f"worst ratio {worst:.1f}x: {verdict} the target of {TARGET:.0f}x")
    return 0 if worst <= TARGET else 1


if __name__ == "__main__":
    sys.exit(main())
