"""Moving an official (seed 003, "Wie wird gezogen?"): slides, turns, dead ends, short moves."""

from __future__ import annotations

import pytest

from games.rules.verbotenestadt.moves import MoveError, destinations, short_moves, trace

from .boards import test_board

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
