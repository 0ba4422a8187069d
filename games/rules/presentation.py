"""The optional names a game gives for how the service presents it, and their defaults.

A game's package may give any of these at its top level (documented in
:class:`games.rules.base.GameRules`, "Presentation, optional"); a game that gives none gets
the default here, so the service never has to ask *which* game it is to choose its words,
its picture or its partials.  Pure Python, like every module of ``games.rules``: the names
hold English msgids (said in the reader's language by the service's ``gettext``) and
functions over views, never Django.

    from games.rules.presentation import presented
    phrase = presented(rules, "MAIL_WORDS").get("begins")   # None: the service's own words

(Kept to one mapping so that it folds into ``base.py``'s defaults for the optional names.)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any, Protocol

from .base import Game, GameRules, Message, Translate, Word

_NONE: Mapping[str, Any] = MappingProxyType({})


@dataclass(frozen=True)
class Asked:
    """What the facts of one mail are drawn from (``mail_facts``)."""

    rules: GameRules
    state: Any
    view: Mapping[str, Any]
    seat: int
    decision: str  # the kind of decision this seat owes ("" for none)
    legal: Sequence[Any]
    language: str
    names: Mapping[str, str]  # seat colour -> player name
    outcome: Any  # the game's Outcome once it is over


class Say(Protocol):
    """How a game's ``mail_facts`` says words in the reader's language (the service's
    gettext): ``say(msgid)``, and a plural, a seat colour, a place, a list."""

    def __call__(self, text: str) -> str: ...
    def plural(self, singular: str, plural: str, n: int) -> str: ...
    def colour(self, colour: str) -> str: ...
    def place(self, rank: int) -> str: ...
    def joined(self, items: Sequence[str]) -> str: ...


def _score_parts(breakdown: Mapping[str, int]) -> Message:
    """Each part of a final score as the outcome names it, the total left out: "officials 12 +
    pairs 3" (each name a word of the game's catalogue)."""
    parts = [
        Message.layout("{part} {value}", part=Word(part), value=value)
        for part, value in breakdown.items()
        if part != "total"
    ]
    return Message.joined(parts, " + ")


# name -> the value a game without it gets
DEFAULTS: Mapping[str, Any] = MappingProxyType(
    {
        # phrase key -> the game's English template (``{field}`` placeholders) where its mails
        # and pages say something in words of their own; a key not given: the service's words
        "MAIL_WORDS": _NONE,
        # the package's module that draws its board, relative to the package (".picture"),
        # offering ``board_svg(board, view, *, names, translate)`` (and, if it remembers
        # drawings, ``forget()``); None: no picture, the text board alone in mails and pages
        "PICTURE": None,
        # ``phase_text(view, translate)``: the view's phase as people read it ("bidding for
        # Yanan"); None: the game's page words for the phase (``PAGE_WORDS["phase"]``)
        "phase_text": None,
        # what the game's config and records call the seat that begins
        "FIRST_SEAT_KEY": "first_seat",
        # the options that make a new game's table talk full (private messages too) when they
        # are on: variants whose point is dealing
        "FULL_PRESS_OPTIONS": (),
        # ``mail_facts(asked, say)``: what the game's own mail partials show besides its
        # text board (a dict for their context), in the reader's words; None: nothing more
        "mail_facts": None,
        # the command line's flags for its options (``create_game --negotiation``): flag ->
        # (option, the value it sets, or a tuple of the values it takes, what it does)
        "OPTION_FLAGS": _NONE,
        # ``score_parts(breakdown)``: a final score's parts as a Message (the game-over mail)
        "score_parts": _score_parts,
        # ``operator_text(view, names)``: the game as the operator reads it on the command line
        # (``manage.py show_game``), plain English lines after the line naming the game;
        # None: its text board (``text_board``), who is waited for and the result
        "operator_text": None,
    }
)


def presented(rules: GameRules | Any, name: str) -> Any:
    """The game's ``name``, or its default for a game that gives none: looked up in the game's
    package (``registry.get`` gives a :class:`~games.rules.base.Game` around it), or in a
    module handed in as it is (tests)."""
    source = rules.module if isinstance(rules, Game) else rules
    return getattr(source, name, DEFAULTS[name])


def as_is(text: str) -> str:
    """The English text itself: the ``translate`` of a reader of English (and of tests)."""
    return text


def particular(translate: Translate, context: str, message: str) -> str:
    """``message`` said in a context (``pgettext``) through a plain ``translate``: the
    catalogue keys it ``context + "\\x04" + message``; a translation missing gives the message."""
    said = translate(f"{context}\x04{message}")
    return message if "\x04" in said else said
