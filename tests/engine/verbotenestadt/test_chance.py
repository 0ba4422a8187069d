"""Chance written down for Die Verbotene Stadt (games/rules/verbotenestadt/COMMANDS.md "Chance written
down"): each
outcome a record may give instead of a seed read from its words in English, German and French,
written back in each, and each malformed line refused with what is wrong and what to write."""

from __future__ import annotations

import pytest

from games.rules.base import IllegalCommand
from games.rules.chance import Chance
from games.rules.verbotenestadt.chancetext import drawn, format_chance_in, parse_chance
from games.rules.verbotenestadt.constants import OFFICIALS
from tests.engine.verbotenestadt.helpers import started

STATE = started(players=3)

OUTCOMES = [
    Chance("officials", tuple(reversed(OFFICIALS))),
    Chance("pile", ("red", "hat", "coat", "trousers")),
    Chance("pile", ("blue", "trousers", "trousers", "hat")),
    Chance("first", (2,)),
    Chance("roll", ("small", "black")),
    Chance("roll", ("middle", "red-pavilion")),
    Chance("roll", ("large", "red-dragon")),
    Chance("pavilion", (1,)),
    Chance("pavilion", (8,)),
]


@pytest.mark.parametrize("outcome", OUTCOMES, ids=lambda o: f"{o.kind} {o.value[0]}")
@pytest.mark.parametrize("language", ["en", "de", "fr"])
def test_each_outcome_reads_back_as_it_is_written_in_each_language(outcome, language):
    line = format_chance_in(STATE, outcome, language)
    assert parse_chance(STATE, line) == outcome


@pytest.mark.parametrize(
    ("line", "outcome"),
    [
        ("first south", Chance("first", (2,))),
        ("erster süd", Chance("first", (2,))),
        ("premier sud", Chance("first", (2,))),
        ("roll large red-dragon", Chance("roll", ("large", "red-dragon"))),
        ("wurf groß rot-drache", Chance("roll", ("large", "red-dragon"))),
        ("Wuerfle gross ROT-DRACHE", Chance("roll", ("large", "red-dragon"))),
        ("lancer grand rouge-dragon", Chance("roll", ("large", "red-dragon"))),
        ("pavillon 5", Chance("pavilion", (5,))),
        ("cible 5", Chance("pavilion", (5,))),
        ("stapel rot hut mantel hose", Chance("pile", ("red", "hat", "coat", "trousers"))),
    ],
)
def test_outcomes_are_read_in_any_language_and_case(line, outcome):
    assert parse_chance(STATE, line) == outcome


def test_the_officials_are_read_by_code_in_any_case():
    codes = " ".join(code.upper() for code in OFFICIALS)
    assert parse_chance(STATE, f"officials {codes}") == Chance("officials", OFFICIALS)


def test_an_outcome_is_written_in_the_readers_words():
    assert format_chance_in(STATE, Chance("first", (1,)), "de") == "erster ost"
    assert format_chance_in(STATE, Chance("roll", ("large", "red-dragon")), "en") == "roll large red-dragon"
    assert format_chance_in(STATE, Chance("pavilion", (5,)), "fr") == "pavillon-cible 5"
    assert format_chance_in(STATE, Chance("officials", OFFICIALS), "en") == "officials " + " ".join(OFFICIALS)


def _refusal(line: str) -> str:
    with pytest.raises(IllegalCommand) as refused:
        parse_chance(STATE, line)
    return str(refused.value)


@pytest.mark.parametrize(
    ("line", "said"),
    [
        ("officials " + " ".join(OFFICIALS[:-1]), "Name the 25 officials by code (rg: red hat, green robe)."),
        (
            "officials " + " ".join([*OFFICIALS[:-1], "zz"]),
            "Name the 25 officials by code (rg: red hat, green robe); 'zz' is not one.",
        ),
        ("officials " + " ".join([*OFFICIALS, "rr"]), "Name the 25 officials by code"),
        ("pile", "Name a pavilion's colour and its three pieces, top first."),
        ("pile mauve hat coat trousers", "Name a pavilion's colour and its three pieces"),
        ("pile red hat coat", "Name a pavilion's colour and its three pieces"),
        ("pile red hat coat trousers hat", "Name a pavilion's colour and its three pieces"),
        ("pile red hat coat socks", "The pieces are hat, coat and trousers."),
        ("first", "Name one seat of this game (north, east, south)."),
        ("first north east", "Name one seat of this game"),
        ("first west", "Name one seat of this game (north, east, south)."),
        ("roll large", "Name the die (small, middle, large) and its face"),
        ("roll huge red", "Name the die (small, middle, large) and its face"),
        ("roll large purple", "Name the die (small, middle, large) and its face"),
        ("roll large red black", "Name the die (small, middle, large) and its face"),
        ("pavilion", "Name the pavilion the blue die shows: 1 to 8."),
        ("pavilion 0", "Name the pavilion the blue die shows: 1 to 8."),
        ("pavilion 9", "Name the pavilion the blue die shows: 1 to 8."),
        ("pavilion five", "Name the pavilion the blue die shows: 1 to 8."),
        ("pavilion 5 6", "Name the pavilion the blue die shows: 1 to 8."),
    ],
)
def test_a_malformed_outcome_is_refused_with_what_is_wrong_and_what_to_write(line, said):
    refusal = _refusal(line)
    assert refusal.startswith(said), refusal
    kind = line.split()[0]
    assert "Write: chance: " + kind in refusal


def test_a_stray_code_among_the_officials_is_named_short():
    refusal = _refusal("officials " + " ".join([*OFFICIALS[:-1], "x" * 40]))
    assert f"'{'x' * 20}' is not one." in refusal


def test_a_pavilion_at_either_end_of_the_blue_die_is_read():
    assert parse_chance(STATE, "pavilion 1") == Chance("pavilion", (1,))
    assert parse_chance(STATE, "pavilion 8") == Chance("pavilion", (8,))


def test_an_unknown_outcome_is_refused_by_name_with_the_games_outcomes():
    refusal = _refusal("draw village")
    assert "'draw' is not an outcome of chance in this game" in refusal
    assert "pavilion <1-8>" in refusal and "first <seat>" in refusal


def test_writing_an_outcome_the_game_does_not_have_is_an_error():
    with pytest.raises(ValueError, match="no outcome of chance 'fill'"):
        format_chance_in(STATE, Chance("fill", ("x",)), "en")


def test_the_outcomes_drawn_on_the_way_are_the_states_own():
    assert drawn(STATE) == STATE.drawn
    assert {o.kind for o in drawn(STATE)} >= {"officials", "pile"}
