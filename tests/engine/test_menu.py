"""The menu a seat reads under each decision (menu.describe): the words of each command and
the values it may take, in the seat's language."""

from __future__ import annotations

from games.rules.whitelotus.menu import describe
from games.rules.whitelotus.textboard import decision_text
from games.rules.whitelotus.views import view
from tests.engine.helpers import begin, blank, hands, holds, markers, seat, tiles


def _contest(influence: dict[str, int]):
    """Blue and green contest a village in Yanan; green holds Jinan, so the year stops there."""
    s = blank(3, year=2, emperor="red")
    s = holds(tiles(s, Yanan="village"), "green", Jinan="village")
    s, _ = begin(hands(markers(s, Yanan=("blue", "green")), influence=influence), "resolution")
    return s


def test_a_run_of_three_or_more_bids_is_written_as_a_range():
    s = _contest({"blue": 5, "green": 2})
    assert describe(s, seat(s, "blue")) == ["bid <colour> <points>  with <colour>: green; <points>: 0 to 5"]
    assert describe(s, seat(s, "green")) == ["bid <colour> <points>  with <colour>: blue; <points>: 0 to 2"]
    assert describe(s, seat(s, "blue"), "de") == [
        "biete <Farbe> <Punkte>  mit <Farbe>: grün; <Punkte>: 0 bis 5"
    ]


def test_two_possible_bids_are_written_as_alternatives():
    s = _contest({"blue": 1, "green": 0})
    assert describe(s, seat(s, "blue")) == ["bid <colour> <points>  with <colour>: green; <points>: 0 or 1"]
    assert describe(s, seat(s, "green"))[0].endswith("<points>: 0")


def test_a_decision_about_a_province_names_it_and_its_number():
    s = _contest({"blue": 5, "green": 2})
    seen = view(s, None)
    assert decision_text(seen, "bid") == "make a sealed bid for Yanan (10)"
    assert decision_text(None, "bid") == "make a sealed bid"
    assert decision_text(seen, "place") == "place a control marker"
