"""What a missed deadline plays (RULES.md, "Defaults").

* dial (the first window, or the mover's after an entry): an official still on the board,
  by a lot drawn from the seed (it does not move the dice);
* rebribe: keep the dial (a new one by lot when the official is on the terrace);
* challenge: believe;
* move: the first move of a turn is compulsory, so it is made for the player: the bribed
  official into the target if it can (the entry shows the dial anyway), else a move chosen
  without the dial, since a default is public (:func:`blind_move`); after the first move:
  stop;
* dragon, penalty, empty pavilion: the card that adds most to the taker's score; a partner's
  card is spared (dragon, empty pavilion), or taken only when there is no other (penalty).
"""

from __future__ import annotations

from . import dice
from .board import Square
from .commands import Believe, Command, Dial, Keep, Move, Stop
from .decisions import _may_keep, move_options, owed
from .engine import default_take
from .search import reach
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
    """The compulsory first move of an absent player.  Defaults are public, so nothing in it
    may depend on the dial beyond what an entry shows anyway (the dial is shown at entry):
    the bribed official into the target if it can go there; else a move chosen without the
    dial (:func:`blind_move`)."""
    options = move_options(state, seat)
    own = state.dials[seat]
    target = state.board.pavilion(state.target).square if state.target else None
    for m, end in options:
        if m.code == own and end == target:
            return m
    return blind_move(state, seat, options)


def blind_move(state: State, seat: int, options: list[tuple[Move, Square]]) -> Move:
    """A move that does not look at the dial: by lot (from the seed, the turn and the seat)
    among the moves that bring an official to a square from which it could enter the target
    in one move, when it could not before (so that a game of absent players still ends: the
    officials gather at the target's door and a bribed one comes within reach); else by lot
    among all moves that do not enter."""
    target = state.board.pavilion(state.target).square if state.target else None
    pick = dice.lot(state.seed, "move", state.turn, seat)
    outside = [(m, end) for m, end in options if end != target] or options
    if target is None:
        return outside[pick % len(outside)][0]
    max_slides = state.config.max_slides
    near: dict[str, bool] = {}
    closer = []
    for m, end in outside:
        occupied = state.occupied(besides=m.code)
        if m.code not in near:
            here = state.square_of(m.code)
            assert here is not None
            near[m.code] = target in reach(state.board, occupied, here, target, max_slides)
        if not near[m.code] and target in reach(state.board, occupied, end, target, max_slides):
            closer.append(m)
    if closer:
        return closer[pick % len(closer)]
    return outside[pick % len(outside)][0]
