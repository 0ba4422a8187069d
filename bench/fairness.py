"""Fairness of the deadline defaults: games in which every decision times out.

For each table size, 40 all-default games (seeds ``fair-0`` .. ``fair-39``); per seat its mean
final score as a share of the table's mean.  A fair default leaves no seat far below the
others.  The worst seat's share is the figure the test (tests/engine/whitelotus/test_defaults_fairness.py)
holds at 60 % or more for kosmos.  For the designer edition the number of areas claimed by
the players is reported too.  Run: ``python -m bench.fairness [--edition designer]``
"""

from __future__ import annotations

import argparse
import sys
import time

from games.rules.whitelotus.board import load_board
from games.rules.whitelotus.constants import COLOURS
from games.rules.whitelotus.selfplay import all_defaults
from games.rules.whitelotus.state import Config, Options

SEEDS = 40


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--edition", default="kosmos", choices=("kosmos", "designer"))
    parser.add_argument("--seeds", type=int, default=SEEDS)
    parser.add_argument("--players", type=int, nargs="*", default=[4, 5, 6])
    args = parser.parse_args(argv)
    board = load_board()
    out = sys.stdout
    out.write(f"{args.edition}: {args.seeds} all-default games per table size\n")
    out.write("players  seat shares of the table mean (seat 1 first)      worst  claimed/game  time\n")
    for players in args.players:
        config = Config(board, COLOURS[:players], args.edition, Options())
        start = time.perf_counter()
        totals = [0] * players
        claimed = 0
        for i in range(args.seeds):
            final = all_defaults(config, f"fair-{i}")
            result = final.outcome
            totals = [t + s for t, s in zip(totals, result.scores, strict=True)]
            claimed += sum(1 for o in final.state.owner if o >= 0)
        mean = sum(totals) / players
        shares = [t / mean if mean else 1.0 for t in totals]
        took = time.perf_counter() - start
        cells = " ".join(f"{s:5.0%}" for s in shares)
        out.write(
            f"{players:>7}  {cells:<48} {min(shares):5.0%}  {claimed / args.seeds:12.1f}  {took:4.1f}s\n"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
