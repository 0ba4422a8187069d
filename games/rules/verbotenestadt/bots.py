"""The bots: player programs for local play, self-play, dropped seats and property tests.

A bot plays like a sensible player (RULES.md, "Bots"):

* **moves**: its bribed official into the target when it can; else the move that leaves that
  official fewest moves from the target (:mod:`.search`: a breadth-first search over its
  stops, the others standing still, two moves ahead), or a move of an official in its way
  when that opens a shorter path; nothing within reach: a move by lot of its own official
  (or of one beside it, to free it);
* **going on or stopping** after a red die: it moves again while that brings its official
  within a move or two of the target, and stops when going on would only rearrange the board
  for the next players;
* **bluffing**, once allowed: now and then, when another official can enter and its own is
  not about to (more often the further its own is);
* **doubting**: now and then, less often when the official that entered is its own bribe;
* **dials**: an official with many stops in one move, by lot among the six best;
  in the re-bribe window it mostly keeps;
* **cards**: the card that adds most (never its partner's after a dragon or at an empty
  pavilion: then it spares);
* now and then it sends its moves as a plan (a move, then the entry it prepares).

Every choice is deterministic for the bot's key (the HMAC generator of :mod:`games.rules.rng`).
"""

from __future__ import annotations

from .. import rng
from .commands import Believe, Command, Dial, Doubt, Keep, Move, Plan, Stop
from .decisions import bluffing_open, legal, move_options, owed
from .engine import default_take
from .moves import destinations, short_moves
from .search import FAR, ranked, reach
from .state import State

# How often (one in N) the bot bluffs when it may and its own official is two or more moves
# away, and when it is one move away; how often it doubts; how often it sends a plan.
BLUFF_FAR, BLUFF_NEAR = 3, 12
DOUBT, DOUBT_OWN = 4, 10
PLAN = 4


class Bot(rng.Stream):
    """A sensible player, deterministic for its key (its draws: :class:`games.rules.rng.Stream`)."""

    def choose(self, state: State, seat: int) -> Command:
        kind = owed(state, seat)
        if kind in ("dial", "rebribe"):
            return self.dial(state, seat, kind == "rebribe" and Keep() in legal(state, seat))
        if kind == "challenge":
            own = state.entry is not None and state.entry.code == state.dials[seat]
            return Doubt() if self.chance(DOUBT_OWN if own else DOUBT) else Believe()
        if kind in ("dragon", "penalty", "empty"):
            return default_take(state, seat)
        return self.move(state, seat)

    # -- dials ------------------------------------------------------------------------------

    def dial(self, state: State, seat: int, may_keep: bool) -> Command:
        if may_keep and not self.chance(4):
            return Keep()
        board, max_slides = state.board, state.config.max_slides
        scored = []
        for code in state.on_board():
            here = state.square_of(code)
            assert here is not None
            stops = reach(board, state.occupied(besides=code), here, None, max_slides)
            scored.append((-len(stops), code))
        scored.sort()
        best = [code for _, code in scored[:6]]
        return Dial(best[self.below(len(best))])

    # -- moves ------------------------------------------------------------------------------

    def move(self, state: State, seat: int) -> Command:
        options = move_options(state, seat)
        if not options:
            return Stop()
        own = state.dials[seat]
        target = state.board.pavilion(state.target).square if state.target else None
        entering = [m for m, end in options if end == target]
        if any(m.code == own for m in entering):
            return next(m for m in entering if m.code == own)
        now, best = ranked(state, own, options) if own else (FAR, [])
        if entering and bluffing_open(state, seat) and self.chance(BLUFF_NEAR if now <= 2 else BLUFF_FAR):
            return entering[self.below(len(entering))]
        gain = [r for r in best if r[0] < now]
        if state.moves and not gain:  # after a red die: go on only while it brings the official closer
            return Stop()
        if gain:
            d, _mine, move, end = gain[0]
            ties = [r for r in gain if r[0] == d and r[1]] or [gain[0]]
            d, _mine, move, end = ties[self.below(len(ties))]
            if d == 1 and self.chance(PLAN):
                follow = self.entry_after(state, own, move, end)
                if follow is not None:
                    return Plan((move, follow), stop=True)
            return move
        return self.wander(state, seat, options)

    def entry_after(self, state: State, own: str | None, move: Move, end: tuple[int, int]) -> Move | None:
        """The move of ``own`` that enters the target once ``move`` has been made, if any."""
        if own is None or state.target is None:
            return None
        target = state.board.pavilion(state.target).square
        mover_from = state.square_of(move.code)
        occupied = state.occupied(besides=own)
        start = end if move.code == own else state.square_of(own)
        if move.code != own:
            occupied = (occupied - {mover_from}) | {end}
        assert start is not None
        paths = destinations(state.board, occupied, start, target, state.config.max_slides)
        if target in paths:
            return Move(own, paths[target])
        steps = short_moves(state.board, occupied, start, target)
        if target in steps:
            return Move(own, (steps[target],), short=True)
        return None

    def wander(self, state: State, seat: int, options: list[tuple[Move, tuple[int, int]]]) -> Move:
        """Nothing brings the official within reach: move it by lot (it may find a way from
        elsewhere; mostly among the moves that end nearer the target), or, if it cannot move,
        an official beside it; else anything."""
        own = state.dials[seat]
        target = state.board.pavilion(state.target).square if state.target else None
        mine = [(m, end) for m, end in options if m.code == own and end != target]
        if mine:  # by lot, mostly among the nearer half (as the crow flies); sometimes any, so
            # that it cannot go to and fro between two squares for ever
            if target is not None and self.below(3):
                mine.sort(key=lambda t: abs(t[1][0] - target[0]) + abs(t[1][1] - target[1]))
                mine = mine[: (len(mine) + 1) // 2]
            return mine[self.below(len(mine))][0]
        here = state.square_of(own) if own else None
        if here is not None:
            beside = {(here[0] + dr, here[1] + dc) for dr, dc in ((1, 0), (-1, 0), (0, 1), (0, -1))}
            freeing = [m for m, _ in options if state.square_of(m.code) in beside]
            if freeing:
                return freeing[self.below(len(freeing))]
        safe = [m for m, end in options if end != target] or [m for m, _ in options]
        return safe[self.below(len(safe))]
