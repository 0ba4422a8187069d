"""The menu a seat reads under each decision (menu.describe): the words of each command and
the values it may take, in the seat's language."""

from __future__ import annotations

from pathlib import Path

from games.rules.whitelotus.commands import Army, PalaceChoice
from games.rules.whitelotus.decisions import legal, pending
from games.rules.whitelotus.engine import apply, setup
from games.rules.whitelotus.menu import describe, syntax
from games.rules.whitelotus.record import parse_record
from games.rules.whitelotus.textboard import decision_text
from games.rules.whitelotus.views import view
from tests.engine.whitelotus.helpers import begin, blank, hands, holds, markers, seat, tiles

GOLDEN = Path(__file__).parent / "golden"


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


def _decisions():
    """Every seat's menu at every decision of the golden games (both editions)."""
    from tests.engine.whitelotus.goldengames import GAMES, HERE

    for name in sorted(GAMES):
        record, _ = parse_record((HERE / f"{name}.txt").read_text())
        state = setup(record.config, record.seed)
        for seat_, command in record.moves:
            for decision in pending(state):
                yield state, decision.seat, legal(state, decision.seat)
            state, _ = apply(state, seat_, command)


def test_army_and_palace_menus_give_the_whole_range_a_seat_may_answer():
    """The army line runs from 0 to the seat's army; the palaces line counts the palaces held
    (each gives 2 influence or 1 army)."""
    seen = set()
    for state, who, menu in _decisions():
        armies = [c.amount for c in menu if isinstance(c, Army)]
        if armies:
            assert f"army <points>  from 0 to {max(armies)}" in describe(state, who), describe(state, who)
            seen.add("army")
        palaces = [c.army for c in menu if isinstance(c, PalaceChoice)]
        if palaces:
            line = describe(state, who)[0]
            if max(palaces) == 1:
                assert "(2 influence points)  or  palace army (1 army point)" in line, line
            else:
                assert f"(you hold {max(palaces)} palaces;" in line, line
            seen.add(f"palace {min(max(palaces), 2)}")
    assert seen == {"army", "palace 1", "palace 2"}, seen


def test_the_side_words_are_said_in_the_seats_language():
    assert "kaiser" in syntax("side", "de") and "rebellen" in syntax("side", "de")
    assert "empereur" in syntax("side", "fr")
    assert syntax("give", "de").endswith("einfluss|armee") and syntax("give", "fr").endswith(
        "influence|armée"
    )
