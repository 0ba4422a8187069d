"""The notation: every command round-trips in English, German and French."""

from __future__ import annotations

import pytest

from games.rules import registry
from games.rules.base import IllegalCommand
from games.rules.verbotenestadt import words
from games.rules.verbotenestadt.commands import (
    Believe,
    Dial,
    Doubt,
    Keep,
    Move,
    Plan,
    Spare,
    Stop,
    Take,
    command_from_dict,
    command_to_dict,
)
from games.rules.verbotenestadt.constants import OFFICIALS
from games.rules.verbotenestadt.notation import format_command, format_command_in, parse_command
from games.rules.verbotenestadt.state import evolve
from tests.engine.verbotenestadt.goldengames import replayed
from tests.engine.verbotenestadt.helpers import TO_2_SQUARES, arrange, started

COMMANDS = [
    Move("rg", ("n", "e", "s")),
    Move("kk", ("w",), short=True),
    Plan((Move("rg", ("n", "e")), Move("yb", ("s",), short=True)), stop=True),
    Plan((Move("rg", ("n",)),)),
    Stop(),
    Dial("rg"),
    Keep(),
    Believe(),
    Doubt(),
    Take("white", "trousers"),
    Spare(),
]


@pytest.mark.parametrize("language", ["en", "de", "fr"])
@pytest.mark.parametrize("command", COMMANDS, ids=lambda c: c.kind)
def test_every_command_round_trips_in_every_language(command, language):
    state = started(2)
    assert parse_command(state, format_command_in(state, command, language)) == command
    assert command_from_dict(command_to_dict(command)) == command


def test_the_plan_notation_of_the_brief():
    state = started(2)
    plan = parse_command(state, "plan rg n e; step yb s; stop")
    assert plan == Plan((Move("rg", ("n", "e")), Move("yb", ("s",), short=True)), stop=True)
    assert format_command(state, plan) == "plan rg n e; step yb s; stop"


def test_an_official_may_be_named_by_its_colours_in_any_language():
    state = started(2)
    for text in ("dial rg", "dial red/green", "besteche rot/grün", "soudoie rouge/vert", "dial red green"):
        assert parse_command(state, text) == Dial("rg")
    assert parse_command(state, "ziehe rot/gruen nord ost") == Move("rg", ("n", "e"))
    assert parse_command(state, "déplace kk ouest") == Move("kk", ("w",))


def test_the_ambiguous_o_is_refused():
    with pytest.raises(IllegalCommand, match="ost or ouest"):
        parse_command(started(2), "move rg o")


def test_a_mistyped_keyword_gets_a_suggestion():
    with pytest.raises(IllegalCommand, match="Did you mean 'move'"):
        parse_command(started(2), "mvoe rg n")


def test_the_words_are_consistent():
    assert words.keyword("Glaube") == "believe" and words.keyword("crois") == "believe"
    assert words.closest_keyword_scored("belive")[0] == "believe"
    assert "besteche" in words.keyword_hint("de")
    assert "rouge" in words.argument_hint("fr")
    assert set(words.OFFICIALS["de"]) == set(OFFICIALS)


def test_the_package_gives_the_whole_contract():
    vs = registry.get("verbotenestadt")
    names = """setup pending legal apply view default outcome serial.replay parse_command
        notation.format_command format_command_in notation.clean serial.command_to_dict
        serial.command_from_dict serial.config_to_data serial.config_from_data serial.state_to_dict
        serial.state_from_dict serial.make_config notation.describe notation.syntax
        presentation.narrate presentation.decision_text text_board serial.load_board about.Bot"""
    for name in names.split():
        found = vs
        for part in name.split("."):
            found = getattr(found, part)
        assert callable(found), name
    assert vs.player_counts == (2, 3, 4) and vs.about.editions == ("ravensburger",)
    assert vs.about.default_board == "forbidden_city" and vs.about.OPTIONS == {
        "partners": False,
        "many_turns": False,
    }
    assert vs.about.short_windows == {"rebribe": 12, "challenge": 12}
    assert vs.seat_colours == ("north", "east", "south", "west")
    assert set(vs.notation.SYNTAX) == set(words.ENGLISH_KEYWORDS)
    assert vs.notation.syntax("move", "de").startswith("ziehe <Beamter>")
    assert vs.notation.syntax("rebribe", "fr") == "garde | soudoie <fonctionnaire>"
    assert vs.notation.syntax("challenge") == "believe | doubt"


def test_a_plan_may_be_written_with_or_without_its_keyword_and_in_other_languages():
    state = started(2)
    expected = Plan((Move("rg", ("n", "e")), Move("yb", ("s",), short=True)), stop=True)
    for text in (
        "rg n e; step yb s; stop",
        "plan move rg n e; step yb s; stop",
        "plan rot/grün nord ost; schritt yb süd; halt",
        "plan rg nord est; pas yb sud; arrête",
    ):
        assert parse_command(state, text) == expected
    assert parse_command(state, "plan stop") == Plan((), stop=True)
    with pytest.raises(IllegalCommand, match="can only end a plan"):
        parse_command(state, "plan stop; rg n")
    with pytest.raises(IllegalCommand, match="Move 2 of the plan"):
        parse_command(state, "plan rg n; zz s")


def test_the_menu_and_the_decision_say_what_to_do_in_the_readers_language():
    vs = registry.get("verbotenestadt")
    state = vs.setup(
        vs.serial.make_config(vs.serial.load_board("forbidden_city"), 2, "ravensburger", {}, 0), "m"
    )
    assert vs.notation.describe(state, 0, "de")[-1].startswith("besteche einen von: rr ry")
    state, _ = vs.apply(state, 0, Dial("rr"))
    state, _ = vs.apply(state, 1, Dial("yy"))
    lines = vs.notation.describe(state, 0, "fr")
    assert any(line.startswith("déplace ") for line in lines) and lines[-1].startswith("ou un plan : plan")
    assert "Stop" not in lines  # the first move must be made
    assert "tourner une fois" in lines[-2]
    # the turn's example is a move with a turn that this seat can make now (a fixed "rr n e"
    # named an official that could not go north, or one already on the terrace)
    example = lines[-2].split(" : ", 1)[1]
    command, end = example.rsplit(" (", 1)
    move = parse_command(state, command)
    assert len(move.path) == 2 and move in vs.legal(state, 0), example
    assert (state.square_of(move.code) is not None) and end.rstrip(")") != ""
    many = vs.serial.make_config(
        vs.serial.load_board("forbidden_city"), 2, "ravensburger", {"many_turns": True}, 0
    )
    assert "after each slide" in vs.notation.describe(evolve(state, config=many), 0, "en")[-2]
    text = vs.presentation.decision_text(vs.view(state, 0), "move")
    assert text.startswith(f"move an official (target pavilion {state.target}, ")  # after "It is your move: "


@pytest.mark.parametrize("language", ["en", "de", "fr"])
def test_every_move_of_the_menu_parses_as_a_player_copies_it(language: str):
    """A menu line shows where a move ends ("move bk s (11,7)"); a player who copies one
    part of it, the square too, sends that legal move (the square was refused as a direction)."""
    vs = registry.get("verbotenestadt")
    state = vs.setup(
        vs.serial.make_config(vs.serial.load_board("forbidden_city"), 3, "ravensburger", {}, 0), "copy"
    )
    for seat, code in enumerate(("rr", "yy", "gg")):
        state, _ = vs.apply(state, seat, Dial(code))
    seat = vs.pending(state)[0].seat
    legal = vs.legal(state, seat)
    copied = 0
    for line in vs.notation.describe(state, seat, language):
        for part in line.split(" | "):
            if part.endswith(")") and "(" in part and ":" not in part:
                command = vs.parse_command(state, part)
                assert command in legal, part
                copied += 1
    assert copied > 10
    with_stop = vs.parse_command(state, "plan rr e (9,10); stop")
    assert with_stop == vs.parse_command(state, "plan rr e; stop")


def test_a_stored_plan_holds_moves_only():
    stored = {"kind": "plan", "moves": [{"kind": "move", "code": "rg", "path": ["n"]}, {"kind": "stop"}]}
    with pytest.raises(ValueError, match="a plan holds moves only"):
        command_from_dict(stored)


def test_a_stored_command_of_no_known_kind_is_refused():
    for stored in ({"kind": "bid"}, {}, {"kind": 3}):
        with pytest.raises(ValueError, match="unknown command kind"):
            command_from_dict(stored)


@pytest.mark.parametrize("command", COMMANDS, ids=lambda c: c.kind)
def test_commands_are_small_values_without_an_attribute_dict(command):
    """Thousands are held in replay and the bots' searches: slotted, like the state."""
    assert not hasattr(command, "__dict__")


VIEW = {
    "target": 5,
    "pavilions": [{"number": 4, "colour": "blue"}, {"number": 5, "colour": "red"}],
    "players": [{"seat": 0, "colour": "north"}, {"seat": 1, "colour": "east"}],
    "entry": {"seat": 1, "code": "rg"},
    "choice": {"from": 0},
}
GERMAN = {"red": "rot", "green": "grün", "east": "ost", "north": "nord"}


@pytest.mark.parametrize(
    ("kind", "said"),
    [
        ("move", "move an official (target pavilion 5, rot)"),
        ("challenge", "believe or doubt Ost, who moved rg (rot/grün) into pavilion 5"),
        ("penalty", "take a card from Nord (a won challenge)"),
        ("dial", "set a secret dial to an official still on the board"),
    ],
)
def test_a_decision_is_said_from_the_seats_view_in_the_readers_words(kind, said):
    vs = registry.get("verbotenestadt")
    assert vs.presentation.decision_text(VIEW, kind, lambda s: GERMAN.get(s, s)) == said


def test_a_decision_said_before_its_facts_are_known_leaves_them_open():
    vs = registry.get("verbotenestadt")
    assert vs.presentation.decision_text({}, "move") == "move an official (target pavilion ?, )"
    assert vs.presentation.decision_text({"entry": {"seat": 3, "code": "?"}}, "challenge") == (
        "believe or doubt , who moved ? into pavilion ?"
    )
    assert (
        vs.presentation.decision_text({**VIEW, "choice": {"from": None}}, "penalty")
        == "take a card from  (a won challenge)"
    )


def test_only_a_plan_is_told_to_the_others_in_other_words():
    vs = registry.get("verbotenestadt")
    assert vs.notation.public(Plan((Move("rg", ("n",)),))) == "plan"
    assert vs.notation.public(Move("rg", ("n",))) is None
    assert vs.notation.public(Dial("rg")) is None


@pytest.mark.parametrize(
    ("line", "said"),
    [
        ("take mauve hat", "'mauve' is not a garment colour."),
        ("take red socks", "'socks' is not a hat, coat or trousers."),
        ("move xx n", "'xx' is not an official: write hat and robe colour"),
        ("move red", "'red' is not an official: write hat and robe colour"),
        ("move rg x", "'x' is not a direction: n, e, s or w."),
        ("move rg o", "'o' is east in German and west in French: write ost or ouest."),
    ],
)
def test_a_malformed_command_is_refused_naming_the_word_that_is_wrong(line, said):
    state = started(2)
    with pytest.raises(IllegalCommand) as refused:
        parse_command(state, line)
    assert said in str(refused.value)


def test_the_argument_hint_writes_a_word_that_is_the_same_in_english_once():
    assert ", orange, " in words.argument_hint("de") and "orange = orange" not in words.argument_hint("de")
    assert "rot = red" in words.argument_hint("de")


def _menu_positions():
    """Every move decision of a golden game, and a hand-made one where a slide enters."""
    yield arrange(started(3), TO_2_SQUARES, target=2)
    yield from (s for s in replayed("3p-bots")[0] if s.phase == "move" and s.target is not None)


def test_the_menu_offers_moves_into_the_target_on_their_own_line_only():
    """A move into the target is listed on the "into the target" line, never among an
    official's slides nor as the turn example; those lines list single slides and short
    moves, and the example is a move with a turn that ends outside the target."""
    vs = registry.get("verbotenestadt")
    examples = 0
    for state in _menu_positions():
        r, c = state.board.pavilion(state.target).square
        for line in vs.notation.describe(state, state.active, "en"):
            if line.startswith("into the target:"):
                continue
            assert f"({r},{c})" not in line, line
            if line.startswith(("move ", "step ")):
                for item in line.split(" | "):
                    assert len(parse_command(state, item.rsplit(" (", 1)[0]).path) == 1, item
            if line.startswith("after the slide"):
                example = line.split(": ", 1)[1].rsplit(" (", 1)[0]
                move = parse_command(state, example)
                assert len(move.path) > 1 and move in vs.legal(state, state.active)
                examples += 1
    assert examples > 20
