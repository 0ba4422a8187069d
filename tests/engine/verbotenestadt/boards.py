"""Hand-made boards for the Verbotene Stadt engine tests (not the reconstructed map)."""

from __future__ import annotations

from typing import Any

from games.rules.verbotenestadt.board import Board
from games.rules.verbotenestadt.constants import GARMENT_COLOURS

PAVILION_SQUARES = [(0, 0), (0, 7), (0, 14), (7, 14), (14, 14), (14, 7), (14, 0), (7, 0)]
# each pavilion's door: the one neighbour it opens to
DOORS = [(1, 0), (1, 7), (1, 14), (7, 13), (13, 14), (13, 7), (13, 0), (7, 1)]


def neighbours(square: tuple[int, int], size: int = 15) -> list[tuple[int, int]]:
    r, c = square
    return [
        (r + dr, c + dc)
        for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1))
        if 0 <= r + dr < size and 0 <= c + dc < size
    ]


def test_board_data(
    blocked: list[tuple[int, int]] | None = None, extra_walls: list[Any] | None = None
) -> dict[str, Any]:
    """A 15x15 city: the 5x5 start area in the middle with its 4 extra squares, the 8
    pavilions at the corners and edge middles, each walled but for one door, 4 roofs."""
    walls = []
    for square, door in zip(PAVILION_SQUARES, DOORS, strict=True):
        walls += [[list(square), list(n)] for n in neighbours(square) if n != door]
    walls += extra_walls or []
    return {
        "name": "test_city",
        "reconstructed": "a test board",
        "size": 15,
        "blocked": [
            list(s) for s in (blocked if blocked is not None else [(3, 3), (3, 11), (11, 3), (11, 11)])
        ],
        "walls": walls,
        "start": [[r, c] for r in range(5, 10) for c in range(5, 10)],
        "extra_start": [[4, 7], [7, 10], [10, 7], [7, 4]],
        "pavilions": [
            {"number": i + 1, "colour": colour, "square": list(sq)}
            for i, (colour, sq) in enumerate(zip(GARMENT_COLOURS, PAVILION_SQUARES, strict=True))
        ],
    }


def test_board(**kwargs: Any) -> Board:
    return Board.from_dict(test_board_data(**kwargs))


test_board_data.__test__ = False  # type: ignore[attr-defined]
test_board.__test__ = False  # type: ignore[attr-defined]
