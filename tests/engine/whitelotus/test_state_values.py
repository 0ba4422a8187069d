"""A state and each of its phases are values: a step returns a new one and never changes the
one it was given, so a replayed or viewed state cannot move under its reader."""

from __future__ import annotations

import dataclasses

import pytest

from games.rules.whitelotus import state as state_mod
from games.rules.whitelotus.constants import Building
from tests.engine.whitelotus.helpers import blank, holds

PHASES = [
    cls
    for cls in vars(state_mod).values()
    if isinstance(cls, type) and dataclasses.is_dataclass(cls) and hasattr(cls, "name")
]


def test_the_state_cannot_be_changed_in_place():
    s = blank(3)
    with pytest.raises(dataclasses.FrozenInstanceError):
        s.year = 5


@pytest.mark.parametrize("phase", PHASES, ids=lambda c: c.__name__)
def test_no_phase_can_be_changed_in_place(phase):
    assert phase.__dataclass_params__.frozen


def test_a_seat_with_fifteen_chips_out_and_one_marker_pending_has_no_chip_for_another_area():
    """001 "Spielmaterial": 16 chips per colour; markers already placed speak for chips."""
    s = blank(players=3)
    names = sorted(s.board.label(a) for a in s.in_play())[:15]
    s = holds(s, "red", **dict.fromkeys(names, "village"))
    red = 0
    assert s.chips_on_board(red) == 15
    assert s.can_take(red, Building.VILLAGE, pending=0)
    assert not s.can_take(red, Building.VILLAGE, pending=1)
