"""Build the reconstructed Forbidden City board (games/rules/verbotenestadt/boards/forbidden_city.json).

Seed 003's illustrations (the board, page 4's set-up picture) are missing; what the text and the
public descriptions give is fixed (VERBOTENE-STADT-DIGEST.md, BOARD.md beside the JSON): a 15 × 15
grid, 8 one-square pavilions at the corners and edge middles numbered 1-8 clockwise from the
top-left corner, a 5 × 5 yellow start area in the centre (rows/cols 5-9) with 4 grey-yellow
squares sticking out at the middle of each side, walls and roofs as obstacles.  The rest is
invented here: one quarter of the city (the strip north of the start area, rows 0-4 and columns
0-9) is laid out by hand and turned by 90° three times, so the four quarters are alike but face
different pavilions; a few irregular extras follow, as the real palace is not symmetrical.

Run: python -m games.rules.verbotenestadt.buildboard > games/rules/verbotenestadt/boards/forbidden_city.json
"""

from __future__ import annotations

import json
import sys

SIZE = 15
N = SIZE - 1

Square = tuple[int, int]

COLOURS = ["red", "orange", "yellow", "white", "blue", "purple", "green", "black"]
PAVILIONS = [(0, 0), (0, 7), (0, 14), (7, 14), (14, 14), (14, 7), (14, 0), (7, 0)]

# One quarter: rows 0-4, columns 0-9 (north of the start area and its north-west corner).
QUARTER_ROOFS: list[Square] = [
    (2, 2),
    (2, 3),
    (3, 2),  # the roof of a hall, an L
    (1, 5),  # a gate tower
    (2, 7),  # the screen wall before pavilion 2's door: nothing slides straight in from the gate
    (3, 9),  # a pillar by the court
]
QUARTER_WALLS: list[tuple[Square, Square]] = [
    # pavilion 1 (corner): walled on the east, its door opens south
    ((0, 0), (0, 1)),
    # pavilion 2 (edge middle): walled on the west and east, its door opens south
    ((0, 6), (0, 7)),
    ((0, 7), (0, 8)),
    # the lane before pavilion 2: slides along row 1 from the east stop at its door
    ((1, 6), (1, 7)),
    ((0, 8), (1, 8)),  # and column 8 northwards stops at the lane
    # courtyard walls
    ((3, 1), (4, 1)),  # the corner court: its door is from row 4, up column 0
    ((1, 2), (1, 3)),
    ((3, 4), (3, 5)),
    ((4, 4), (4, 5)),
    ((3, 6), (4, 6)),
    ((1, 9), (2, 9)),
    ((3, 8), (4, 8)),
]

# The inner court: one wall on the outer side of each corner start square, turning like a
# pinwheel, so that no start square is closed in (every one has a slide out).
COURT_WALLS: list[tuple[Square, Square]] = [((5, 5), (4, 5))]

# Irregular extras, not turned with the quarters.
EXTRA_ROOFS: list[Square] = [(11, 11), (13, 2)]
EXTRA_WALLS: list[tuple[Square, Square]] = [((12, 4), (12, 5)), ((9, 2), (10, 2))]


def turn(square: Square, times: int) -> Square:
    """``square`` turned clockwise by 90° ``times`` times about the centre of the grid."""
    r, c = square
    for _ in range(times % 4):
        r, c = c, N - r
    return r, c


def build() -> dict[str, object]:
    blocked: set[Square] = set(EXTRA_ROOFS)
    walls: set[tuple[Square, Square]] = set()
    for times in range(4):
        blocked.update(turn(s, times) for s in QUARTER_ROOFS)
        for a, b in (*QUARTER_WALLS, *COURT_WALLS):
            walls.add(tuple(sorted((turn(a, times), turn(b, times)))))  # type: ignore[arg-type]
    for a, b in EXTRA_WALLS:
        walls.add(tuple(sorted((a, b))))  # type: ignore[arg-type]
    start = [(r, c) for r in range(5, 10) for c in range(5, 10)]
    extra_start = [(4, 7), (7, 10), (10, 7), (7, 4)]
    return {
        "name": "forbidden_city",
        "reconstructed": (
            "Reconstructed, not transcribed: seed 003's board illustrations are missing. Fixed by "
            "the seed text and the public descriptions (the German Wikipedia article, the "
            "gamecabinet.com translation, as digested in VERBOTENE-STADT-DIGEST.md): the 15x15 "
            "grid, 8 pavilions at the corners and edge middles, the 25 yellow start squares in "
            "the centre and the 4 grey-yellow squares sticking out of them, walls and roofs as "
            "obstacles, the 15-place terrace (not on the grid). Invented: every wall and roof, "
            "the pavilions' numbering (1-8 clockwise from the top-left corner), colours and "
            # the tool's first place: the text is pinned by the board's digest, in every record
            "doors. Built by tools/build_forbidden_city.py; see BOARD.md."
        ),
        "size": SIZE,
        "blocked": sorted([list(s) for s in blocked]),
        "walls": sorted([[list(a), list(b)] for a, b in walls]),
        "start": [list(s) for s in start],
        "extra_start": [list(s) for s in extra_start],
        "pavilions": [
            {"number": i + 1, "colour": colour, "square": list(square)}
            for i, (colour, square) in enumerate(zip(COLOURS, PAVILIONS, strict=True))
        ],
    }


def main() -> None:
    json.dump(build(), sys.stdout, indent=1, ensure_ascii=False)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
