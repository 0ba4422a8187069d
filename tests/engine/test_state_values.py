"""A state and each of its phases are values: a step returns a new one and never changes the
one it was given, so a replayed or viewed state cannot move under its reader."""

from __future__ import annotations

import dataclasses

import pytest

from games.rules.whitelotus import state as state_mod
from tests.engine.helpers import blank

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
