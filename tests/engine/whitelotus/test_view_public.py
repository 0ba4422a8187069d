"""What every seat and spectator sees alike: the rebel leader, who holds each area, who is
emperor, and the chips each colour has left."""

from __future__ import annotations

from dataclasses import replace

import pytest

from games.rules.whitelotus.state import TieBreak
from games.rules.whitelotus.views import view
from tests.engine.whitelotus.helpers import area, blank, holds, tiles


@pytest.mark.parametrize("viewer", [None, 0, 1, 2])
def test_everyone_sees_the_rebel_leader_the_first_seat_too(viewer):
    s = blank(3, emperor="blue")
    assert view(s, viewer)["rebel"] is None
    assert view(replace(s, rebel=0), viewer)["rebel"] == "red"
    assert view(replace(s, rebel=2), viewer)["rebel"] == "green"


def test_everyone_sees_who_holds_each_area_and_a_neutral_tile_as_nobodys():
    s = holds(tiles(blank(3), Fuzhou="temple"), "red", Hangzhou="village")
    s = holds(s, "green", Yanan="palace")
    owners = {a["name"]: a["owner"] for a in view(s, 1)["areas"] if a["building"]}
    assert owners == {"Hangzhou": "red", "Yanan": "green", "Fuzhou": None}


def test_only_the_emperor_is_marked_emperor():
    s = blank(3, emperor="blue")
    assert [p["emperor"] for p in view(s, None)["players"]] == [False, True, False]


def test_chips_left_are_the_boxs_limit_less_those_held_and_no_more_than_the_colours_chips_left():
    s = holds(blank(3), "red", Hangzhou="village", Fuzhou="village", Yanan="palace")
    red = view(s, None)["players"][0]
    assert red["chips"] == {"village": 2, "palace": 1, "temple": 0, "fort": 0, "ricefield": 0}
    # 16 chips a colour, 3 on the board: 13 left of any kind the box still has
    assert red["chips_left"] == {"village": 13, "palace": 2, "temple": 4, "fort": 5, "ricefield": 4}


def test_once_bids_are_revealed_in_a_tie_everyone_sees_every_bid_and_who_tied():
    s = blank(3, emperor="red")
    phase = TieBreak(0, area("Hangzhou"), 0b110, (None, (2, 3), (1, 3)), 0b110)
    s = replace(s, phase=phase)
    step = view(s, None)["step"]
    assert step == {
        "area": "Hangzhou",
        "contenders": ["blue", "green"],
        "contested_after": [],
        "tied": ["blue", "green"],
        "bids": {"blue": {"against": "green", "amount": 3}, "green": {"against": "blue", "amount": 3}},
    }
    assert view(s, 0)["step"] == step
