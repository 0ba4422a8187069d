"""The words of the notation in English, German and French (see COMMANDS.md).

Data only, plus the look-ups :mod:`.notation` needs.  Per language, every canonical English
keyword (and argument word) has one or more spellings; the first is the one written by
:func:`.notation.format_command_in`.  A typed word is compared folded (:func:`key`: case,
accents, punctuation and ``ß``/``ss`` ignored), so ``armée`` = ``ARMEE``.  German umlauts are
also listed spelled out (``führe`` / ``fuehre``), since folding alone makes ``führe`` ``fuhre``.

Every folded spelling means one canonical word, across all three languages (checked on
import): ``passe`` is pass in German and in French, ``armee`` army in both.
"""

from __future__ import annotations

from .. import text
from ..text import Table
from .constants import COLOURS as ENGLISH_COLOURS

LANGUAGES = ("en", "de", "fr")
LANGUAGE_NAMES = {"en": "English", "de": "Deutsch", "fr": "Français"}

# The canonical (English) keywords, in the order of COMMANDS.md.
ENGLISH_KEYWORDS = (
    "place",
    "pass",
    "resolve",
    "bid",
    "out",
    "lead",
    "decline",
    "side",
    "army",
    "take",
    "first",
    "palace",
    "tile",
    "give",
)

KEYWORDS: Table = {
    "en": {k: (k,) for k in ENGLISH_KEYWORDS},
    "de": {
        "place": ("setze", "setzen"),
        "pass": ("passe", "passen"),
        "resolve": ("werte", "werten", "wertung"),
        "bid": ("biete", "bieten"),
        "out": ("raus",),
        "lead": ("führe", "führen", "fuehre", "fuehren"),
        "decline": ("ablehnen", "nein"),
        "side": ("seite",),
        "army": ("armee",),
        "take": ("nimm", "nehmen"),
        "first": ("erster", "erste"),
        "palace": ("palast",),
        "tile": ("plättchen", "plaettchen"),
        "give": ("gib", "geben"),
    },
    "fr": {
        "place": ("pose", "poser"),
        "pass": ("passe", "passer"),
        "resolve": ("résous", "résoudre"),
        "bid": ("mise", "miser", "enchère"),
        "out": ("dehors", "sors", "sortir"),
        "lead": ("mène", "mener"),
        "decline": ("refuse", "refuser", "non"),
        "side": ("camp",),
        "army": ("armée",),
        "take": ("prends", "prendre"),
        "first": ("premier",),
        "palace": ("palais",),
        "tile": ("tuile",),
        "give": ("donne", "donner"),
    },
}

# The colours a game may use (``constants.COLOURS``); games store them in English.
COLOURS: Table = {
    "en": {c: (c,) for c in ENGLISH_COLOURS},
    "de": {
        "red": ("rot",),
        "blue": ("blau",),
        "green": ("grün", "gruen"),
        "yellow": ("gelb",),
        "purple": ("lila", "violett"),
        "orange": ("orange",),
    },
    "fr": {
        "red": ("rouge",),
        "blue": ("bleu",),
        "green": ("vert",),
        "yellow": ("jaune",),
        "purple": ("violet",),
        "orange": ("orange",),
    },
}

# ``side emperor`` / ``side rebels``
SIDES: Table = {
    "en": {"emperor": ("emperor",), "rebels": ("rebels", "rebel")},
    "de": {"emperor": ("kaiser",), "rebels": ("rebellen", "rebell", "aufständische", "aufstaendische")},
    "fr": {"emperor": ("empereur",), "rebels": ("rebelles", "rebelle")},
}

# What a palace or a gift gives: ``palace influence``, ``palace 1 army``, ``give red 2 army``
POINTS: Table = {
    "en": {"influence": ("influence",), "army": ("army",)},
    "de": {"influence": ("einfluss",), "army": ("armee",)},
    "fr": {"influence": ("influence",), "army": ("armée",)},
}

TABLES: dict[str, Table] = {"keyword": KEYWORDS, "colour": COLOURS, "side": SIDES, "points": POINTS}

# How a typed word is compared: case, accents and punctuation ignored, ``ß`` = ``ss``.
key = text.key

# folded spelling -> canonical word, per table; a spelling meaning two words is an error
_INDEXES = {name: text.index(name, table, LANGUAGES) for name, table in TABLES.items()}


def keyword(word: str) -> str | None:
    """The canonical keyword a typed word means, in any language, or None."""
    return _INDEXES["keyword"].get(key(word))


def colour(word: str) -> str | None:
    """The (English) colour a typed word names, or None."""
    return _INDEXES["colour"].get(key(word))


def side(word: str) -> str | None:
    """``"emperor"`` or ``"rebels"``, or None."""
    return _INDEXES["side"].get(key(word))


def points(word: str) -> str | None:
    """``"influence"`` or ``"army"``, or None."""
    return _INDEXES["points"].get(key(word))


def spell(table: Table, canonical: str, language: str) -> str:
    """How ``language`` writes a canonical word (its first spelling)."""
    return text.spell(table, canonical, language, LANGUAGES)


MAX_TYPO = 24  # the longest keyword has 14 letters


def closest_keyword(word: str) -> str | None:
    """The spelling of a keyword (any language) closest to a mistyped word, or None.

    Ties go to English, then German, then French: ``plase`` is ``place``, not ``passe``."""
    closest = closest_keyword_scored(word)
    return closest[0] if closest else None


def closest_keyword_scored(word: str) -> tuple[str, float] | None:
    """``(spelling, similarity ratio)`` of :func:`closest_keyword`, or None: for a caller that
    weighs the keyword against other words, so the winner is not compared a second time."""
    return text.closest_scored(word, _SPELLINGS, 0.6, MAX_TYPO)


# (folded, spelled) of every keyword, in the order ties are decided: folded once, not per call
_SPELLINGS = text.spellings(KEYWORDS, ENGLISH_KEYWORDS, LANGUAGES)


def keyword_hint(language: str) -> str:
    """The keywords of ``language`` with their English meaning, one per line, for mails::

        setze, setzen = place
        passe, passen = pass

    For English, the keywords on one line."""
    text.check_language(language, LANGUAGES)
    return text.keyword_hint(KEYWORDS, ENGLISH_KEYWORDS, language)


def argument_hint(language: str) -> str:
    """The colour, side and points words of ``language`` with their English meaning::

        rot = red, blau = blue, grün/gruen = green, ...
        kaiser = emperor, rebellen/rebell/... = rebels
        einfluss = influence, armee = army

    For English, the words alone."""
    text.check_language(language, LANGUAGES)
    return "\n".join(text.table_hint(table, language) for table in (COLOURS, SIDES, POINTS))
