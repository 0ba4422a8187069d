"""The White Lotus module fulfils the rules-module contract the service relies on."""

from __future__ import annotations

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
