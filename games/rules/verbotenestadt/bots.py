"""The bots: player programs for local play, self-play, dropped seats and property tests."""

from __future__ import annotations

from .. import rng
from .commands import Believe, Command, Dial, Doubt, Keep, Plan, Spare, Stop, Take
from .defaults import sensible_move
from .engine import best_take, bluffing_open, legal, move_options, owed
from .state import State


class Bot:
    """A plain player: moves its own official towards the target, enters when it can,
    bluffs now and then, doubts sometimes, sometimes sends a plan."""

    def __init__(self, key: str) -> None:
        self.key = key
        self.counter = 0

    def below(self, n: int) -> int:
        value, self.counter = rng.randbelow(self.key, self.counter, n)
        return value

    def choose(self, state: State, seat: int) -> Command:
        kind = owed(state, seat)
        menu = legal(state, seat)
        if kind in ("dial", "rebribe"):
            if Keep() in menu and self.below(3):
                return Keep()
            dials = [c for c in menu if isinstance(c, Dial)]
            return dials[self.below(len(dials))]
        if kind == "challenge":
            return Doubt() if self.below(4) == 0 else Believe()
        if kind in ("dragon", "penalty", "empty"):
            if kind == "dragon" and self.below(8) == 0:
                return Spare()
            return best_take(state, seat) if self.below(4) else next(c for c in menu if isinstance(c, Take))
        options = move_options(state, seat)
        moves = [m for m, _ in options]
        if not moves:
            return Stop()
        target = state.board.pavilion(state.target).square if state.target else None
        ends = {m: end for m, end in options}
        entering = [m for m, end in options if end == target]
        if entering:
            own = [m for m in entering if m.code == state.dials[seat]]
            if own:
                return own[0]
            if bluffing_open(state, seat) and self.below(3) == 0:
                return entering[self.below(len(entering))]
        if state.moves and self.below(4) == 0:
            return Stop()
        first = sensible_move(state, seat) if self.below(3) else moves[self.below(len(moves))]
        if first.code != state.dials[seat] and entering and ends.get(first) == target:
            first = moves[0]
        if self.below(5) == 0:  # a plan: this move, maybe another, maybe stop
            rest = [m for m in moves if m.code != first.code and ends[m] != target]
            more = (rest[self.below(len(rest))],) if rest and self.below(2) else ()
            return Plan((first, *more), stop=bool(self.below(2)))
        return first
