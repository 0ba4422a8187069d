"""Who decides what, and what they may answer: the decisions owed now (``pending``, ``owed``)
and a seat's menu (``legal``; a move's with the square each ends on, ``move_options``; the
cards it may take, ``take_options``).

Below both the engine (which starts a turn only when the player can move, and names the menu
when it refuses a command) and the menu in words (:mod:`.menu`), so that neither has to import
the other to know what a seat may do."""

from __future__ import annotations

from ..base import Decision
from .commands import Believe, Command, Dial, Doubt, Keep, Move, Spare, Stop, Take
from .constants import Card
from .moves import can_start, destinations, short_moves
from .state import State


def pending(state: State) -> tuple[Decision, ...]:
    if state.phase in ("dial", "challenge"):
        return tuple(Decision(s, k, sealed=True) for s, k in state.window if state.sealed[s] is None)
    if state.phase == "move":
        return (Decision(state.active, "move"),)
    if state.phase == "take":
        task = state.tasks[0]
        return (Decision(task[1], task[0]),)
    return ()


def owed(state: State, seat: int) -> str | None:
    """The kind of decision ``seat`` owes or may still change now, or None."""
    if state.phase in ("dial", "challenge"):
        for s, k in state.window:  # a loop, not a generator: every command asks this
            if s == seat:
                return k
        return None
    if state.phase == "move":  # pending() without building it: every command asks this
        return "move" if seat == state.active else None
    return next((d.kind for d in pending(state) if d.seat == seat), None)


def legal(state: State, seat: int) -> tuple[Command, ...]:
    """The menu of ``seat``.  For a move: one command per official and square it can reach
    (a shortest path; any other path there is legal too), short moves, and ``stop`` once the
    player has moved; plans are not listed (any sequence of these is one)."""
    kind = owed(state, seat)
    if kind in ("dial", "rebribe"):
        menu: list[Command] = [Keep()] if kind == "rebribe" and _may_keep(state, seat) else []
        return (*menu, *(Dial(code) for code in state.on_board()))
    if kind == "challenge":
        return (Believe(), Doubt())
    if kind == "move":
        return (*((Stop(),) if state.moves else ()), *move_menu(state, seat))
    if kind in ("dragon", "penalty", "empty"):
        options: list[Command] = [Take(*card) for card in take_options(state)]
        # the dragon and an empty pavilion *allow* a taking ("erlaubt", "darf"): it may be spared
        return (*options, Spare()) if kind in ("dragon", "empty") else tuple(options)
    return ()


def move_menu(state: State, seat: int) -> list[Move]:
    return [m for m, _ in move_options(state, seat)]


def move_options(state: State, seat: int) -> list[tuple[Move, tuple[int, int]]]:
    """The moves of the menu with the square each ends on (the target's when it enters)."""
    target = _target_square(state)
    out: list[tuple[Move, tuple[int, int]]] = []
    for code in state.on_board():
        start = state.square_of(code)
        assert start is not None
        occupied = state.occupied(besides=code)
        ends = destinations(state.board, occupied, start, target, state.config.max_slides)
        steps = short_moves(state.board, occupied, start, target)
        may_enter = _may_enter(state, seat, code)
        for square, path in sorted(ends.items()):
            if square != target or may_enter:
                out.append((Move(code, path), square))
        for square, d in sorted(steps.items()):
            if (square not in ends or ends[square] != (d,)) and (square != target or may_enter):
                out.append((Move(code, (d,), short=True), square))
    return out


def take_options(state: State) -> list[Card]:
    """The cards the seat choosing now (phase "take") may take."""
    task = state.tasks[0]
    kind, taker = task[0], task[1]
    if kind == "penalty":
        return list(state.hands[task[2]])
    if kind == "empty":
        colour = state.board.pavilion(state.entry.pavilion).colour if state.entry else ""
        return [c for s, hand in enumerate(state.hands) if s != taker for c in hand if c[0] == colour]
    return [c for s, hand in enumerate(state.hands) if s != taker for c in hand]


def can_move(state: State, seat: int) -> bool:
    """Whether ``move_menu(state, seat)`` has a move, found without listing them all (a
    turn's start asks it, and replay starts every turn): every move begins with one slide
    or is a short move, so an official can move when one of those takes it where it may go."""
    target = _target_square(state)
    board = state.board
    # an official's own square is on neither its first slide nor its short move, so the
    # squares of all the officials will do
    occupied = state.occupied()
    bluffing = bluffing_open(state, seat)
    dial = state.dials[seat]
    for code in state.on_board():
        start = state.square_of(code)
        assert start is not None
        if can_start(board, occupied, start, target, bluffing or dial == code):  # _may_enter
            return True
    return False


def _target_square(state: State) -> tuple[int, int] | None:
    return state.board.pavilion(state.target).square if state.target else None


def bluffing_open(state: State, seat: int) -> bool:
    """May ``seat`` move an official it has not bribed into the target?  Once it owns a card
    and another player owns one (checked at each entry)."""
    return bool(state.hands[seat]) and any(h for s, h in enumerate(state.hands) if s != seat)


def _may_enter(state: State, seat: int, code: str) -> bool:
    return state.dials[seat] == code or bluffing_open(state, seat)


def _may_keep(state: State, seat: int) -> bool:
    dial = state.dials[seat]
    return dial is not None and state.square_of(dial) is not None
