"""What an official may do on the board: slide until blocked, turn, the short move.

* A slide goes square by square in one direction until the next square is blocked: the edge
  of the board, a wall between the squares, a roof, another official or a pavilion that is
  not the target.  It must cover at least one square.  If the next square is the *target*
  pavilion (through its door) the official enters it and the move ends there.
* After a slide the official may turn 90° left or right and slide again: once by default
  (``max_slides`` 2, the literal reading, open point 3), with the option ``many_turns`` after
  every slide up to ``MAX_TURNS_IN_A_MOVE`` slides.  Where neither turn can go anywhere (a
  dead end) the move ends.
* An official standing on a start square (one of the 25 yellow or the 4 grey-yellow) may
  instead move exactly one square: onto an adjacent free square (or into the target).

Start squares are ordinary squares while moving.  These functions are pure and know nothing
of players; :mod:`.engine` decides who may enter the target.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable

from .board import DIRECTIONS, TURNS, Board, Square
from .constants import MAX_TURNS_IN_A_MOVE


class MoveError(ValueError):
    """A path the official cannot take; ``reason`` is an English template, ``args`` its fields."""

    def __init__(self, reason: str, **args: str | int) -> None:
        super().__init__(reason.format(**args))
        self.reason = reason
        self.args_ = args


Links = dict[tuple[Square, str], Square]
Rays = dict[tuple[Square, str], tuple[Square, ...]]
_LINKS: dict[int, tuple[Board, Links, frozenset[Square], Rays, frozenset[Square]]] = {}


def _facts(board: Board) -> tuple[Board, Links, frozenset[Square], Rays, frozenset[Square]]:
    """What the searches read of a board, worked out once per board object."""
    cached = _LINKS.get(id(board))
    if cached is None or cached[0] is not board:  # the board is kept, so its id is not reused
        cached = _board_facts(board)
    return cached


def _links(board: Board) -> tuple[Links, frozenset[Square]]:
    """The open neighbour of each square in each direction (walls, roofs and the edge left
    out), and the pavilions' squares."""
    facts = _facts(board)
    return facts[1], facts[2]


def _rays(board: Board) -> tuple[Rays, frozenset[Square]]:
    """The squares met going straight from each square in each direction, up to a wall or
    the edge, or up to a pavilion included (no slide goes on from one): what :func:`slide`
    walks, officials apart."""
    facts = _facts(board)
    return facts[3], facts[2]


def _board_facts(board: Board) -> tuple[Board, Links, frozenset[Square], Rays, frozenset[Square]]:
    links: Links = {}
    for r in range(board.size):
        for c in range(board.size):
            for d in DIRECTIONS:
                there = board.step((r, c), d)
                if board.open_between((r, c), there):
                    links[(r, c), d] = there
    if len(_LINKS) > 64:  # a bound, not a rule: clearing more often only costs time
        _LINKS.clear()
    pavilions = frozenset(p.square for p in board.pavilions)
    rays: Rays = {}
    for (square, d), first in links.items():
        ray = [first]
        while ray[-1] not in pavilions and (nxt := links.get((ray[-1], d))) is not None:
            ray.append(nxt)
        rays[square, d] = tuple(ray)
    starts = frozenset((*board.start, *board.extra_start))
    facts = _LINKS[id(board)] = (board, links, pavilions, rays, starts)
    return facts


def _free(
    board: Board, occupied: frozenset[Square], here: Square, d: str, target: Square | None
) -> tuple[str, Square]:
    """What lies next to ``here`` in direction ``d``: ("open" | "target" | "blocked", square)."""
    links, pavilions = _links(board)
    there = links.get((here, d))
    if there is None or there in occupied:
        return "blocked", here
    if there in pavilions:
        return ("target" if there == target else "blocked"), there
    return "open", there


def slide(
    board: Board, occupied: frozenset[Square], start: Square, direction: str, target: Square | None
) -> tuple[list[Square], bool]:
    """The squares an official passes sliding from ``start`` (the last is where it stops),
    and whether it entered the target pavilion (then the last square is the pavilion's)."""
    rays, pavilions = _rays(board)
    passed: list[Square] = []
    for there in rays.get((start, direction), ()):
        if there in occupied:
            return passed, False
        if there in pavilions:
            if there != target:
                return passed, False
            passed.append(there)
            return passed, True
        passed.append(there)
    return passed, False


def _stop(
    links: Links,
    pavilions: frozenset[Square],
    occupied: frozenset[Square],
    here: Square,
    direction: str,
    target: Square | None,
) -> tuple[Square | None, bool]:
    """Where :func:`slide` ends (None: it cannot start) and whether it enters the target,
    without listing the squares passed (the searches ask this very often)."""
    end: Square | None = None
    while True:
        there = links.get((here, direction))
        if there is None or there in occupied:
            return end, False
        if there in pavilions:
            if there != target:
                return end, False
            return there, True
        end = here = there


def trace(
    board: Board,
    occupied: frozenset[Square],
    start: Square,
    path: Iterable[str],
    short: bool,
    target: Square | None,
    max_slides: int = MAX_TURNS_IN_A_MOVE,
) -> tuple[list[Square], bool]:
    """Every square passed by a move (its last is where the official ends) and whether it
    entered the target; raises :class:`MoveError` for a move the official cannot make."""
    directions = list(path)
    if not directions:
        raise MoveError("a move needs a direction")
    for d in directions:
        if d not in DIRECTIONS:
            raise MoveError("'{direction}' is not a direction (n, e, s or w)", direction=d)
    if short:
        if len(directions) != 1:
            raise MoveError("a short move goes one square in one direction")
        if not board.is_start(start):
            raise MoveError("only an official on a start square may make the short move")
        what, there = _free(board, occupied, start, directions[0], target)
        if what == "blocked":
            raise MoveError("the official cannot step {direction} from there", direction=directions[0])
        return [there], what == "target"
    if len(directions) > max_slides:
        raise MoveError("a move may have at most {n} slides", n=max_slides)
    passed: list[Square] = []
    here = start
    for i, d in enumerate(directions):
        if i and d not in TURNS[directions[i - 1]]:
            raise MoveError("after a slide the official turns left or right, not {direction}", direction=d)
        step, entered = slide(board, occupied, here, d, target)
        if not step:
            raise MoveError("the official cannot slide {direction} from there", direction=d)
        passed += step
        here = step[-1]
        if entered:
            if i + 1 < len(directions):
                raise MoveError("the official has entered the target pavilion: its move ends there")
            return passed, True
    return passed, False


def destinations(
    board: Board,
    occupied: frozenset[Square],
    start: Square,
    target: Square | None,
    max_slides: int = MAX_TURNS_IN_A_MOVE,
) -> dict[Square, tuple[str, ...]]:
    """Every square a (sliding) move can end on, with a shortest path to it (fewest slides,
    then the first in n/e/s/w order).  The target's square stands for entering it."""
    links, pavilions = _links(board)
    found: dict[Square, tuple[str, ...]] = {}
    queue: deque[tuple[Square, tuple[str, ...]]] = deque()
    seen: set[tuple[Square, str]] = set()
    for d in DIRECTIONS:
        queue.append((start, (d,)))
    while queue:
        here, path = queue.popleft()
        end, entered = _stop(links, pavilions, occupied, here, path[-1], target)
        if end is None:
            continue
        if (end, path[-1]) in seen:
            continue
        seen.add((end, path[-1]))
        if end != start:
            found.setdefault(end, path)
        if entered or len(path) >= max_slides:
            continue
        for turn in TURNS[path[-1]]:
            queue.append((end, (*path, turn)))
    return found


def can_start(
    board: Board, occupied: frozenset[Square], start: Square, target: Square | None, may_enter: bool
) -> bool:
    """Whether an official on ``start`` has a move: a slide (``may_enter``: also one that
    enters the target) or a short move, as :func:`slide` and :func:`short_moves` find them,
    without listing squares (a turn's start asks this of every official until one can)."""
    _, _, pavilions, rays, starts = _facts(board)
    short = start in starts  # board.is_start
    for d in DIRECTIONS:
        ray = rays.get((start, d))
        if not ray:
            continue
        first = ray[0]
        if first in occupied:
            continue
        if first in pavilions:  # a slide or a short move straight into it
            if first == target and may_enter:
                return True
            continue
        if may_enter or short:  # it slides (or steps onto a free square)
            return True
        for there in ray[1:]:  # a slide that ends in the target is no move for this official
            if there in occupied or (there in pavilions and there != target):
                return True
            if there in pavilions:
                break
        else:
            return True
    return False


def short_moves(
    board: Board, occupied: frozenset[Square], start: Square, target: Square | None
) -> dict[Square, str]:
    """The short moves of an official on ``start``: square -> direction."""
    if not board.is_start(start):
        return {}
    out: dict[Square, str] = {}
    for d in DIRECTIONS:
        what, there = _free(board, occupied, start, d, target)
        if what != "blocked":
            out[there] = d
    return out
