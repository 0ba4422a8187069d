"""Every game in the registry gives the whole contract of ``games.rules.base.Rules``: what
the service, the mails, the pages, the admin and the leagues reach a game by."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pytest

from games.rules import base, registry
from games.rules.base import PARTS, REQUIRED, Rules

# each part's members, as its Protocol names them (the service's types read these)
PROTOCOLS = {
    "about": base.AboutPart,
    "serial": base.SerialPart,
    "chance": base.ChancePart,
    "notation": base.NotationPart,
    "presentation": base.PresentationPart,
}
MEMBERS = {part: sorted(n for n in vars(p) if not n.startswith("_")) for part, p in PROTOCOLS.items()}
DATA = {"title", "player_counts", "seat_colours"}
# a part's values (a property of its Protocol); operator_text is a function or None
VALUES = {
    part: {n for n in names if isinstance(vars(PROTOCOLS[part])[n], property)}
    for part, names in MEMBERS.items()
}
CALLABLE_DATA = {("about", "Bot")}


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
    assert all(callable(getattr(Rules, n)) for n in REQUIRED if n not in DATA)


def test_every_part_has_a_protocol_and_its_default_gives_every_member():
    assert set(PARTS) == set(PROTOCOLS)
    assert not set(PARTS) & set(REQUIRED)
    for part, default in PARTS.items():
        assert issubclass(default, base.Part)
        for member in MEMBERS[part]:
            assert member in dir(default), (part, member)


@pytest.mark.parametrize("name", registry.names())
def test_every_game_gives_every_function_of_the_contract(name):
    rules = _playable(name)
    missing = [n for n in REQUIRED if n not in DATA and not callable(getattr(rules, n, None))]
    for part, names in MEMBERS.items():
        missing += [
            f"{part}.{n}"
            for n in names
            if n not in VALUES[part] and not callable(getattr(getattr(rules, part), n, None))
        ]
    assert not missing, f"{name} lacks {missing}"


@pytest.mark.parametrize("name", registry.names())
def test_every_game_gives_every_value_of_the_contract(name):
    rules = _playable(name)
    missing = [d for d in DATA if not hasattr(rules, d)]
    missing += [
        f"{part}.{n}" for part, names in VALUES.items() for n in names if not hasattr(getattr(rules, part), n)
    ]
    assert not missing, f"{name} lacks {missing}"
    assert rules.name == name
    assert isinstance(rules.title, str) and rules.title
    assert isinstance(rules.about.VERSION, str) and rules.about.VERSION
    assert rules.about.editions and all(isinstance(e, str) and len(e) <= 20 for e in rules.about.editions)
    assert rules.player_counts and all(isinstance(n, int) and n >= 1 for n in rules.player_counts)
    assert len(rules.seat_colours) >= max(rules.player_counts)
    assert all(len(c) <= 10 for c in rules.seat_colours)  # Seat.colour
    assert isinstance(rules.about.default_board, str)
    for table in (
        rules.about.OPTIONS,
        rules.about.time_controls,
        rules.about.short_windows,
        rules.notation.SYNTAX,
    ):
        assert isinstance(table, Mapping)
    assert all(isinstance(v, bool | int | float | str) for v in rules.about.OPTIONS.values())  # JSON scalars
    assert all(isinstance(h, int | float) and h > 0 for h in rules.about.short_windows.values())
    for part, name_ in CALLABLE_DATA:
        assert callable(getattr(getattr(rules, part), name_)), name_


@pytest.mark.parametrize("name", registry.names())
def test_a_game_sets_up_from_its_own_defaults_and_keeps_its_config_as_data(name):
    rules = _playable(name)
    board = rules.serial.load_board(rules.about.default_board)
    players = min(rules.player_counts)
    config = rules.serial.make_config(board, players, rules.about.editions[0], dict(rules.about.OPTIONS), 0)
    data = rules.serial.config_to_data(config)
    again = rules.serial.config_from_data(data, board)
    assert rules.serial.config_to_data(again) == data
    state = rules.setup(again, "registry")
    assert rules.serial.state_to_dict(
        rules.serial.state_from_dict(rules.serial.state_to_dict(state), again)
    ) == rules.serial.state_to_dict(state)
    decision = rules.pending(state)[0]
    command = rules.default(state, decision.seat)
    assert rules.serial.command_from_dict(rules.serial.command_to_dict(command)) == command


def test_an_unknown_game_is_refused_by_name():
    with pytest.raises(registry.UnknownRules) as refused:
        registry.get("chess")
    assert refused.value.name == "chess"
    assert "whitelotus" in str(refused.value)


def test_the_default_game_is_white_lotus_and_comes_first():
    assert registry.DEFAULT == "whitelotus"
    assert registry.names()[0] == registry.DEFAULT
    assert registry.get(registry.DEFAULT).title == "White Lotus"
