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

from collections.abc import Mapping
from types import MappingProxyType
from typing import Any

from .base import GameRules

_NONE: Mapping[str, Any] = MappingProxyType({})

# name -> the value a game without it gets
DEFAULTS: Mapping[str, Any] = MappingProxyType(
    {
        # phrase key -> the game's English template (``{field}`` placeholders) where its mails
        # and pages say something in words of their own; a key not given: the service's words
        "MAIL_WORDS": _NONE,
        # a drawing module (``board_svg(board, view, *, names, translate)``), or None: the
        # text board alone, in mails and pages
        "picture": None,
        # what the game's config and records call the seat that begins
        "FIRST_SEAT_KEY": "first_seat",
    }
)


def presented(rules: GameRules, name: str) -> Any:
    """The game's ``name``, or its default for a game that gives none."""
    return getattr(rules, name, DEFAULTS[name])
