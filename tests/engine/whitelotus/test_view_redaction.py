"""What a seat sees of the others: their hands and sealed choices never, their own always.

Hand-made states in each phase that holds a secret (sealed bids, the rebellion's sealed sides
and armies, the palaces taken as army, the drawn tile). Each seat's view, and a spectator's,
must not change when another seat's hidden information does; the fast counterpart of the
random-game property test, so that every change to the redaction fails here."""

from __future__ import annotations

import json
from dataclasses import replace
from typing import Any

import pytest

from games.rules.whitelotus.constants import Building
from games.rules.whitelotus.state import Bidding, NewAreas, PalaceChoices, Rebellion, State
from games.rules.whitelotus.views import view
from tests.engine.whitelotus.helpers import area, blank, hands
from tests.engine.whitelotus.randomgames import hide_changes

RED, BLUE, GREEN = 0, 1, 2


def table(edition: str = "kosmos", **options: Any) -> State:
    """Three seats with different hands; red is the emperor."""
    s = blank(3, edition=edition, **options)
    return hands(s, influence={"red": 5, "blue": 6, "green": 7}, army={"red": 1, "blue": 2, "green": 3})


def bidding(s: State) -> State:
    """Red bid 3 against blue, blue bid 2 against red, green has not bid yet."""
    return replace(s, phase=Bidding(0, area("Hangzhou"), 0b111, ((BLUE, 3), (RED, 2), None)))


def sides(s: State) -> State:
    """Blue leads a rebellion; green has sealed the rebels' side (kosmos: sides first)."""
    return replace(s, phase=Rebellion(leader=BLUE, stage="sides", sides=(0, 1, 1), army=(-1, -1, -1)))


def armies(s: State) -> State:
    """Sides revealed; red committed 1, blue 2, green not yet."""
    return replace(s, phase=Rebellion(leader=BLUE, stage="army", sides=(0, 1, 0), army=(1, 2, -1)))


def both(s: State) -> State:
    """The designer's rebellion: side and army sealed at once; green sealed the emperor's side
    with 3."""
    return replace(s, phase=Rebellion(leader=BLUE, stage="both", sides=(0, 1, 0), army=(-1, 2, 3)))


def palaces(s: State) -> State:
    """Red takes 1 palace as army, green 0, blue has not chosen."""
    return replace(s, phase=PalaceChoices(choices=(1, -1, 0)))


def drawn(s: State) -> State:
    """Blue has drawn a temple and places it; green draws next."""
    return replace(s, phase=NewAreas(queue=(BLUE, GREEN), drawn=int(Building.TEMPLE)))


SECRETS = {
    "bidding": bidding(table()),
    "sides": sides(table()),
    "armies": armies(table()),
    "both": both(table("designer")),
    "palaces": palaces(table()),
    "drawn": drawn(table()),
    "between steps": table(),
}


@pytest.mark.parametrize("state", SECRETS.values(), ids=SECRETS.keys())
def test_no_seat_or_spectator_sees_any_change_to_another_seats_secrets(state):
    for a in (None, RED, BLUE, GREEN):
        seen = view(state, a)
        for b in (RED, BLUE, GREEN):
            if b == a:
                continue
            changed = hide_changes(state, b)
            assert len(changed) >= 1
            for other in changed:
                assert view(other, a) == seen, (a, b)


@pytest.mark.parametrize("state", SECRETS.values(), ids=SECRETS.keys())
def test_a_spectator_sees_no_hand_no_sealed_choice_and_no_drawn_tile(state):
    seen = view(state, None)
    assert not {"you", "hand", "sealed", "drawn"} & seen.keys()
    assert all("hand" not in player for player in seen["players"])
    assert '"influence":' not in json.dumps(seen)


def test_a_seat_sees_its_own_hand():
    s = table()
    assert view(s, GREEN)["you"] == "green"
    assert view(s, GREEN)["hand"] == {"influence": 7, "army": 3, "zero_card": True}
    assert view(s, BLUE)["hand"] == {"influence": 6, "army": 2, "zero_card": True}
    assert all("hand" not in player for player in view(s, GREEN)["players"])


def test_a_seat_sees_its_own_sealed_bid_and_the_others_see_only_who_has_bid():
    s = bidding(table())
    assert view(s, RED)["sealed"] == {"bid": {"against": "blue", "amount": 3}}
    assert view(s, BLUE)["sealed"] == {"bid": {"against": "red", "amount": 2}}
    assert view(s, GREEN)["sealed"] is None
    assert view(s, GREEN)["step"]["sealed_by"] == ["red", "blue"]


def test_a_seat_sees_its_own_sealed_side_but_not_the_emperors_or_leaders_known_ones():
    s = sides(table())
    assert view(s, GREEN)["sealed"] == {"side": "rebels"}
    assert view(s, RED)["sealed"] is None  # the emperor's side is no secret
    assert view(s, BLUE)["sealed"] is None  # nor the leader's
    assert view(s, None)["step"] == {
        "leader": "blue",
        "stage": "sides",
        "sealed_by": ["red", "blue", "green"],
    }
    undecided = replace(s, phase=replace(s.phase, sides=(0, 1, -1)))
    assert view(undecided, GREEN)["sealed"] is None
    assert view(undecided, None)["step"]["sealed_by"] == ["red", "blue"]


def test_once_sides_are_revealed_each_sees_only_its_own_army():
    s = armies(table())
    assert view(s, RED)["sealed"] == {"army": 1}
    assert view(s, BLUE)["sealed"] == {"army": 2}
    assert view(s, GREEN)["sealed"] == {"side": "emperor"}  # public by now, as the step says
    step = view(s, None)["step"]
    assert step["sides"] == {"red": "emperor", "blue": "rebels", "green": "emperor"}
    assert step["sealed_by"] == ["red", "blue"]


def test_in_the_designers_rebellion_a_seat_sees_its_own_side_and_army_sealed_together():
    s = both(table("designer"))
    assert view(s, GREEN)["sealed"] == {"side": "emperor", "army": 3}
    assert view(s, BLUE)["sealed"] == {"army": 2}
    assert view(s, None)["step"]["sealed_by"] == ["blue", "green"]  # red has not committed its army


def test_a_seat_sees_how_many_palaces_it_took_as_army_and_the_others_only_who_chose():
    s = palaces(table())
    assert view(s, RED)["sealed"] == {"palaces_as_army": 1}
    assert view(s, GREEN)["sealed"] == {"palaces_as_army": 0}
    assert view(s, BLUE)["sealed"] is None
    assert view(s, None)["step"] == {"chosen_by": ["red", "green"]}


def test_only_the_drawing_seat_sees_the_tile_it_drew():
    s = drawn(table())
    assert view(s, BLUE)["drawn"] == "temple"
    assert "drawn" not in view(s, RED) and "drawn" not in view(s, GREEN)
    assert view(s, None)["step"] == {"drawing": "blue"}


def test_open_hands_shows_every_hand_to_everyone_but_no_sealed_bid():
    s = bidding(table(open_hands=True))
    seen = view(s, GREEN)
    assert [p["hand"]["influence"] for p in seen["players"]] == [5, 6, 7]
    assert seen["sealed"] is None
    assert "amount" not in json.dumps(view(s, None))
