"""The golden games of Die Verbotene Stadt as the tests read them: where they are kept, each
replayed state by state, and the project's catalogues as a translator (no Django)."""

from __future__ import annotations

import gettext
from collections.abc import Callable
from functools import cache
from pathlib import Path
from typing import Any

from games.rules import registry
from games.rules.entry import parse_record
from games.rules.verbotenestadt.state import State
from tests.catalogues import translator

VS = registry.get("verbotenestadt")
HERE = Path(__file__).parent / "golden"


@cache
def catalogue(language: str) -> gettext.NullTranslations:
    return translator(language)


def translate(language: str) -> Callable[[str], str]:
    return catalogue(language).gettext


def boards(rules: str, name: str) -> Any:
    return registry.get(rules).serial.load_board(name)


@cache
def _replay(name: str) -> tuple[tuple[State, ...], tuple[tuple[Any, ...], ...]]:
    record, _ = parse_record((HERE / f"{name}.txt").read_text(), boards)
    state = VS.setup(record.config(), record.seed)
    states, logs = [state], []
    for seat, command in record.moves:
        state, log = VS.apply(state, seat, command)
        states.append(state)
        logs.append(tuple(log))
    return tuple(states), tuple(logs)


def replayed(name: str) -> tuple[list[State], list[list[Any]]]:
    """Every state of the golden game's record, from the setup on, and each step's log."""
    states, logs = _replay(name)
    return list(states), [list(log) for log in logs]
