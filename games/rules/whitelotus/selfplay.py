"""Play a whole game with simple bots and print the record and the scores.

    python -m games.rules.whitelotus.selfplay --players 5 --edition kosmos --seed 7

The bots are deterministic for a seed: they draw from the same HMAC generator as the game,
under their own key.  With ``--defaults`` every move is the deadline default instead.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from typing import NamedTuple

from .. import rng
from ..base import Outcome
from ..selfplay import play_out
from .board import load_board
from .commands import Army, Bid, Command, Decline, Lead, Out, Place, Side, Take
from .constants import BUILDING_VP, COLOURS, Building
from .decisions import legal, pending
from .defaults import default
from .engine import apply, setup
from .narrate import narrate
from .record import Record, format_record
from .scoring import outcome
from .state import Config, Options, State


class Bot(rng.Stream):
    """A plain player: likes valuable areas, bids a little, fights sometimes (its draws:
    :class:`games.rules.rng.Stream`)."""

    def choose(self, state: State, seat: int) -> Command:
        menu = legal(state, seat)
        first = menu[0]
        if isinstance(first, Place):
            places = [c for c in menu if isinstance(c, Place)]
            if not places or self.below(10) == 0:
                return self.pick(menu)
            ranked = sorted(places, key=lambda c: -_worth(state, c.area))
            return ranked[self.below(min(3, len(ranked)))]
        if isinstance(first, Bid):
            bids = [c for c in menu if isinstance(c, Bid)]
            cap = max(c.amount for c in bids) // 3
            return self.pick([c for c in bids if c.amount <= max(cap, min(c.amount for c in bids))])
        if isinstance(first, Side | Army):
            armies = [c for c in menu if isinstance(c, Army)]
            sides = [c for c in menu if isinstance(c, Side)]
            if sides and self.below(2):
                return self.pick(sides)
            if armies:
                return armies[self.below(len(armies) // 2 + 1)]
            return self.pick(sides)
        if isinstance(first, Lead | Decline):
            return Lead() if self.below(3) == 0 else Decline()
        if isinstance(first, Take):
            return max(menu, key=lambda c: _worth(state, c.area) if isinstance(c, Take) else 0)
        if isinstance(first, Out):
            others = [c for c in menu if isinstance(c, Out) and c.target != seat]
            return self.pick(others or menu)
        return self.pick(menu)


def _worth(state: State, area: int) -> int:
    worth = BUILDING_VP[Building(state.building[area])] * 2
    return worth + (3 if state.board.provinces[area].dragon else 0) - bin(state.markers[area]).count("1")


def play(
    config: Config, seed: str, use_defaults: bool = False
) -> tuple[State, list[tuple[int, Command]], list[str]]:
    bots = [Bot(f"{seed}:bot:{s}") for s in range(config.players)]

    def choose(state: State, seat: int) -> Command:
        return default(state, seat) if use_defaults else bots[seat].choose(state, seat)

    return play_out(setup(config, seed), pending, apply, choose, narrate)


class DefaultGame(NamedTuple):
    state: State
    outcome: Outcome
    moves: int


def all_defaults(config: Config, seed: str) -> DefaultGame:
    """A game in which every decision times out: each seat's deadline default, move after
    move, without narration (what the fairness check and bench/fairness.py measure)."""
    state = setup(config, seed)
    moves = 0
    while decisions := pending(state):
        seat = decisions[0].seat
        state, _ = apply(state, seat, default(state, seat))
        moves += 1
    result = outcome(state)
    assert result is not None, "a game of defaults ends"
    return DefaultGame(state, result, moves)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--players", type=int, default=5, choices=range(3, 7))
    parser.add_argument("--edition", default="kosmos", choices=("kosmos", "designer"))
    parser.add_argument("--seed", default="7")
    parser.add_argument("--board", default="china", help="built-in board name or JSON file")
    parser.add_argument("--no-zero-card", action="store_true", help="play without the 0 card (French rules)")
    parser.add_argument("--defaults", action="store_true", help="every move is the deadline default")
    parser.add_argument("--log", action="store_true", help="also print what happened, move by move")
    args = parser.parse_args(argv)
    config = Config(
        load_board(args.board),
        COLOURS[: args.players],
        args.edition,
        Options(zero_card=not args.no_zero_card),
    )
    state, moves, lines = play(config, args.seed, args.defaults)
    out = sys.stdout
    out.write(format_record(Record(config, args.seed, tuple(moves))))
    if args.log:
        out.write("\n" + "\n".join(lines) + "\n")
    result = outcome(state)
    out.write(
        f"\nFinal scores after {state.year} {'years' if config.kosmos else 'turns'} "
        f"(emperor: {config.colours[state.emperor]}):\n"
    )
    order = sorted(range(config.players), key=lambda s: (result.rank[s], s))
    for s in order:
        b = result.breakdown[s]
        out.write(
            f"  {result.rank[s]}. {config.colours[s]:<7} {b['total']:>3}  "
            f"(buildings {b['buildings']}, dragons {b['dragons']}, territory {b['territory']} "
            f"[largest {b['territory_size']}], VP chips {b['chips']})\n"
        )
    winners = ", ".join(config.colours[s] for s in result.winners)
    out.write(f"Winner{'s' if len(result.winners) > 1 else ''}: {winners}\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
