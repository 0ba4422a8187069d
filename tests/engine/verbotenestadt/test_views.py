"""What a view shows and hides (views.py, RULES.md "The secret dial"): a seat sees its own dial,
its own sealed answer and its own plan, nobody else's; nobody sees the order of the face-down
cards; at the end every dial is shown.  The redaction is pinned on hand-made positions of every
phase: changing another seat's dial (to any official), its sealed answer or the order of the
cards changes nothing in a view, and no other seat's dial appears in it anywhere."""

from __future__ import annotations

import json
from typing import Any

import pytest

from games.rules.verbotenestadt.commands import Believe, Dial, Doubt, Keep, Move, Plan
from games.rules.verbotenestadt.constants import OFFICIALS
from games.rules.verbotenestadt.engine import apply, setup
from games.rules.verbotenestadt.state import State, evolve
from games.rules.verbotenestadt.views import view
from tests.engine.verbotenestadt.helpers import TO_2_SQUARES, arrange, config, hands, play, rigged, started

RED_HAT, RED_COAT = ("red", "hat"), ("red", "coat")
FAR = {"yy": (9, 2), "bb": (9, 12), "gg": (12, 12), "kk": (12, 2)}


def _moving() -> State:
    return arrange(started(3, dials=["gg", "bb", "kk"]), {"rr": (5, 7), **FAR}, target=2)


def _rebribe_window() -> State:
    """North entered with rr; the window is open, north and south have answered (sealed)."""
    state = arrange(started(3, dials=["rr", "bb", "kk"]), TO_2_SQUARES, target=2)
    state, _ = play(state, (0, Move("rr", ("n",))), (0, Dial("yy")), (2, Keep()))
    assert state.phase == "dial" and state.sealed == ("yy", None, "keep")
    return state


def _challenge_window() -> State:
    """North bluffs into the target; east has doubted (sealed), south has not answered."""
    state = hands(
        arrange(started(3, dials=["gg", "bb", "kk"]), TO_2_SQUARES, target=2),
        [RED_HAT],
        [RED_COAT],
        [("red", "trousers")],
    )
    state, _ = play(state, (0, Move("rr", ("n",))), (1, Doubt()))
    assert state.phase == "challenge" and state.sealed[1] == "doubt"
    return state


def _first_window() -> State:
    state, _ = play(setup(config(3), "t"), (0, Dial("rr")), (2, Dial("gg")))
    return state


POSITIONS = {
    "first dial window": _first_window,
    "a move": _moving,
    "re-bribe window": _rebribe_window,
    "challenge window": _challenge_window,
}


def _variants(state: State, viewer: int | None) -> list[State]:
    """States that differ from ``state`` only in what ``viewer`` may not see."""
    out = [evolve(state, piles=tuple(tuple(reversed(p)) for p in state.piles))]
    for other in range(state.players):
        if other == viewer:
            continue
        for code in OFFICIALS:
            out.append(
                evolve(state, dials=tuple(code if s == other else d for s, d in enumerate(state.dials)))
            )
        for answer in ("keep", "rr", "kb", "believe", "doubt", None):
            if (state.sealed[other] is None) != (answer is None):
                continue  # whether a seat has answered is public; what it answered is not
            out.append(
                evolve(state, sealed=tuple(answer if s == other else a for s, a in enumerate(state.sealed)))
            )
    return out


def _strings(value: Any) -> list[str]:
    if isinstance(value, dict):
        return [s for k, v in value.items() for s in [str(k), *_strings(v)]]
    if isinstance(value, list | tuple):
        return [s for v in value for s in _strings(v)]
    return [str(value)]


@pytest.mark.parametrize("position", sorted(POSITIONS))
def test_no_view_changes_with_another_seats_dial_or_sealed_answer_or_the_order_of_the_cards(position):
    state = POSITIONS[position]()
    for viewer in [None, *range(state.players)]:
        seen = view(state, viewer)
        for variant in _variants(state, viewer):
            assert view(variant, viewer) == seen, viewer


@pytest.mark.parametrize("position", sorted(POSITIONS))
def test_no_view_holds_another_seats_dial_anywhere(position):
    """A dial the others hold (hidden) appears nowhere in a seat's view: not as a value, not
    in a text; the officials list names every code, so it is left out of the search."""
    state = POSITIONS[position]()
    for viewer in [None, *range(state.players)]:
        seen = view(state, viewer)
        rest = {k: v for k, v in seen.items() if k not in ("officials", "terrace", "last_move")}
        text = json.dumps(rest)
        for other, dial in enumerate(state.dials):
            if other == viewer or dial is None or dial in {c for _, c, _ in state.revealed}:
                continue
            assert f'"{dial}"' not in text, (viewer, other, dial)
            assert dial not in " ".join(_strings(rest)).split(), (viewer, other, dial)


def test_a_seat_sees_its_own_dial_and_sealed_answer_and_the_spectator_neither():
    state = _rebribe_window()
    assert view(state, 0)["dial"] == {"code": "rr"}  # the new dial counts when the window closes
    assert view(state, 0)["sealed"] == {"choice": "yy"}
    assert view(state, 2)["sealed"] == {"choice": "keep"}
    assert view(state, 1)["sealed"] == {"choice": None}
    assert view(state, 1)["window"] == {"kind": "dial", "seats": [0, 1, 2]}
    spectator = view(state, None)
    assert spectator["dial"] is None and spectator["sealed"] is None and "window" not in spectator
    assert all(p["dial"] is None for p in spectator["players"])


def test_a_doubter_sees_its_own_answer_in_the_challenge():
    state = _challenge_window()
    assert view(state, 1)["sealed"] == {"choice": "doubt"}
    assert view(state, 1)["window"] == {"kind": "challenge", "seats": [1, 2]}
    assert view(state, 2)["sealed"] == {"choice": None}
    assert view(state, 0)["sealed"] is None  # the mover is not in the window


def test_only_the_planner_sees_the_rest_of_its_plan(monkeypatch):
    """A dragon interrupts north's plan: east chooses a card while the rest of the plan waits."""
    state = arrange(started(3, dials=["gg", "bb", "kk"]), {"rr": (5, 7), **FAR}, target=3)
    state = hands(state, [RED_HAT])
    with rigged(monkeypatch, faces=["red-dragon"]):
        state, _ = apply(state, 0, Plan((Move("rr", ("e",)), Move("rr", ("w",))), stop=True))
    assert state.phase == "take"
    assert view(state, 0)["plan"] == {"moves": ["move rr w"], "stop": True}
    assert view(state, 1)["plan"] is None and view(state, None)["plan"] is None


def test_a_shown_dial_is_in_every_view_with_its_salt():
    state = arrange(started(3, dials=["rr", "bb", "kk"]), TO_2_SQUARES, target=2)
    state, _ = apply(state, 0, Move("rr", ("n",)))
    (seat, code, salt), *_ = state.revealed
    for viewer in (None, 1, 2):
        assert view(state, viewer)["revealed"] == [{"seat": seat, "code": code, "salt": salt}]
    assert (seat, code) == (0, "rr")


def test_at_the_end_every_dial_is_shown_to_everyone():
    terrace = ("ry", "rb", "rg", "rk", "yr", "yb", "yg", "yk", "br", "by", "bg", "bk", "gr", "gy")
    state = arrange(started(3, dials=["rr", "bb", "kk"]), TO_2_SQUARES, target=2, terrace=terrace)
    state, _ = apply(state, 0, Move("rr", ("n",)))
    assert state.phase == "finished"
    for viewer in (None, 0, 1, 2):
        seen = view(state, viewer)
        assert [p["dial"] for p in seen["players"]] == ["rr", "bb", "kk"]
        assert seen["active"] is None and seen["target"] is None and seen["bluffing"] is None


def test_a_view_counts_the_cards_left_in_each_pavilion_but_not_their_order():
    state = _moving()
    seen = view(state, 0)
    assert [p["cards_left"] for p in seen["pavilions"]] == [3] * 8
    assert "piles" not in seen and "seed" not in seen and "hat" not in json.dumps(seen["pavilions"])


def test_a_view_says_whether_bluffing_is_open_and_whether_entries_take_all():
    state = _moving()
    assert view(state, 0)["bluffing"] is False and view(state, 0)["take_all"] is False
    state = hands(state, [RED_HAT], [RED_COAT])
    assert view(state, 0)["bluffing"] is True
    ten = ("ry", "rb", "rg", "rk", "yr", "yb", "yg", "yk", "br", "by")
    assert view(evolve(state, terrace=ten), 0)["take_all"] is True
    assert view(evolve(state, terrace=ten[:9]), 0)["take_all"] is False


def test_the_believers_answer_is_sealed_too():
    state = _challenge_window()
    believed, _ = apply(evolve(state, sealed=(None, None, None)), 2, Believe())
    assert view(believed, 1) == view(evolve(believed, sealed=(None, None, "doubt")), 1)


def test_before_the_first_window_closes_nobody_has_a_dial_to_see():
    state = _first_window()
    assert [view(state, s)["dial"] for s in range(3)] == [None, None, None]
    assert view(state, 0)["sealed"] == {"choice": "rr"} and view(state, 1)["sealed"] == {"choice": None}
