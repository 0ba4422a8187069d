"""Moving an official (seed 003, "Wie wird gezogen?"): slides, turns, dead ends, short moves."""

from __future__ import annotations

import random

import pytest

from games.rules.verbotenestadt import moves
from games.rules.verbotenestadt.board import Board, load_board
from games.rules.verbotenestadt.decisions import move_options
from games.rules.verbotenestadt.moves import MoveError, can_start, destinations, short_moves, trace
from tests.engine.verbotenestadt.boards import neighbours, test_board, test_board_data
from tests.engine.verbotenestadt.helpers import arrange, started

BOARD = test_board()
NOBODY: frozenset[tuple[int, int]] = frozenset()


def test_a_slide_goes_until_the_edge_of_the_board():
    passed, entered = trace(BOARD, NOBODY, (2, 2), ["e"], False, None)
    assert passed[-1] == (2, 14) and not entered


def test_a_slide_stops_before_a_roof():
    passed, _ = trace(BOARD, NOBODY, (3, 0), ["e"], False, None)
    assert passed[-1] == (3, 2)  # (3, 3) is a roof


def test_a_slide_stops_before_another_official():
    passed, _ = trace(BOARD, frozenset({(2, 9)}), (2, 2), ["e"], False, None)
    assert passed[-1] == (2, 8)


def test_a_slide_stops_before_a_wall_on_an_edge():
    board = test_board(extra_walls=[[[2, 5], [2, 6]]])
    passed, _ = trace(board, NOBODY, (2, 2), ["e"], False, None)
    assert passed[-1] == (2, 5)


def test_an_official_cannot_stop_early_or_stand_still():
    with pytest.raises(MoveError):
        trace(BOARD, frozenset({(2, 3)}), (2, 2), ["e"], False, None)


def test_a_move_may_turn_left_or_right_again_and_again():
    passed, _ = trace(BOARD, NOBODY, (2, 2), ["e", "s", "w", "n"], False, None)
    assert passed[-1] == (
        1,
        0,
    )  # e to (2,14), s to (6,14), w to (6,0), n stops below pavilion 1's wall... (1,0)


def test_a_move_cannot_reverse_or_go_straight_on():
    with pytest.raises(MoveError):
        trace(BOARD, NOBODY, (2, 2), ["e", "w"], False, None)


def test_a_dead_end_ends_the_move():
    # (2, 12) with roofs left, right and ahead: after sliding north into it, no turn is possible
    board = test_board(blocked=[(1, 12), (2, 11), (2, 13)])
    passed, _ = trace(board, NOBODY, (6, 12), ["n"], False, None)
    assert passed[-1] == (2, 12)
    assert all(
        len(path) == 1 for end, path in destinations(board, NOBODY, (6, 12), None).items() if end == (2, 12)
    )
    with pytest.raises(MoveError):
        trace(board, NOBODY, (6, 12), ["n", "e"], False, None)


def test_start_squares_are_ordinary_squares_while_moving():
    passed, _ = trace(BOARD, NOBODY, (7, 2), ["e"], False, None)
    assert (7, 7) in passed and passed[-1] == (7, 13)  # straight through the start area


def test_the_short_move_goes_one_square_from_a_start_square():
    passed, entered = trace(BOARD, NOBODY, (7, 7), ["n"], True, None)
    assert passed == [(6, 7)] and not entered
    assert set(short_moves(BOARD, NOBODY, (4, 7), None)) == {(3, 7), (5, 7), (4, 6), (4, 8)}  # grey-yellow


def test_the_short_move_is_only_for_an_official_on_a_start_square():
    with pytest.raises(MoveError):
        trace(BOARD, NOBODY, (2, 2), ["n"], True, None)
    assert short_moves(BOARD, NOBODY, (2, 2), None) == {}


def test_sliding_toward_the_target_pavilion_enters_it():
    passed, entered = trace(BOARD, NOBODY, (5, 7), ["n"], False, (0, 7))
    assert entered and passed[-1] == (0, 7)


def test_a_pavilion_that_is_not_the_target_is_an_obstacle():
    passed, entered = trace(BOARD, NOBODY, (5, 7), ["n"], False, (0, 0))
    assert not entered and passed[-1] == (1, 7)


def test_a_pavilion_is_entered_only_through_its_door():
    passed, entered = trace(BOARD, NOBODY, (0, 3), ["e"], False, (0, 7))
    assert not entered and passed[-1] == (0, 6)


def test_a_move_ends_when_it_enters_the_target():
    with pytest.raises(MoveError):
        trace(BOARD, NOBODY, (5, 7), ["n", "e"], False, (0, 7))


def test_the_menu_lists_every_square_a_move_can_reach():
    ends = destinations(BOARD, NOBODY, (2, 2), (0, 7))
    assert (2, 14) in ends and ends[(2, 14)] == ("e",)
    assert (0, 7) not in ends or ends[(0, 7)][-1] == "n"


def _board_with_a_door_on_a_start_square() -> Board:
    """The test board with pavilion 8 moved to (7, 3): its door is the grey-yellow (7, 4)."""
    data = test_board_data()
    data["walls"] = [w for w in data["walls"] if [7, 0] not in w]
    data["walls"] += [[[7, 3], list(n)] for n in neighbours((7, 3)) if n != (7, 4)]
    data["pavilions"][7]["square"] = [7, 3]
    return Board.from_dict(data)


def test_a_short_move_enters_the_target_through_a_door_next_to_a_start_square():
    """OP 13 (never on the real board): the short move from (7, 4) goes west into pavilion 8
    when it is the target; when it is not, the pavilion is an obstacle to it."""
    board = _board_with_a_door_on_a_start_square()
    pavilion = (7, 3)
    assert short_moves(board, frozenset(), (7, 4), pavilion) == {
        (7, 3): "w",
        (6, 4): "n",
        (8, 4): "s",
        (7, 5): "e",
    }
    assert trace(board, frozenset(), (7, 4), ("w",), True, pavilion, 2) == ([pavilion], True)
    assert short_moves(board, frozenset(), (7, 4), (0, 0)) == {(6, 4): "n", (8, 4): "s", (7, 5): "e"}
    with pytest.raises(MoveError):
        trace(board, frozenset(), (7, 4), ("w",), True, (0, 0), 2)


def test_with_many_turns_no_move_ends_where_it_began():
    """Four officials around rr make a loop: east, south, west and north bring it back to its
    square; the menu does not list that as a move."""
    state = arrange(
        started(3, many_turns=True), {"rr": (6, 6), "yy": (6, 10), "bb": (10, 9), "gg": (9, 5), "kk": (5, 6)}
    )
    ends = [end for move, end in move_options(state, 0) if move.code == "rr"]
    assert ends and (6, 6) not in ends and (9, 6) in ends


@pytest.mark.parametrize("board", [test_board(), load_board()], ids=["test board", "the city"])
def test_whether_an_official_can_move_is_whether_the_menu_lists_a_move_it_may_make(board):
    """``can_start`` (asked at each turn's start) answers without listing the moves; it must
    say yes exactly when the listed slides and short moves hold one the official may make: a
    move into the target only when it may enter, any other move always."""
    rng = random.Random(3)
    pavilions = {p.square for p in board.pavilions}
    squares = [
        (r, c)
        for r in range(board.size)
        for c in range(board.size)
        if (r, c) not in board.blocked and (r, c) not in pavilions
    ]
    answers = set()
    for _ in range(40):
        occupied = frozenset(rng.sample(squares, rng.choice([4, 12, 24, 60, 120])))
        target = rng.choice([None, *sorted(pavilions)])
        for start in sorted(occupied):
            others = occupied - {start}
            ends = set(destinations(board, others, start, target, 1)) | set(
                short_moves(board, others, start, target)
            )
            for may_enter in (False, True):
                listed = any(end != target or may_enter for end in ends)
                assert can_start(board, others, start, target, may_enter) == listed, (start, target)
                answers.add(listed)
    assert answers == {False, True}


@pytest.mark.parametrize("board", [test_board(), load_board()], ids=["test board", "the city"])
def test_every_move_the_menu_lists_can_be_made_and_ends_where_it_says(board):
    """A move ends when it enters the target: the search never goes on from inside the
    pavilion, so each listed path traces to its square (and into the target only at its end)."""
    rng = random.Random(5)
    pavilions = sorted(p.square for p in board.pavilions)
    squares = [(r, c) for r in range(board.size) for c in range(board.size) if (r, c) not in board.blocked]
    squares = [s for s in squares if s not in pavilions]
    entered = 0
    for _ in range(12):
        occupied = frozenset(rng.sample(squares, 30))
        target = rng.choice(pavilions)
        for start in sorted(occupied)[:10]:
            others = occupied - {start}
            for end, path in destinations(board, others, start, target).items():
                passed, into = trace(board, others, start, path, False, target)
                assert passed[-1] == end and into == (end == target), (start, path)
                entered += into
    assert entered  # some moves entered the target


def test_a_board_never_seen_before_is_asked_whether_an_official_can_move_first():
    moves._LINKS.clear()  # nothing cached, whichever board last had this object's id
    board = Board.from_dict(test_board_data())
    assert can_start(board, frozenset(), (2, 2), None, False)


def test_a_move_ends_on_entering_the_target_even_through_a_pavilion_open_on_two_sides():
    """A board file may open a pavilion on two sides: entering it still ends the move, so no
    listed move passes through the target and out again."""
    data = test_board_data()
    data["walls"] = [w for w in data["walls"] if sorted(map(tuple, w)) != [(0, 7), (0, 8)]]
    board = Board.from_dict(data)
    ends = destinations(board, NOBODY, (5, 7), (0, 7))
    assert ends[(0, 7)] == ("n",)
    for end, path in ends.items():
        passed, into = trace(board, NOBODY, (5, 7), path, False, (0, 7))
        assert passed[-1] == end and into == (end == (0, 7))
