"""The state as a value: stored as JSON and read back as it was (a stored game replays from
its events, but exports, the admin's hidden state and the tests read states whole)."""

from __future__ import annotations

import json

import pytest

from games.rules.verbotenestadt.commands import Move, Plan
from games.rules.verbotenestadt.engine import apply
from games.rules.verbotenestadt.state import State
from tests.engine.verbotenestadt.helpers import TO_2_SQUARES, arrange, hands, rigged, started


def _round_trip(state: State) -> State:
    return State.from_dict(json.loads(json.dumps(state.to_dict())), state.config)


def test_a_state_mid_turn_with_a_plan_reads_back_as_it_was(monkeypatch):
    state = hands(arrange(started(3), TO_2_SQUARES, target=1), [("red", "hat")])
    with rigged(monkeypatch, faces=["red-dragon"]):  # the dragon's roller chooses mid-plan
        state, _ = apply(state, 0, Plan((Move("yy", ("n",)), Move("bb", ("n",)))))
    assert state.plan and state.moves == 1
    again = _round_trip(state)
    assert again.to_dict() == state.to_dict()
    assert again.plan == state.plan and isinstance(again.squares, tuple)


def test_a_state_after_an_entry_reads_back_with_its_entry(monkeypatch):
    state = arrange(started(3), TO_2_SQUARES, target=2)
    state, _ = apply(state, 0, Move("rr", ("n",)))
    assert state.entry is not None
    again = _round_trip(state)
    assert again.entry == state.entry and again.to_dict() == state.to_dict()


def test_a_stored_state_without_a_newer_field_reads_it_as_its_default():
    data = started(3).to_dict()
    del data["moves"], data["plan"]
    state = State.from_dict(data, started(3).config)
    assert state.moves == 0 and state.plan == ()


def test_an_official_is_found_by_its_code_and_an_unknown_code_is_an_error():
    state = arrange(started(3), {"rg": (5, 7)})
    assert state.square_of("rg") == (5, 7) and state.square_of("rr") is None
    with pytest.raises(ValueError):
        state.square_of("zz")
