"""Looking ahead on the board, for the bots (not the deadline defaults: they must not look
at the dial, and this search starts from it).

The question a player asks is "how many moves does my official need to enter the target,
with the others standing where they stand, and which move (of mine, or of an official in my
way) brings it closer?".  :func:`distance` answers the first by a breadth-first search over
the official's stops (the other officials are obstacles and stay put); :func:`ranked` scores
every move of the menu by the distance it leaves the official at.  Pure and deterministic.
"""

from __future__ import annotations

from collections.abc import Iterable

from .board import DIRECTIONS, Board, Square
from .commands import Move
from .moves import _links, destinations, short_moves
from .state import State

FAR = 9  # "not within the look-ahead"


def reach(
    board: Board, occupied: frozenset[Square], start: Square, target: Square | None, max_slides: int
) -> set[Square]:
    """Every square one move (sliding or short) of an official on ``start`` can end on;
    the target's square stands for entering it."""
    return set(destinations(board, occupied, start, target, max_slides)) | set(
        short_moves(board, occupied, start, target)
    )


def distance(
    board: Board,
    occupied: frozenset[Square],
    start: Square,
    target: Square,
    max_slides: int,
    limit: int = 3,
) -> int:
    """The fewest moves an official on ``start`` needs to enter ``target`` (the others staying
    where they are), or :data:`FAR` if more than ``limit``."""
    frontier, seen = {start}, {start}
    for n in range(1, limit + 1):
        nxt: set[Square] = set()
        for square in frontier:
            found = reach(board, occupied, square, target, max_slides)
            if target in found:
                return n
            nxt |= found
        frontier = nxt - seen
        seen |= frontier
        if not frontier:
            break
    return FAR


def distances(
    board: Board,
    occupied: frozenset[Square],
    start: Square,
    target: Square,
    max_slides: int,
    limit: int = 6,
) -> dict[Square, int]:
    """How many moves an official still needs to enter ``target`` from ``start`` and from
    each square it can reach within ``limit - 1`` moves (the others staying put): one
    search forward over its stops, then back from the target over the moves found.  A
    square missing from the answer is more than ``limit`` moves away (from ``start``)."""
    edges: dict[Square, set[Square]] = {}
    frontier, seen = [start], {start}
    for _ in range(limit):
        nxt: list[Square] = []
        for square in frontier:
            found = reach(board, occupied, square, target, max_slides)
            edges[square] = found
            for there in found:
                if there not in seen and there != target:
                    seen.add(there)
                    nxt.append(there)
        frontier = nxt
        if not frontier:
            break
    back: dict[Square, set[Square]] = {}
    for square, found in edges.items():
        for there in found:
            back.setdefault(there, set()).add(square)
    dist = {target: 0}
    queue = [target]
    for square in queue:
        for before in back.get(square, ()):
            if before not in dist:
                dist[before] = dist[square] + 1
                queue.append(before)
    del dist[target]
    return dist


def blockers(state: State, code: str, max_slides: int) -> set[str]:
    """The officials that stop a slide of ``code`` (within its first ``max_slides`` slides,
    from where it stands and from its stops): moving one of them may open a path."""
    start = state.square_of(code)
    if start is None:
        return set()
    links, _ = _links(state.board)
    where = {s: c for c in state.on_board() if c != code and (s := state.square_of(c)) is not None}
    found: set[str] = set()
    frontier = {start}
    for _ in range(max_slides):
        nxt: set[Square] = set()
        for here in frontier:
            for d in DIRECTIONS:
                at = here
                while (there := links.get((at, d))) is not None and there not in where:
                    at = there
                if there is not None and there in where:
                    found.add(where[there])
                if at != here:
                    nxt.add(at)
        frontier = nxt
    return found


def ranked(
    state: State, code: str, options: Iterable[tuple[Move, Square]], limit: int = 0, ahead: int = 2
) -> tuple[int, list[tuple[int, bool, Move, Square]]]:
    """How many moves ``code`` needs to enter the target now (:data:`FAR` beyond ``limit``:
    by default 6 moves that turn once, 3 with the option many_turns, where a move reaches
    much further and the search costs much more),
    and the moves of ``options`` that are moves of ``code`` or of an official in its way, each
    with the moves it leaves ``code`` needing and whether it is a move of ``code`` itself;
    best first (then own moves first, then menu order).  The officials in the way are those
    that stop a slide of ``code`` (from where it stands; when it is within ``ahead`` + 2
    moves also from its stops), and after a move of one of them the search looks only
    ``ahead`` moves deep (one with many_turns; it is one search per such move)."""
    target = state.board.pavilion(state.target).square if state.target else None
    here = state.square_of(code)
    if target is None or here is None:
        return FAR, []
    max_slides = state.config.max_slides
    limit = limit or (6 if max_slides <= 2 else 3)
    ahead = ahead if max_slides <= 2 else 1
    board = state.board
    occupied = state.occupied(besides=code)
    dist = distances(board, occupied, here, target, max_slides, limit)
    now = dist.get(here, FAR)
    in_way = blockers(state, code, 2 if now <= ahead + 2 else 1)
    out: list[tuple[int, bool, int, Move, Square]] = []
    for i, (move, end) in enumerate(options):
        if end == target:
            continue
        if move.code == code:
            out.append((dist.get(end, FAR), True, i, move, end))
        elif move.code in in_way:
            start = state.square_of(move.code)
            moved = (occupied - {start}) | {end}
            d = distance(board, moved, here, target, max_slides, min(ahead, now - 1))
            out.append((d, False, i, move, end))
    out.sort(key=lambda t: (t[0], not t[1], t[2]))
    return now, [(d, own, move, end) for d, own, _i, move, end in out]
