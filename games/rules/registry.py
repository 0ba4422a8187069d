"""The games this service hosts, by the name a game keeps in ``Game.rules``.

The only place that knows which rules packages exist: one line per game in :data:`PACKAGES`.
Everything outside ``games/rules/`` reaches a game through :func:`get` (an import-linter
contract in pyproject.toml forbids importing a game's package by name), which gives the game
as a :class:`games.rules.base.Rules`: its package's core, and its parts (the package's where it
gives one, the contract's defaults otherwise)::

    from games.rules import registry
    rules = registry.get(game.rules)
    state = rules.setup(config, seed)

Tests register a game of their own for a while with :func:`register`.
"""

from __future__ import annotations

import importlib
import importlib.util
from collections.abc import Iterator
from contextlib import contextmanager
from functools import cache
from pathlib import Path
from types import ModuleType

from .base import Rules

PACKAGES = {
    "whitelotus": "games.rules.whitelotus",
    "verbotenestadt": "games.rules.verbotenestadt",
}
DEFAULT = "whitelotus"

__all__ = ["DEFAULT", "PACKAGES", "Rules", "UnknownRules", "get", "names", "register"]


class UnknownRules(LookupError):
    """A name no game of this service has."""

    def __init__(self, name: str) -> None:
        super().__init__(f"no game called {name!r}; the games are {', '.join(PACKAGES)}")
        self.name = name


def _package_dirs(folder: str) -> list[Path]:
    """``<package>/<folder>/`` of each registered game that has one, found without importing
    the game."""
    found = []
    for package in PACKAGES.values():
        spec = importlib.util.find_spec(package)
        for where in (spec.submodule_search_locations or []) if spec else []:
            if (Path(where) / folder).is_dir():
                found.append(Path(where) / folder)
    return found


def template_dirs() -> list[Path]:
    """Each game's own templates (``<package>/templates/``: its page and mail partials, by the
    service's names for them, ``games/<name>/_state.html`` …), found without importing the
    game (the settings' template directories)."""
    return _package_dirs("templates")


def locale_dirs() -> list[Path]:
    """Each game's own catalogue (``<package>/locale/<language>/LC_MESSAGES/django.po`` and its
    compiled ``.mo``: the German and French of its sentences and words), found without
    importing the game (the settings' ``LOCALE_PATHS``, after the service's own catalogue)."""
    return _package_dirs("locale")


def names() -> tuple[str, ...]:
    """Every game's name, the default first."""
    return tuple(PACKAGES)


@cache
def get(name: str) -> Rules:
    """The game called ``name``: its rules package, in parts with the contract's defaults."""
    try:
        package = PACKAGES[name]
    except KeyError:
        raise UnknownRules(name) from None
    return Rules(name, importlib.import_module(package))


@contextmanager
def register(name: str, module: ModuleType | str) -> Iterator[Rules]:
    """The game ``module`` (a module or its dotted name) registered as ``name`` for the time
    of the ``with`` block (tests: a game that is no line of :data:`PACKAGES`)."""
    if name in PACKAGES:
        raise ValueError(f"a game called {name!r} is registered already")
    PACKAGES[name] = module if isinstance(module, str) else module.__name__
    get.cache_clear()
    try:
        yield get(name)
    finally:
        del PACKAGES[name]
        get.cache_clear()
