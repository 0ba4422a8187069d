"""The board of Die Verbotene Stadt as data: a square grid with walls and roofs.

Seed 003's illustrations are missing, so the map is *reconstructed* (``boards/*.json`` says
so, and RULES.md says how): a ``size`` × ``size`` grid (15 × 15), squares that are roofs or
solid walls (``blocked``), walls on the edges between two squares (``walls``), the 25 yellow
start squares and the 4 grey-yellow ones sticking out of them, and 8 pavilions, each one
square of the grid, numbered 1–8 like the faces of the pavilion die.

Coordinates are ``(row, column)``; row 0 is the top (north) edge, column 0 the left (west).
A board file::

    {"name": "forbidden_city", "reconstructed": "…", "size": 15,
     "blocked": [[r, c], …], "walls": [[[r, c], [r, c]], …],
     "start": [[r, c] × 25], "extra_start": [[r, c] × 4],
     "pavilions": [{"number": 1, "colour": "red", "square": [r, c]}, …]}

This module knows only geometry; what an official may do on it is ``moves.py``.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..boardfiles import board_data

Square = tuple[int, int]

# (row step, column step) of each compass direction; "n" is up the page
DIRECTIONS: Mapping[str, Square] = {"n": (-1, 0), "e": (0, 1), "s": (1, 0), "w": (0, -1)}
TURNS: Mapping[str, tuple[str, str]] = {  # a 90° turn: (to the left, to the right)
    "n": ("w", "e"),
    "e": ("n", "s"),
    "s": ("e", "w"),
    "w": ("s", "n"),
}


class BoardError(ValueError):
    """A board file that is not a board."""


@dataclass(frozen=True, slots=True)
class Pavilion:
    number: int  # 1-8, the face of the pavilion die
    colour: str  # the colour of the garment cards it holds
    square: Square


@dataclass(frozen=True, slots=True)
class Board:
    name: str
    digest: str  # sha256 of the canonical JSON, pinned in game records
    size: int
    blocked: frozenset[Square]
    walls: frozenset[frozenset[Square]]  # each an edge: the two squares it lies between
    start: tuple[Square, ...]  # the 25 yellow start squares
    extra_start: tuple[Square, ...]  # the 4 grey-yellow squares that start empty
    pavilions: tuple[Pavilion, ...]  # by number: pavilions[0] is number 1
    reconstructed: str = ""

    def on_board(self, square: Square) -> bool:
        r, c = square
        return 0 <= r < self.size and 0 <= c < self.size

    def step(self, square: Square, direction: str) -> Square:
        dr, dc = DIRECTIONS[direction]
        return square[0] + dr, square[1] + dc

    def open_between(self, a: Square, b: Square) -> bool:
        """May an official pass from ``a`` to the adjacent ``b`` (leaving officials and
        pavilions aside)?  Not over the edge of the board, through a wall or onto a roof."""
        return self.on_board(b) and b not in self.blocked and frozenset((a, b)) not in self.walls

    def pavilion_at(self, square: Square) -> Pavilion | None:
        return next((p for p in self.pavilions if p.square == square), None)

    def pavilion(self, number: int) -> Pavilion:
        return self.pavilions[number - 1]

    def is_start(self, square: Square) -> bool:
        """A yellow or grey-yellow start square (where the one-step short move is allowed)."""
        return square in self.start or square in self.extra_start

    # -- sliding -----------------------------------------------------------------------
    def slide(
        self,
        square: Square,
        direction: str,
        *,
        occupied: Iterable[Square] = (),
        target: int | None = None,
    ) -> tuple[Square, ...]:
        """The squares an official at ``square`` passes sliding ``direction`` until blocked,
        ending with the square it stops on; ``()`` if it cannot move at all (a 0-length
        slide, which is no slide).  Obstacles: the edge of the board, walls, roofs, the
        squares in ``occupied`` (other officials) and every pavilion but the ``target``
        one; an official that reaches the target pavilion's square enters it and stops
        there (the path then ends on the pavilion's square)."""
        taken = frozenset(occupied)
        goal = self.pavilion(target).square if target is not None else None
        path: list[Square] = []
        here = square
        while True:
            there = self.step(here, direction)
            if not self.open_between(here, there) or there in taken:
                break
            if self.pavilion_at(there) is not None and there != goal:
                break
            path.append(there)
            if there == goal:
                break
            here = there
        return tuple(path)

    def stops(
        self,
        square: Square,
        *,
        occupied: Iterable[Square] = (),
        target: int | None = None,
    ) -> dict[Square, str]:
        """Every square one official at ``square`` can end a single move on by slides with
        90° turns (any number of them, as with the option many_turns; the game's moves turn
        once by default and are the engine's, ``moves.py``), with the first direction that
        leads there; an entry into the target pavilion ends the move.  Other officials
        (``occupied``) stay where they are.  The one-step short move from a start square is
        not included: it is the engine's (``moves.py``)."""
        taken = frozenset(occupied) - {square}
        goal = self.pavilion(target).square if target is not None else None
        found: dict[Square, str] = {}
        seen: set[tuple[Square, str]] = set()
        queue: list[tuple[Square, str, str]] = [(square, d, d) for d in DIRECTIONS]
        while queue:
            here, direction, first = queue.pop(0)
            if (here, direction) in seen:
                continue
            seen.add((here, direction))
            path = self.slide(here, direction, occupied=taken, target=target)
            if not path:
                continue
            end = path[-1]
            found.setdefault(end, first)
            if end != goal:
                queue.extend((end, turn, first) for turn in TURNS[direction])
        return found

    def reachable(
        self,
        squares: Iterable[Square],
        *,
        occupied: Iterable[Square] = (),
        target: int | None = None,
    ) -> frozenset[Square]:
        """Every square one official starting on any of ``squares`` can reach in any number
        of moves (slides with turns; other officials in ``occupied`` stay put, the squares it
        starts from count as left empty), the target pavilion's square included if it can be
        entered."""
        seen = set(squares)
        taken = frozenset(occupied) - seen
        queue = list(seen)
        goal = self.pavilion(target).square if target is not None else None
        while queue:
            here = queue.pop()
            if here == goal:
                continue
            for direction in DIRECTIONS:
                path = self.slide(here, direction, occupied=taken, target=target)
                if path and path[-1] not in seen:
                    seen.add(path[-1])
                    queue.append(path[-1])
        return frozenset(seen)

    # -- files -------------------------------------------------------------------------
    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Board:
        try:
            size = int(data["size"])
            blocked = frozenset(_square(s) for s in data.get("blocked", ()))
            walls = frozenset(frozenset((_square(a), _square(b))) for a, b in data.get("walls", ()))
            start = tuple(_square(s) for s in data["start"])
            extra = tuple(_square(s) for s in data.get("extra_start", ()))
            pavilions = tuple(
                Pavilion(int(p["number"]), str(p["colour"]), _square(p["square"]))
                for p in sorted(data["pavilions"], key=lambda p: int(p["number"]))
            )
        except (KeyError, TypeError, ValueError) as error:
            raise BoardError(f"not a board: {error}") from None
        board = cls(
            name=str(data.get("name", "")),
            digest=hashlib.sha256(_canonical(data)).hexdigest(),
            size=size,
            blocked=blocked,
            walls=walls,
            start=start,
            extra_start=extra,
            pavilions=pavilions,
            reconstructed=str(data.get("reconstructed", "")),
        )
        _check(board)
        return board


def _square(value: Iterable[Any]) -> Square:
    r, c = value
    return int(r), int(c)


def _canonical(data: Mapping[str, Any]) -> bytes:
    return json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()


def _check(board: Board) -> None:
    squares = [*board.start, *board.extra_start, *(p.square for p in board.pavilions)]
    if not all(board.on_board(s) for s in (*squares, *board.blocked)):
        raise BoardError("every square must lie on the board")
    if len(set(squares)) != len(squares) or set(squares) & board.blocked:
        raise BoardError("start squares and pavilions must be distinct open squares")
    if [p.number for p in board.pavilions] != list(range(1, len(board.pavilions) + 1)):
        raise BoardError("pavilions must be numbered 1, 2, … without gaps")
    for wall in board.walls:
        a, b = sorted(wall)
        if abs(a[0] - b[0]) + abs(a[1] - b[1]) != 1:
            raise BoardError(f"a wall must lie between two adjacent squares, not {a} and {b}")


def load_board(source: str | Path = "forbidden_city") -> Board:
    """A built-in board by name (``"forbidden_city"``) or a board file by path."""
    return Board.from_dict(board_data(source, "games.rules.verbotenestadt", BoardError))
