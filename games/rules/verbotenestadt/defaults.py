"""What a missed deadline plays (RULES.md, "Defaults").

* dial (the first window, or the mover's after an entry): an official still on the board,
  by a lot drawn from the seed (it does not move the dice);
* rebribe: keep the dial (a new one by lot when the official is on the terrace);
* challenge: believe;
* move: the first move of a turn is compulsory, so it is made for the player: the bribed
  official into the target if it can, else the move that leaves it fewest moves from the
  target (:mod:`.search`, as the bots look: its own moves, or moving an official in its way),
  else one of its moves by lot, else (it cannot move) a move by lot of an official beside it;
  after the first move: stop;
* dragon, penalty, empty pavilion: the card that adds most to the taker's score; a partner's
  card is spared (dragon, empty pavilion), or taken only when there is no other (penalty).
"""

from __future__ import annotations

from . import dice
from .commands import Believe, Command, Dial, Keep, Move, Stop
from .engine import _may_keep, default_take, move_options, owed
from .search import ranked
from .state import State


def default(state: State, seat: int) -> Command:
    kind = owed(state, seat)
    if kind == "dial" or (kind == "rebribe" and not _may_keep(state, seat)):
        return lot_dial(state, seat)
    if kind == "rebribe":
        return Keep()
    if kind == "challenge":
        return Believe()
    if kind == "move":
        return Stop() if state.moves else sensible_move(state, seat)
    if kind in ("dragon", "penalty", "empty"):
        return default_take(state, seat)
    raise ValueError(f"seat {seat} owes no decision now")


def lot_dial(state: State, seat: int) -> Dial:
    on_board = state.on_board()
    pick = dice.lot(state.seed, "dial", seat, state.dial_sets[seat], len(state.terrace))
    return Dial(on_board[pick % len(on_board)])


def sensible_move(state: State, seat: int) -> Move:
    """The bribed official into the target if it can go there; else the move (of it, or of an
    official in its way) that leaves it fewest moves from the target, the first such in menu
    order; else one of its moves by lot (a lot drawn from the seed and the turn, so that an
    absent player's official wanders instead of going to and fro); if it cannot move, a move
    by lot of an official beside it (to free it), else of any official."""
    options = move_options(state, seat)
    own = state.dials[seat]
    target = state.board.pavilion(state.target).square if state.target else None
    mine = [(m, end) for m, end in options if m.code == own]
    pick = dice.lot(state.seed, "move", state.turn, seat)
    if target is not None and own is not None:
        for m, end in mine:
            if end == target:
                return m
        now, best = ranked(state, own, options)
        if best and best[0][0] < now:
            return best[0][2]
    if mine:
        return mine[pick % len(mine)][0]
    here = state.square_of(own) if own else None
    if here is not None:
        beside = {(here[0] + dr, here[1] + dc) for dr, dc in ((1, 0), (-1, 0), (0, 1), (0, -1))}
        freeing = [m for m, _ in options if state.square_of(m.code) in beside]
        if freeing:
            return freeing[pick % len(freeing)]
    return options[pick % len(options)][0]
