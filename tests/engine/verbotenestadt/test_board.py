"""The reconstructed Forbidden City (games/rules/verbotenestadt/BOARD.md) and the board's sliding
geometry: every pavilion can be reached from the start area, nothing in the start area is a trap."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from games.rules.verbotenestadt.board import DIRECTIONS, Board, BoardError, load_board

ROOT = Path(__file__).parents[3]
BOARD_FILE = ROOT / "games/rules/verbotenestadt/boards/forbidden_city.json"
COLOURS = ["red", "orange", "yellow", "white", "blue", "purple", "green", "black"]
PAVILION_SQUARES = [(0, 0), (0, 7), (0, 14), (7, 14), (14, 14), (14, 7), (14, 0), (7, 0)]


@pytest.fixture(scope="module")
def board() -> Board:
    return load_board("forbidden_city")


def test_the_file_loads_and_says_it_is_reconstructed(board: Board):
    assert board.name == "forbidden_city"
    assert board.size == 15
    assert "reconstructed" in board.reconstructed.lower()
    assert "BOARD.md" in board.reconstructed
    assert load_board(BOARD_FILE).digest == board.digest


def test_the_generator_writes_the_file_as_it_is():
    """The JSON is the data; the script that built it must still build exactly it."""
    out = subprocess.run(
        [sys.executable, str(ROOT / "tools/build_forbidden_city.py")],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert json.loads(out) == json.loads(BOARD_FILE.read_text(encoding="utf-8"))


def test_25_yellow_start_squares_and_4_grey_yellow_ones_sticking_out(board: Board):
    assert sorted(board.start) == [(r, c) for r in range(5, 10) for c in range(5, 10)]
    assert sorted(board.extra_start) == sorted([(4, 7), (7, 10), (10, 7), (7, 4)])
    assert not (set(board.start) | set(board.extra_start)) & board.blocked


def test_8_pavilions_numbered_clockwise_with_their_colours(board: Board):
    assert [p.number for p in board.pavilions] == list(range(1, 9))
    assert [p.colour for p in board.pavilions] == COLOURS
    assert [p.square for p in board.pavilions] == PAVILION_SQUARES
    assert board.pavilion(7).colour == "green"  # seed 003: "den grünen Pavillon Nr. 7"


@pytest.mark.parametrize("number", range(1, 9))
def test_every_pavilion_has_exactly_one_door_toward_the_inside(board: Board, number: int):
    square = board.pavilion(number).square
    doors = [d for d in DIRECTIONS if board.open_between(square, board.step(square, d))]
    assert len(doors) == 1
    inside = board.step(square, doors[0])
    assert inside not in board.blocked and board.pavilion_at(inside) is None


@pytest.mark.parametrize("number", range(1, 9))
def test_every_pavilion_can_be_reached_from_the_start_area(board: Board, number: int):
    """With the other pavilions as obstacles and the other officials ignored."""
    square = board.pavilion(number).square
    starts = [*board.start, *board.extra_start]
    assert square in board.reachable(starts, target=number)
    # ... and from every single start square on its own
    for start in starts:
        assert square in board.reachable([start], target=number)


@pytest.mark.parametrize("number", range(1, 9))
def test_every_pavilion_can_be_reached_when_the_officials_stand_on_the_start_squares(
    board: Board, number: int
):
    """The set-up: 25 officials on the yellow squares.  Every official on the rim of the start
    area that can slide out can still reach every pavilion, the others standing where they are."""
    officials = frozenset(board.start)
    movable = [s for s in board.start if any(board.slide(s, d, occupied=officials) for d in DIRECTIONS)]
    rim = {s for s in board.start if 5 in s or 9 in s}
    assert set(movable) <= rim
    assert {(5, 7), (7, 9), (9, 7), (7, 5)} <= set(movable)  # out through the grey-yellow squares
    square = board.pavilion(number).square
    for official in movable:
        assert square in board.reachable([official], occupied=officials, target=number)


def test_no_pavilion_is_reachable_when_it_is_not_the_target(board: Board):
    starts = [*board.start, *board.extra_start]
    reach = board.reachable(starts)
    assert not reach & {p.square for p in board.pavilions}


def test_no_start_square_is_a_trap(board: Board):
    """Alone on the board (officials ignored), every start square has a slide of at least one
    square, and its slides lead out of the start area, not round in a loop inside it."""
    inside = set(board.start) | set(board.extra_start)
    for start in inside:
        slides = [board.slide(start, d) for d in DIRECTIONS]
        assert any(slides), start
        assert board.reachable([start]) - inside, start
        assert set(board.stops(start)) - inside, start


def test_slides_stop_before_obstacles_and_enter_the_target(board: Board):
    # the gate north of the start area: up column 7 to the screen roof at (2, 7)
    assert board.slide((5, 7), "n") == ((4, 7), (3, 7))
    # along row 1 from the east: the lane stops at pavilion 2's door; then north enters it
    assert board.slide((1, 9), "w")[-1] == (1, 7)
    assert board.slide((1, 7), "n", target=2) == ((0, 7),)
    # the same pavilion when it is not the target is an obstacle
    assert board.slide((1, 7), "n", target=1) == ()
    assert board.slide((1, 7), "n") == ()
    # an official in the way stops the slide in front of it
    assert board.slide((5, 7), "n", occupied=[(3, 7)]) == ((4, 7),)
    # a 0-length slide is no slide: the edge of the board
    assert board.slide((14, 3), "s") == ()


def test_stops_are_single_moves_with_turns(board: Board):
    stops = board.stops((5, 7), occupied=board.start, target=2)
    assert stops[(3, 7)] == "n"
    assert (0, 7) in stops  # north, west along row 3 ... then into pavilion 2's lane
    assert (5, 7) not in stops


def test_a_board_file_with_a_wall_between_distant_squares_is_refused():
    data = json.loads(BOARD_FILE.read_text(encoding="utf-8"))
    data["walls"].append([[0, 0], [2, 0]])
    with pytest.raises(BoardError):
        Board.from_dict(data)
