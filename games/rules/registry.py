"""The games this service hosts, by the name a game keeps in ``Game.rules``.

The only place that knows which rules packages exist; everything outside ``games/rules/``
reaches a game through :func:`get` (an import-linter contract in pyproject.toml forbids
importing a game's package by name)::

    from games.rules import registry
    rules = registry.get(game.rules)
    state = rules.setup(config, seed)
"""

from __future__ import annotations

import importlib
import importlib.util
from functools import cache
from pathlib import Path
from typing import cast

from .base import GameRules

PACKAGES = {
    "whitelotus": "games.rules.whitelotus",
    "verbotenestadt": "games.rules.verbotenestadt",
}
DEFAULT = "whitelotus"


class UnknownRules(LookupError):
    """A name no game of this service has."""

    def __init__(self, name: str) -> None:
        super().__init__(f"no game called {name!r}; the games are {', '.join(PACKAGES)}")
        self.name = name


def template_dirs() -> list[Path]:
    """Each game's own templates (``<package>/templates/``: its page and mail partials, by the
    service's names for them, ``games/<name>/_state.html`` …), found without importing the
    game (the settings' template directories)."""
    found = []
    for package in PACKAGES.values():
        spec = importlib.util.find_spec(package)
        for where in (spec.submodule_search_locations or []) if spec else []:
            if (Path(where) / "templates").is_dir():
                found.append(Path(where) / "templates")
    return found


def names() -> tuple[str, ...]:
    """Every game's name, the default first."""
    return tuple(PACKAGES)


@cache
def get(name: str) -> GameRules:
    """The rules package of the game called ``name``."""
    try:
        package = PACKAGES[name]
    except KeyError:
        raise UnknownRules(name) from None
    return cast(GameRules, importlib.import_module(package))
