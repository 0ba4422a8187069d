"""Play a whole game with the bots and print the record and the final scores.

    python -m games.rules.verbotenestadt.selfplay --players 3 --seed 7 [--many-turns]

The bots are deterministic for a seed: they draw from the same HMAC generator as the game,
under their own key.  With ``--defaults`` every move is the deadline default instead;
``--many-turns`` plays the option ``many_turns`` (a move may turn after every slide).
``python -m bench.verbotenestadt`` measures many games.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from dataclasses import fields

from ..selfplay import play_out
from .board import load_board
from .bots import Bot
from .commands import Command
from .constants import SEATS
from .decisions import pending
from .defaults import default
from .engine import apply, setup
from .narrate import narrate
from .notation import format_command
from .scoring import outcome_of
from .state import Config, Options, State


def play(
    config: Config, seed: str, use_defaults: bool = False, max_commands: int = 20000
) -> tuple[State, list[tuple[int, Command]], list[str]]:
    bots = [Bot(f"{seed}:bot:{s}") for s in range(config.players)]

    def choose(state: State, seat: int) -> Command:
        return default(state, seat) if use_defaults else bots[seat].choose(state, seat)

    return play_out(setup(config, seed), pending, apply, choose, narrate, max_commands)


def format_record(config: Config, seed: str, state: State, moves: Sequence[tuple[int, Command]]) -> str:
    """The record: a header with everything the game was set up with (board, seed, seats,
    edition, every option, the start seat or ``lot``), so that it replays the same game."""
    options = " ".join(
        f"{f.name}={'yes' if getattr(config.options, f.name) else 'no'}" for f in fields(Options)
    )
    first = "lot" if config.first_seat is None else config.seats[config.first_seat]
    head = [
        "# Die Verbotene Stadt",
        f"# board {config.board.name} {config.board.digest[:12]}",
        f"# seed {seed}",
        f"# seats {' '.join(config.seats)}",
        f"# edition {config.edition}",
        f"# options {options}",
        f"# first_seat {first}",
    ]
    body = [f"{config.seats[seat]}: {format_command(state, c)}" for seat, c in moves]
    return "\n".join(head + body) + "\n"


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--players", type=int, default=3, choices=range(2, 5))
    parser.add_argument("--seed", default="7")
    parser.add_argument("--board", default="forbidden_city", help="built-in board name or JSON file")
    parser.add_argument("--partners", action="store_true", help="the 4-player partner variant")
    parser.add_argument(
        "--many-turns", action="store_true", help="a move may turn after every slide (default: once)"
    )
    parser.add_argument("--defaults", action="store_true", help="every move is the deadline default")
    parser.add_argument("--log", action="store_true", help="also print what happened")
    args = parser.parse_args(argv)
    config = Config(
        load_board(args.board),
        SEATS[: args.players],
        options=Options(partners=args.partners, many_turns=args.many_turns),
    )
    state, moves, lines = play(config, args.seed, args.defaults)
    out = sys.stdout
    out.write(format_record(config, args.seed, state, moves))
    if args.log:
        out.write("\n" + "\n".join(line for line in lines if line) + "\n")
    result = outcome_of(state.hands, config.options.partners)
    finished = state.phase == "finished"
    out.write(
        f"\n{'Final' if finished else 'Unfinished! '} scores"
        f" after {state.turn} turns, {len(moves)} commands:\n"
    )
    for s in sorted(range(config.players), key=lambda s: (result.rank[s], s)):
        b = result.breakdown[s]
        cards = " ".join(f"{c}-{p}" for c, p in state.hands[s])
        out.write(
            f"  {result.rank[s]}. {config.seats[s]:<6} {b['total']:>3}  "
            + (f"(own {b['own']}) " if "partner" in b else "")
            + f"({b['cards']} card{'' if b['cards'] == 1 else 's'}: {cards})\n"
        )
    out.write(
        f"Winner{'s' if len(result.winners) > 1 else ''}: "
        f"{', '.join(config.seats[s] for s in result.winners)}\n"
    )
    return 0 if finished else 1


if __name__ == "__main__":
    raise SystemExit(main())
