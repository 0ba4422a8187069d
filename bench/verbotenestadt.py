"""Die Verbotene Stadt with its bots: how long a game is, by default and with many turns.

Plays N seeds per player count with the default rules (a move turns at most once) and with
the option ``many_turns``, each seat a bot (as ``selfplay`` plays), and prints per setting
the median and range of: turns, commands, entries (officials on the terrace), the share of
turns that end with an entry, moves per turn, the share of entries made by the first move of
a turn (the fate dice and the going on did not matter for them), bluffs (believed or
doubted), seconds per game, and the time a bot takes to
choose a move (median and slowest, in ms).
No database.  Run: ``python -m bench.verbotenestadt [--games N] [--players 2 3 4]``
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Sequence

from games.rules import registry

vs = registry.get("verbotenestadt")


def play(players: int, seed: str, many_turns: bool) -> dict[str, float]:
    config = vs.serial.make_config(
        vs.serial.load_board(vs.about.default_board),
        players,
        "ravensburger",
        {"many_turns": many_turns},
        None,
    )
    state = vs.setup(config, seed)
    bots = [vs.about.Bot(f"{seed}:bot:{s}") for s in range(players)]
    commands = moves = entries = first = bluffs = 0
    times: list[float] = []
    started = time.perf_counter()
    while (decisions := vs.pending(state)) and commands < 20000:
        seat = decisions[0].seat
        t = time.perf_counter()
        command = bots[seat].choose(state, seat)
        if decisions[0].kind == "move":
            times.append(time.perf_counter() - t)
        before = state.moves
        state, log = vs.apply(state, seat, command)
        commands += 1
        moves += sum(1 for e in log if e.kind == "moved")
        entered = [e for e in log if e.kind == "entered"]
        entries += len(entered)
        first += sum(1 for e in log if e.kind == "moved" and e.data["entered"]) if before == 0 else 0
        bluffs += sum(1 for e in log if e.kind == "challenge_result" and "bluff" in e.data["case"])
    seconds = time.perf_counter() - started
    return {
        "turns": state.turn,
        "commands": commands,
        "entries": entries,
        "entry share": entries / max(state.turn, 1),
        "moves/turn": moves / max(state.turn, 1),
        "1st-move entries": first / max(entries, 1),
        "bluffs": bluffs,
        "s/game": seconds,
        "choice ms": statistics.median(times) * 1000,
        "slowest ms": max(times) * 1000,
        "finished": float(state.phase == "finished"),
    }


def summary(rows: Sequence[dict[str, float]], key: str) -> str:
    values = sorted(r[key] for r in rows)
    fmt = "{:.0f}" if key in ("turns", "commands", "entries", "bluffs", "slowest ms") else "{:.2f}"
    if key == "choice ms":
        fmt = "{:.1f}"
    return f"{fmt.format(statistics.median(values))} ({fmt.format(values[0])}–{fmt.format(values[-1])})"


KEYS = (
    "turns",
    "commands",
    "entries",
    "entry share",
    "moves/turn",
    "1st-move entries",
    "bluffs",
    "s/game",
    "choice ms",
    "slowest ms",
)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--games", type=int, default=10, help="seeds per player count and setting")
    parser.add_argument("--players", type=int, nargs="*", default=[2, 3, 4])
    parser.add_argument("--only", choices=("default", "many_turns"), help="one setting only")
    args = parser.parse_args(argv)
    print(f"{'setting':<11} {'pl':>2}  " + "  ".join(f"{k:<16}" for k in KEYS))
    for many_turns in (False, True):
        setting = "many_turns" if many_turns else "default"
        if args.only and args.only != setting:
            continue
        for players in args.players:
            rows = [play(players, f"bench{i}", many_turns) for i in range(args.games)]
            unfinished = sum(1 for r in rows if not r["finished"])
            line = f"{setting:<11} {players:>2}  " + "  ".join(f"{summary(rows, k):<16}" for k in KEYS)
            print(line + (f"  {unfinished} unfinished!" if unfinished else ""), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
