"""Every game in the registry gives the whole contract of ``games.rules.base.GameRules``: what
the service, the mails, the pages, the admin and the leagues reach a game by."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pytest

from games.rules import registry
from games.rules.base import OPTIONAL, REQUIRED, Game

# the contract's names: what a game's package must give, and what it may
CONTRACT = (*REQUIRED, *OPTIONAL)
DATA = {
    "title",
    "VERSION",
    "editions",
    "player_counts",
    "seat_colours",
    "default_board",
    "default_first_seat",
    "OPTIONS",
    "time_controls",
    "short_windows",
    "REVEALS",
    "CHAPTERS",
    "CHANCE",
    "CHANCE_WORDS",
    "SEEDED_FIELDS",
    "SYNTAX",
    "MESSAGES",
    "PAGE_WORDS",
    "words",
    "MAIL_WORDS",
    "PICTURE",
    "FIRST_SEAT_KEY",
    "FULL_PRESS_OPTIONS",
    "OPTION_FLAGS",
    "operator_text",  # a function or None (the service's own text)
}
METHODS = [n for n in CONTRACT if n not in DATA]
CALLABLE_DATA = {"Bot"}


def _playable(name: str) -> Any:
    return registry.get(name)


def test_the_required_core_is_what_a_game_is_and_at_most_fifteen_names():
    assert len(REQUIRED) <= 15
    assert {"setup", "pending", "legal", "apply", "view", "default", "outcome", "narration"} <= set(REQUIRED)
    assert {
        "parse_command",
        "format_command_in",
        "title",
        "player_counts",
        "seat_colours",
        "text_board",
    } <= set(REQUIRED)
    assert not set(REQUIRED) & set(OPTIONAL)


def test_every_optional_name_has_its_default_on_the_game():
    for name in OPTIONAL:
        assert name in dir(Game) or name in ("VERSION", "MESSAGES"), name


@pytest.mark.parametrize("name", registry.names())
def test_every_game_gives_every_function_of_the_contract(name):
    rules = _playable(name)
    missing = [m for m in METHODS if not callable(getattr(rules, m, None))]
    assert not missing, f"{name} lacks {missing}"


@pytest.mark.parametrize("name", registry.names())
def test_every_game_gives_every_value_of_the_contract(name):
    rules = _playable(name)
    missing = [d for d in DATA if not hasattr(rules, d)]
    assert not missing, f"{name} lacks {missing}"
    assert rules.name == name
    assert isinstance(rules.title, str) and rules.title
    assert isinstance(rules.VERSION, str) and rules.VERSION
    assert rules.editions and all(isinstance(e, str) and len(e) <= 20 for e in rules.editions)
    assert rules.player_counts and all(isinstance(n, int) and n >= 1 for n in rules.player_counts)
    assert len(rules.seat_colours) >= max(rules.player_counts)
    assert all(len(c) <= 10 for c in rules.seat_colours)  # Seat.colour
    assert isinstance(rules.default_board, str)
    for table in (rules.OPTIONS, rules.time_controls, rules.short_windows, rules.SYNTAX):
        assert isinstance(table, Mapping)
    assert all(isinstance(v, bool | int | float | str) for v in rules.OPTIONS.values())  # JSON scalars
    assert all(isinstance(h, int | float) and h > 0 for h in rules.short_windows.values())
    for name_ in CALLABLE_DATA:
        assert callable(getattr(rules, name_)), name_


@pytest.mark.parametrize("name", registry.names())
def test_a_game_sets_up_from_its_own_defaults_and_keeps_its_config_as_data(name):
    rules = _playable(name)
    board = rules.load_board(rules.default_board)
    players = min(rules.player_counts)
    config = rules.make_config(board, players, rules.editions[0], dict(rules.OPTIONS), 0)
    data = rules.config_to_data(config)
    again = rules.config_from_data(data, board)
    assert rules.config_to_data(again) == data
    state = rules.setup(again, "registry")
    assert rules.state_to_dict(
        rules.state_from_dict(rules.state_to_dict(state), again)
    ) == rules.state_to_dict(state)
    decision = rules.pending(state)[0]
    command = rules.default(state, decision.seat)
    assert rules.command_from_dict(rules.command_to_dict(command)) == command


def test_an_unknown_game_is_refused_by_name():
    with pytest.raises(registry.UnknownRules) as refused:
        registry.get("chess")
    assert refused.value.name == "chess"
    assert "whitelotus" in str(refused.value)


def test_the_default_game_is_white_lotus_and_comes_first():
    assert registry.DEFAULT == "whitelotus"
    assert registry.names()[0] == registry.DEFAULT
    assert registry.get(registry.DEFAULT).title == "White Lotus"
