"""The White Lotus module fulfils the rules-module contract the service relies on."""

from __future__ import annotations

import pytest

from games.rules import whitelotus
from games.rules.base import RulesModule
from games.rules.whitelotus import Command, State

# mypy checks that the module matches the protocol, function by function.
MODULE: RulesModule[State, Command] = whitelotus


def test_module_is_named_and_exposes_the_contract():
    assert MODULE.name == "whitelotus"
    for fn in (
        "setup",
        "pending",
        "legal",
        "apply",
        "view",
        "default",
        "outcome",
        "parse_command",
        "format_command",
    ):
        assert callable(getattr(MODULE, fn)), fn


def test_a_game_is_for_three_to_six_players_each_seat_a_colour_in_the_standard_order():
    """001/002 "Spielmaterial": six colours, three to six players."""
    board = whitelotus.load_board("china")
    assert whitelotus.player_counts == (3, 4, 5, 6)
    for players in whitelotus.player_counts:
        config = whitelotus.make_config(board, players, "kosmos", {}, 0)
        assert config.colours == whitelotus.COLOURS[:players]
    for players in (2, 7):
        with pytest.raises(ValueError, match="3 to 6 players"):
            whitelotus.make_config(board, players, "kosmos", {}, 0)


def test_the_first_emperor_is_the_first_seat_unless_told_and_the_board_is_china():
    assert whitelotus.About.default_first_seat == 0 and whitelotus.About.default_board == "china"
    assert whitelotus.About.FIRST_SEAT_KEY == "first_emperor"


def test_each_command_line_flag_sets_its_option_away_from_the_default():
    """A flag that set an option to its default would do nothing: ``--no-zero-card`` plays
    without the 0 card, ``--negotiation`` and ``--open-hands`` turn their variant on."""
    for flag, (option, value, _help) in whitelotus.About.OPTION_FLAGS.items():
        assert option in whitelotus.About.OPTIONS, flag
        if isinstance(value, tuple):  # a choice: the default among the values
            assert whitelotus.About.OPTIONS[option] in value, flag
        else:
            assert value != whitelotus.About.OPTIONS[option], flag
