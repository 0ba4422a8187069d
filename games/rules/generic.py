"""The mechanisms behind :mod:`games.rules.base`'s defaults that are more than a line:
dataclass values kept as JSON and read back by their type hints, a vocabulary made from a
game's own command words, and the config, board and bot of a game that gives none.  What
each default *is* is said in :mod:`games.rules.base`; this module only does the work.  Pure Python: no Django.
"""

from __future__ import annotations

import dataclasses
import hashlib
import importlib
import json
import types
import typing
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from . import text
from .text import Table

LANGUAGES = ("en", "de", "fr")


# --- dataclasses as JSON ----------------------------------------------------------------------


def to_data(value: Any) -> Any:
    """A value of frozen dataclasses, tuples, frozensets, mappings and JSON scalars as JSON
    data: a dataclass as a dict of its fields, a tuple or set as a list (a set sorted, so the
    same value is always written the same way)."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: to_data(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, frozenset | set):
        return sorted(to_data(v) for v in value)
    if isinstance(value, tuple | list):
        return [to_data(v) for v in value]
    if isinstance(value, Mapping):
        return {str(k): to_data(v) for k, v in value.items()}
    if value is None or isinstance(value, bool | int | float | str):
        return value
    raise TypeError(f"{type(value).__name__} is not kept as data by default: give the game its own *_to_dict")


def from_data(kind: Any, data: Any, given: Mapping[type, Any] = types.MappingProxyType({})) -> Any:
    """The value of type ``kind`` that :func:`to_data` wrote as ``data``, read by the type
    hints of its dataclasses.  ``given`` supplies a value for a field of its type instead of
    reading one (a state's config, which the service keeps apart)."""
    if isinstance(kind, type) and kind in given:
        return given[kind]
    if kind is Any or kind is object:
        return data
    origin = typing.get_origin(kind)
    arguments = typing.get_args(kind)
    if origin in (typing.Union, types.UnionType):
        if data is None and type(None) in arguments:
            return None
        others = [a for a in arguments if a is not type(None)]
        return from_data(others[0], data, given) if len(others) == 1 else data
    if origin is tuple:
        if len(arguments) == 2 and arguments[1] is Ellipsis:
            return tuple(from_data(arguments[0], v, given) for v in data)
        if arguments:
            return tuple(from_data(a, v, given) for a, v in zip(arguments, data, strict=True))
        return tuple(data)
    if origin in (frozenset, set):
        return frozenset(from_data(arguments[0], v, given) for v in data) if arguments else frozenset(data)
    if origin is list:
        return [from_data(arguments[0], v, given) for v in data] if arguments else list(data)
    if origin in (dict, Mapping) or (origin is not None and issubclass(origin, Mapping)):
        value = arguments[1] if len(arguments) == 2 else Any
        return {k: from_data(value, v, given) for k, v in data.items()}
    if isinstance(kind, type) and dataclasses.is_dataclass(kind):
        hints = _hints(kind)
        return kind(
            **{
                f.name: from_data(hints[f.name], data[f.name], given)
                for f in dataclasses.fields(kind)
                if f.init
            }
        )
    if kind is tuple:
        return tuple(data)
    return data


@cache
def _hints(kind: type) -> dict[str, Any]:
    return typing.get_type_hints(kind)


def command_data(command: Any) -> dict[str, Any]:
    """A dataclass command as data: its class (module and name) and its fields."""
    if not dataclasses.is_dataclass(command) or isinstance(command, type):
        raise TypeError(f"a {type(command).__name__} is not kept as data by default: give command_to_dict")
    kind = type(command)
    return {"command": f"{kind.__module__}:{kind.__qualname__}", **to_data(command)}


def command_from(data: Mapping[str, Any], package: str) -> Any:
    """The command :func:`command_data` wrote; its class must be of the game's ``package``."""
    module_name, _, qualname = str(data["command"]).partition(":")
    if module_name != package and not module_name.startswith(package + "."):
        raise ValueError(f"{module_name} is not a module of the game's package {package}")
    found: Any = importlib.import_module(module_name)
    for part in qualname.split("."):
        found = getattr(found, part)
    fields = {k: v for k, v in data.items() if k != "command"}
    return from_data(found, fields)


# --- a vocabulary from the game's command words -----------------------------------------------


class Vocabulary:
    """The words the mail parser recognises in a game that gives no ``words`` of its own: its
    command keywords (the first word of each command as ``format_command_in`` writes it, per
    language), compared folded as every game's words are (:func:`games.rules.text.key`).
    ``TABLES`` holds the keyword table; a game with argument words of its own (colours,
    places) gives its own vocabulary."""

    LANGUAGES = LANGUAGES
    key = staticmethod(text.key)

    def __init__(self, spelled: Mapping[str, Mapping[str, Iterable[str]]]) -> None:
        # canonical (English) keyword -> language -> its spellings there (English first)
        self.canonicals = tuple(spelled)
        self.KEYWORDS: Table = {
            language: {k: _spellings(k, spelled[k].get(language, ())) for k in self.canonicals}
            for language in LANGUAGES
        }
        self.TABLES: dict[str, Table] = {"keyword": self.KEYWORDS}
        self._index: dict[str, str] = {}
        for language in LANGUAGES:
            for canonical, spellings in self.KEYWORDS[language].items():
                for word in spellings:
                    self._index.setdefault(text.key(word), canonical)
        self._spellings = text.spellings(self.KEYWORDS, self.canonicals, LANGUAGES)

    def keyword(self, word: str) -> str | None:
        """The canonical keyword a typed word means, in any language, or None."""
        return self._index.get(text.key(word))

    def closest_keyword_scored(self, word: str) -> tuple[str, float] | None:
        """``(spelling, similarity)`` of the keyword nearest a mistyped word, or None."""
        return text.closest_scored(word, self._spellings, 0.6, 24)

    def closest_keyword(self, word: str) -> str | None:
        closest = self.closest_keyword_scored(word)
        return closest[0] if closest else None

    def keyword_hint(self, language: str) -> str:
        """The keywords of ``language`` with their English meaning (English: on one line)."""
        text.check_language(language, LANGUAGES)
        return text.keyword_hint(self.KEYWORDS, self.canonicals, language)

    def argument_hint(self, language: str) -> str:
        """The argument words of ``language``: none beyond what each command's syntax says."""
        text.check_language(language, LANGUAGES)
        return ""


def _spellings(canonical: str, spelled: Iterable[str]) -> tuple[str, ...]:
    found = tuple(dict.fromkeys(w for w in spelled if w))
    return found or (canonical,)


def first_words(lines: Sequence[tuple[str, str]]) -> dict[str, dict[str, list[str]]]:
    """``(language, command text)`` of the same command in each language, English first, as
    ``canonical -> language -> spellings`` of their first words."""
    found: dict[str, dict[str, list[str]]] = {}
    canonical = ""
    for language, line in lines:
        words = line.split()
        if not words:
            continue
        if language == "en":
            canonical = words[0].lower()
        if not canonical:
            continue
        spellings = found.setdefault(canonical, {}).setdefault(language, [])
        if words[0].lower() not in spellings:
            spellings.append(words[0].lower())
    return found


def syntax_lines(lines: Iterable[str]) -> dict[str, str]:
    """English commands as met (``bid 0``, ``bid 3``, ``pass``) as each keyword's syntax line:
    ``pass`` alone, ``bid <number>`` where numbers follow, ``side emperor|rebels`` for a few
    words, ``give <…>`` for many."""
    shapes: dict[str, list[list[str]]] = {}
    for line in lines:
        words = line.split()
        if words:
            shapes.setdefault(words[0].lower(), []).append(words[1:])
    found: dict[str, str] = {}
    for keyword, arguments in shapes.items():
        longest = max(len(a) for a in arguments)
        parts = [keyword]
        for position in range(longest):
            seen = list(dict.fromkeys(a[position] for a in arguments if len(a) > position))
            if all(w.lstrip("-").isdigit() for w in seen):
                parts.append("<number>")
            elif len(seen) <= 4:
                parts.append("|".join(seen))
            else:
                parts.append("<…>")
        found[keyword] = " ".join(parts)
    return found


def plain(value: Any) -> str:
    """A value of a view as plain words: ``bid 3`` for ``{"bid": 3}``, a mapping's keys and
    values (what is None left out), a sequence's items, a scalar as it is."""
    if value is None:
        return ""
    if isinstance(value, Mapping):
        return ", ".join(f"{k} {plain(v)}".strip() for k, v in value.items() if v is not None)
    if isinstance(value, list | tuple):
        return " ".join(plain(v) for v in value)
    return str(value)


# --- a game's config, board and bot, where it gives none ------------------------------------


@dataclass(frozen=True)
class NoBoard:
    """The board of a game that has none: a name and a digest like any board's."""

    name: str = ""
    digest: str = ""


@dataclass(frozen=True)
class Config:
    """The config :meth:`games.rules.base.Serial.make_config` makes for a game that gives none:
    who plays (seat colours, in order), the edition, the options and the first seat (None: the
    game decides)."""

    board: Any
    colours: tuple[str, ...]
    edition: str
    options: Mapping[str, Any] = field(default_factory=dict)
    first_seat: int | None = 0

    @property
    def players(self) -> int:
        return len(self.colours)


class RandomBot:
    """A legal command drawn by the bot's key (a seat that owes a decision): the default
    player program of a game that gives none."""

    def __init__(self, game: Any, key: str) -> None:
        self.game = game
        self.key = key

    def choose(self, state: Any, seat: int) -> Any:
        menu = self.game.legal(state, seat)
        seen = json.dumps(self.game.serial.state_to_dict(state), sort_keys=True, default=str)
        digest = hashlib.sha256(f"{self.key}\n{seat}\n{seen}".encode()).digest()
        return menu[int.from_bytes(digest[:8], "big") % len(menu)]
