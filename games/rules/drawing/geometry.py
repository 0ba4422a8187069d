"""Shapes on the board grid: the outline of a set of unit cells, and where a label fits.

A province is a set of unit squares (x east, y south).  Its outline is traced once as a
closed path around the union of the squares, so the picture shows one shape per province
and its neighbours meet along one shared edge, not a mosaic of squares.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache

Cell = tuple[int, int]
Point = tuple[int, int]


@dataclass(frozen=True, slots=True)
class Rect:
    """A rectangle of whole cells: left column, top row, width and height in cells."""

    x: int
    y: int
    w: int
    h: int


def outline(cells: Iterable[Cell]) -> list[list[Point]]:
    """The closed loops (lists of corner points) bounding the union of ``cells``.

    Every cell contributes its four edges clockwise; an edge shared by two cells of the set
    appears once in each direction and cancels.  What is left chains into loops; holes come
    out as loops of the opposite direction, which an even-odd fill draws as holes.
    """
    members = set(cells)
    edges: dict[Point, list[Point]] = {}
    for x, y in sorted(members):
        corners = ((x, y), (x + 1, y), (x + 1, y + 1), (x, y + 1))
        neighbours = ((x, y - 1), (x + 1, y), (x, y + 1), (x - 1, y))
        for i, beyond in enumerate(neighbours):
            if beyond not in members:
                edges.setdefault(corners[i], []).append(corners[(i + 1) % 4])
    loops: list[list[Point]] = []
    while edges:
        start = min(edges)
        loop = [start]
        point = _follow(edges, start)
        while point != start:
            loop.append(point)
            point = _follow(edges, point)
        loops.append(_corners_only(loop))
    return loops


def _follow(edges: dict[Point, list[Point]], point: Point) -> Point:
    targets = edges[point]
    nxt = targets.pop()
    if not targets:
        del edges[point]
    return nxt


def _corners_only(loop: list[Point]) -> list[Point]:
    """Drop the points in the middle of straight runs."""
    kept = []
    n = len(loop)
    for i, (x, y) in enumerate(loop):
        (px, py), (nx, ny) = loop[i - 1], loop[(i + 1) % n]
        if not ((px == x == nx) or (py == y == ny)):
            kept.append((x, y))
    return kept


def path_data(loops: list[list[Point]], scale: float, origin: tuple[float, float] = (0, 0)) -> str:
    """SVG path data for the loops, in picture units."""
    ox, oy = origin
    parts = []
    for loop in loops:
        points = " ".join(f"{_num(ox + x * scale)} {_num(oy + y * scale)}" for x, y in loop)
        parts.append(f"M{points}Z")
    return "".join(parts)


def _num(value: float) -> str:
    return f"{value:.1f}".rstrip("0").rstrip(".")


@lru_cache(maxsize=256)  # a board's provinces never change: their label places are found once
def label_rect(cells: tuple[Cell, ...]) -> Rect:
    """The largest rectangle of whole cells inside the province (wider wins a tie, then the
    one nearest the middle): where its number, name and pieces are drawn."""
    members = set(cells)
    xs = [x for x, _ in members]
    ys = [y for _, y in members]
    centre = (sum(xs) / len(xs), sum(ys) / len(ys))
    best: tuple[tuple[float, ...], Rect] | None = None
    for x0 in range(min(xs), max(xs) + 1):
        for y0 in range(min(ys), max(ys) + 1):
            if (x0, y0) not in members:
                continue
            for x1 in range(x0, max(xs) + 1):
                if (x1, y0) not in members:
                    break
                for y1 in range(y0, max(ys) + 1):
                    if any((x, y1) not in members for x in range(x0, x1 + 1)):
                        break
                    w, h = x1 - x0 + 1, y1 - y0 + 1
                    off = abs(x0 + w / 2 - centre[0] - 0.5) + abs(y0 + h / 2 - centre[1] - 0.5)
                    key = (w * h, w, -off)
                    if best is None or key > best[0]:
                        best = (key, Rect(x0, y0, w, h))
    assert best is not None
    return best[1]
