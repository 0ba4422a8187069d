"""The text notation (notation.py), error messages with the menu (engine.apply) and game records
(record.py).

The seeds say nothing of a mail notation; the tests cite the module docstrings that define it.
Seeds: 001 = German Kosmos rules, 002 = designer rules (line numbers).
"""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from games.rules import registry
from games.rules.base import IllegalCommand
from games.rules.whitelotus import apply, legal, parse_command, pending
from games.rules.whitelotus.commands import (
    COMMAND_TYPES,
    Army,
    Bid,
    Command,
    Decline,
    Draw,
    First,
    Give,
    Lead,
    Out,
    PalaceChoice,
    Pass,
    Place,
    Resolve,
    Side,
    Take,
    Tile,
    command_from_dict,
)
from games.rules.whitelotus.engine import replay
from games.rules.whitelotus.menu import describe
from games.rules.whitelotus.notation import format_command
from games.rules.whitelotus.record import Record, format_record, parse_record
from games.rules.whitelotus.state import Config, Finished, State
from tests.engine.whitelotus.helpers import (
    area,
    begin,
    blank,
    config,
    holds,
    markers,
    new_game,
    play,
    seat,
    tiles,
)

ALL_COMMANDS: list[Command] = [
    Place(area("Ningxia")),
    Pass(),
    Resolve(area("Hangzhou")),
    Bid(1, 0),
    Bid(2, 7),
    Out(2),
    Lead(),
    Decline(),
    Side(rebels=True),
    Side(rebels=False),
    Army(0),
    Army(4),
    Take(area("Fuzhou")),
    First(1),
    PalaceChoice(0),
    PalaceChoice(1),
    PalaceChoice(3),
    Tile(area("Shazhou")),
    Draw(),
    Give(1, 3, army=False),
    Give(2, 1, army=True),
]


# --- notation -----------------------------------------------------------------------------


def test_every_command_type_is_covered_by_the_round_trip_list():
    """notation.py: format_command / parse_command cover every command type."""
    assert {c.kind for c in ALL_COMMANDS} == set(COMMAND_TYPES)


@pytest.mark.parametrize("command", ALL_COMMANDS, ids=lambda c: format_command(new_game(3), c))
def test_every_command_round_trips(command):
    """notation.py: parse_command(state, format_command(state, c)) == c."""
    s = new_game(3)
    assert parse_command(s, format_command(s, command)) == command


@pytest.mark.parametrize("command", ALL_COMMANDS, ids=lambda c: format_command(new_game(3), c))
def test_a_command_is_a_value_that_cannot_be_changed_once_parsed(command):
    """A command is compared, hashed (menus are deduplicated) and stored as it was read."""
    assert hash(command) == hash(replace(command))
    assert len({command, replace(command)}) == 1
    for field in type(command).__dataclass_fields__:
        # frozen with slots: CPython 3.11 refuses with a TypeError instead of FrozenInstanceError
        with pytest.raises((AttributeError, TypeError)):
            setattr(command, field, getattr(command, field))


def test_round_trip_holds_for_every_legal_move_of_a_game():
    """notation.py: the canonical line parses back to the same command, in every phase."""
    for edition in ("kosmos", "designer"):
        s = new_game(4, edition, seed="round")
        rnd = random.Random(1)
        while (decisions := pending(s)) and s.year < 20:
            who = decisions[0].seat
            menu = legal(s, who)
            for c in menu:
                assert parse_command(s, format_command(s, c), who) == c
            s, _ = apply(s, who, rnd.choice(menu))


def test_canonical_lines():
    """notation.py (SYNTAX): the canonical spelling of each command."""
    s = new_game(3)
    assert [format_command(s, c) for c in ALL_COMMANDS[:12]] == [
        "place Ningxia",
        "pass",
        "resolve Hangzhou",
        "bid blue 0",
        "bid green 7",
        "out green",
        "lead",
        "decline",
        "side rebels",
        "side emperor",
        "army 0",
        "army 4",
    ]
    assert format_command(s, PalaceChoice(0)) == "palace influence"
    assert format_command(s, PalaceChoice(2)) == "palace 2 army"
    assert format_command(s, Give(1, 3, army=False)) == "give blue 3 influence"


def test_notation_is_case_insensitive():
    """notation.py: case-insensitive keywords, provinces, colours and words."""
    s = new_game(3)
    assert parse_command(s, "PLACE ningXIA") == Place(area("Ningxia"))
    assert parse_command(s, "Bid BLUE 3") == Bid(1, 3)
    assert parse_command(s, "Side Rebels") == Side(rebels=True)
    assert parse_command(s, "SIDE EMPEROR") == Side(rebels=False)
    assert parse_command(s, "Palace Influence") == PalaceChoice(0)
    assert parse_command(s, "GIVE Green 2 ARMY") == Give(2, 2, army=True)
    assert parse_command(s, "  Decline  ") == Decline()


def test_province_by_name_or_number():
    """notation.py: provinces by name or number (the number printed on the board)."""
    s = new_game(3)
    assert parse_command(s, "place 4") == parse_command(s, "place Ningxia") == Place(area("Ningxia"))
    assert parse_command(s, "take 39") == Take(area("Fuzhou"))
    assert parse_command(s, "tile 1") == Tile(area("Shazhou"))


def test_province_name_ignores_punctuation_and_accents():
    """board.py fold(): case, accents and punctuation are ignored in names."""
    s = new_game(3)
    assert parse_command(s, "resolve Chang'an") == Resolve(area("Changan"))
    assert parse_command(s, "resolve Hángzhōu") == Resolve(area("Hangzhou"))


def test_designer_bid_may_name_both_cards():
    """notation.py; 002 l.87-88: two influence cards: 'bid red 3 2' is a bid of 5."""
    s = new_game(3, "designer")
    assert parse_command(s, "bid red 3 2") == Bid(0, 5) == parse_command(s, "bid red 5")
    assert parse_command(s, "bid blue 0 1") == Bid(1, 1)


def test_palace_army_and_palace_n_influence_depend_on_the_writers_palaces():
    """notation.py: 'palace army' means every palace held; 'palace <n> influence' the others army."""
    s = blank(3, edition="designer")
    s = holds(s, "red", Ningxia="palace", Dadu="palace")
    assert parse_command(s, "palace army", 0) == PalaceChoice(2)
    assert parse_command(s, "palace 1 influence", 0) == PalaceChoice(1)
    assert parse_command(s, "palace 2 influence", 0) == PalaceChoice(0)
    assert parse_command(s, "palace 1 army", 0) == PalaceChoice(1)
    with pytest.raises(IllegalCommand, match="palace influence"):
        parse_command(s, "palace army")  # whose palaces?
    # the rules the service holds (registry.get) tell the game who writes, as the package does
    assert registry.get("whitelotus").parse_command(s, "palace army", 0) == PalaceChoice(2)


def test_unknown_keyword_suggests_the_closest():
    """notation.py: an unknown keyword names the closest command."""
    s = new_game(3)
    with pytest.raises(IllegalCommand, match="Did you mean 'place'\\?"):
        parse_command(s, "plase Ningxia")
    with pytest.raises(IllegalCommand, match="Did you mean 'decline'\\?"):
        parse_command(s, "declin")


def test_unknown_province_suggests_close_names():
    """notation.py: an unknown province names close ones, with their numbers."""
    s = new_game(3)
    with pytest.raises(IllegalCommand, match=r"There is no province 'Ningxi'\. Did you mean Ningxia \(4\)"):
        parse_command(s, "place Ningxi")
    with pytest.raises(IllegalCommand, match="Write: tile <province>"):
        parse_command(s, "tile Fuzou")


def test_wrong_colour_lists_the_games_colours():
    """notation.py: colours by name, of this game only."""
    s = new_game(3)
    with pytest.raises(
        IllegalCommand,
        match=r"'purple' is not a colour in this game \(colours: red, blue, "
        r"green\)",
    ):
        parse_command(s, "bid purple 3")
    with pytest.raises(IllegalCommand, match="colours: red, blue, green"):
        parse_command(s, "out pink")


@pytest.mark.parametrize(
    "text",
    [
        "",
        "place",
        "bid red",
        "army x",
        "side left",
        "pass now",
        "give red 1 gold",
        "place 99",
        "army -1",
        "army ²",
        "bid red ³",
        "place ²",
    ],
)
def test_malformed_lines_raise_illegal_command(text):
    """notation.py: parse_command raises IllegalCommand explaining the syntax."""
    with pytest.raises(IllegalCommand):
        parse_command(new_game(3), text)


# --- every refusal ends with the menu -----------------------------------------------------


def _assert_menu_at_end(s: State, who: int, command: Command) -> None:
    with pytest.raises(IllegalCommand) as caught:
        apply(s, who, command)
    menu = describe(s, who)
    assert menu
    text = str(caught.value)
    assert text.endswith("\nWhat you can do now:\n" + "\n".join(f"  {line}" for line in menu))
    assert caught.value.legal == tuple(menu)


def _wrong_kind(s: State) -> Command:
    return Place(area("Ningxia")) if s.phase.name != "placement" else Lead()


def test_refusals_in_every_phase_end_with_the_menu():
    """engine.py: every IllegalCommand leaving apply ends with 'What you can do now:' and the menu."""
    seen = set()
    for edition, players in (("kosmos", 3), ("designer", 4), ("kosmos", 6)):
        s = new_game(players, edition, seed="menu")
        rnd = random.Random(3)
        while (decisions := pending(s)) and s.year < 20:
            who = decisions[0].seat
            seen.add(s.phase.name)
            _assert_menu_at_end(s, who, _wrong_kind(s))
            _assert_menu_at_end(s, who, Army(999))
            s, _ = apply(s, who, rnd.choice(legal(s, who)))
    assert seen >= {
        "placement",
        "choose_contest",
        "bidding",
        "rebellion",
        "spoils",
        "palace_choice",
        "new_areas",
    }


def test_refusals_of_a_wrong_area_or_amount_end_with_the_menu():
    """engine.py: the menu also follows refusals of the right kind of command."""
    s = new_game(3)
    _assert_menu_at_end(s, 0, Place(area("Hangzhou")))  # no tile there in year 1
    s = blank(3, emperor="red")
    s = tiles(s, Jinan="village")
    s = markers(s, Jinan=("red", "blue"))
    s, _ = begin(s, "resolution")
    _assert_menu_at_end(s, 0, Bid(1, 99))
    _assert_menu_at_end(s, 0, Bid(0, 1))  # not against himself
    s, _ = play(s, "red", "bid blue 2")
    s, _ = play(s, "blue", "bid red 2")
    assert s.phase.name == "tie_break"
    _assert_menu_at_end(s, 0, Out(2))


def test_kosmos_rebellion_offer_refusal_ends_with_the_menu():
    """engine.py; 001 l.268-276: the one asked may lead or decline, and is told so."""
    s = blank(3, emperor="red")
    s = holds(s, "blue", Jinan="village")
    s, _ = begin(s, "rebellion")
    assert s.phase.name == "rebellion_offer"
    _assert_menu_at_end(s, 1, Pass())


def test_refusal_to_a_seat_with_nothing_to_do_names_who_is_awaited():
    """engine.py: a seat with no decision is told whose decision it is."""
    s = new_game(3)
    with pytest.raises(IllegalCommand, match="waiting for Red"):
        apply(s, 1, Place(area("Ningxia")))


# --- game records -------------------------------------------------------------------------


def _random_game(cfg: Config, seed: str, pick: int) -> tuple[State, tuple[tuple[int, Command], ...]]:
    s = replay(cfg, seed, ())
    rnd = random.Random(pick)
    moves = []
    while (decisions := pending(s)) and s.year < 20:
        who = decisions[0].seat
        command = rnd.choice(legal(s, who))
        s, _ = apply(s, who, command)
        moves.append((who, command))
    assert isinstance(s.phase, Finished)
    return s, tuple(moves)


@pytest.mark.parametrize(("players", "edition"), [(3, "kosmos"), (5, "designer"), (6, "kosmos")])
def test_record_round_trip_replays_to_the_same_final_state(players, edition):
    """record.py: a game record (header + one 'colour: command' line per move) replays the game."""
    cfg = config(players, edition)
    final, moves = _random_game(cfg, "rec-7", pick=players)
    record = Record(cfg, "rec-7", moves)
    text = format_record(record)
    parsed, state = parse_record(text)
    assert parsed == record
    assert state.to_json() == final.to_json()
    assert format_record(parsed) == text


def test_record_keeps_options_lot_emperor_and_extra_header_lines():
    """record.py: unknown header keys are kept; options and 'first_emperor: lot' round-trip."""
    cfg = replace(config(4, "designer", zero_card=False, negotiation=True), first_emperor=None)
    final, moves = _random_game(cfg, "lot", pick=2)
    record = Record(cfg, "lot", moves, extra={"players": "ann bob cyd dee", "started": "2024-05-01"})
    text = format_record(record)
    assert "first_emperor: lot\n" in text
    assert "options: zero_card=no negotiation=yes" in text
    parsed, state = parse_record(text)
    assert parsed == record
    assert state.to_json() == final.to_json()


def _record_text() -> tuple[str, list[str]]:
    cfg = config(3, "kosmos")
    _, moves = _random_game(cfg, "lines", pick=5)
    text = format_record(Record(cfg, "lines", moves))
    return text, text.splitlines()


def test_record_with_an_illegal_line_names_the_line():
    """record.py: an illegal line raises IllegalCommand naming the line."""
    _, lines = _record_text()
    number = lines.index("") + 4  # 1-based: the third move, green's
    assert lines[number - 1].startswith("green: place ")
    lines[number - 1] = "green: place Hangzhou"  # no tile there in year 1
    with pytest.raises(IllegalCommand) as caught:
        parse_record("\n".join(lines) + "\n")
    assert str(caught.value).startswith(
        f"line {number} (green: place Hangzhou): You cannot place in Hangzhou"
    )


def test_record_line_played_out_of_turn_names_the_line():
    """record.py: a move by the wrong colour is refused with its line number."""
    _, lines = _record_text()
    number = lines.index("") + 2  # the first move is red's (red is the first emperor)
    assert lines[number - 1].startswith("red: ")
    lines[number - 1] = "blue: place Ningxia"
    with pytest.raises(IllegalCommand, match=f"^line {number} \\(blue: place Ningxia\\): "):
        parse_record("\n".join(lines) + "\n")


def test_record_with_an_unknown_colour_or_keyword_names_the_line():
    """record.py: lines that do not parse are refused with their line number."""
    _, lines = _record_text()
    number = lines.index("") + 2
    for bad, pattern in (
        ("purple: pass", f"^line {number}: 'purple'"),
        ("red: plase Ningxia", f"^line {number} \\(red: plase Ningxia\\): .*'place'"),
    ):
        broken = list(lines)
        broken[number - 1] = bad
        with pytest.raises(IllegalCommand, match=pattern):
            parse_record("\n".join(broken) + "\n")


def test_record_moves_use_the_notation():
    """record.py: each move line is 'colour: <canonical command>'."""
    _, lines = _record_text()
    s = new_game(3, seed="lines")
    first = lines[lines.index("") + 1]
    colour, _, command = first.partition(": ")
    assert colour == "red"
    assert format_command(s, parse_command(s, command, seat(s, colour))) == command


HEADER_ERRORS = {
    "no seed": "edition: kosmos\nboard: china\ncolours: red blue green\n",
    "unknown board": "edition: kosmos\nboard: atlantis\ncolours: red blue green\nseed: 1\n",
    "unknown emperor": "edition: kosmos\ncolours: red blue green\nfirst_emperor: pink\nseed: 1\n",
    "unknown option": "edition: kosmos\ncolours: red blue green\noptions: dice=yes\nseed: 1\n",
    "unknown edition": "edition: classic\ncolours: red blue green\nseed: 1\n",
    "two players": "edition: kosmos\ncolours: red blue\nseed: 1\n",
}


@pytest.mark.parametrize("case", sorted(HEADER_ERRORS))
def test_record_with_a_bad_header_is_refused_as_illegal(case):
    """record.py: a record that cannot be read raises IllegalCommand ('bad record header')."""
    text = "# White Lotus game record\n" + HEADER_ERRORS[case] + "\nred: place Ningxia\n"
    with pytest.raises(IllegalCommand):
        parse_record(text)


def test_a_stored_command_of_no_kind_or_missing_a_field_is_refused_as_no_command():
    for stored in ({"type": "bribe"}, {"type": "bid", "target": 1}, {}):
        with pytest.raises(ValueError, match="not a White Lotus command"):
            command_from_dict(stored)


def test_an_unknown_keyword_is_quoted_as_written_first():
    s = new_game(3)
    with pytest.raises(IllegalCommand, match="'frobnicate'"):
        parse_command(s, "frobnicate blue 3")


def test_more_palaces_written_than_held_are_refused_with_the_number_held():
    s = blank(3, edition="designer")
    s = holds(s, "red", Ningxia="palace")
    with pytest.raises(IllegalCommand, match="You hold 1 palace\\."):
        parse_command(s, "palace 2 influence", 0)
    s = holds(s, "red", Dadu="palace")
    with pytest.raises(IllegalCommand, match="You hold 2 palaces\\."):
        parse_command(s, "palace 3 influence", 0)
