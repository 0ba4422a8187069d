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

from collections.abc import Mapping
from difflib import SequenceMatcher

from .board import fold
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

# language -> canonical word -> spellings (the first is the one written)
Table = Mapping[str, Mapping[str, tuple[str, ...]]]

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


def key(word: str) -> str:
    """How a typed word is compared: case, accents and punctuation ignored, ``ß`` = ``ss``."""
    return fold(word.casefold())


def _index(name: str, table: Table) -> dict[str, str]:
    """Folded spelling -> canonical word; a spelling meaning two words is an error."""
    index: dict[str, str] = {}
    for language in LANGUAGES:
        if set(table[language]) != set(table["en"]):
            raise ValueError(f"{name} words in {language!r} do not match the English ones")
        for canonical, spellings in table[language].items():
            for spelled in spellings:
                k = key(spelled)
                if index.setdefault(k, canonical) != canonical:
                    raise ValueError(f"{name} {spelled!r} means both {index[k]!r} and {canonical!r}")
    return index


_INDEXES = {name: _index(name, table) for name, table in TABLES.items()}


def _check_language(language: str) -> None:
    if language not in LANGUAGES:
        raise ValueError(f"unknown language {language!r} (known: {', '.join(LANGUAGES)})")


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
    _check_language(language)
    return table[language][canonical][0]


MAX_TYPO = 24  # the longest keyword has 14 letters


def closest_keyword(word: str) -> str | None:
    """The spelling of a keyword (any language) closest to a mistyped word, or None.

    Ties go to English, then German, then French: ``plase`` is ``place``, not ``passe``."""
    closest = closest_keyword_scored(word)
    return closest[0] if closest else None


def closest_keyword_scored(word: str) -> tuple[str, float] | None:
    """``(spelling, similarity ratio)`` of :func:`closest_keyword`, or None: for a caller that
    weighs the keyword against other words, so the winner is not compared a second time."""
    typed = key(word)
    if len(typed) > MAX_TYPO:  # no keyword is near; and comparing would cost time per letter
        return None
    best: tuple[float, str] | None = None
    for folded, spelled in _SPELLINGS:
        matcher = SequenceMatcher(None, typed, folded)
        # the cheap upper bounds of the ratio first: a spelling that cannot reach 0.6, or beat
        # the best so far, is passed over without the full comparison (same answer, less time)
        floor = 0.6 if best is None else best[0]
        if matcher.real_quick_ratio() < floor or matcher.quick_ratio() < floor:
            continue
        score = matcher.ratio()
        if score >= 0.6 and (best is None or score > best[0]):
            best = (score, spelled)
    return (best[1], best[0]) if best else None


# (folded, spelled) of every keyword, in the order ties are decided: folded once, not per call
_SPELLINGS: tuple[tuple[str, str], ...] = tuple(
    (key(spelled), spelled)
    for language in LANGUAGES
    for canonical in ENGLISH_KEYWORDS
    for spelled in KEYWORDS[language][canonical]
)


def keyword_hint(language: str) -> str:
    """The keywords of ``language`` with their English meaning, one per line, for mails::

        setze, setzen = place
        passe, passen = pass

    For English, the keywords on one line."""
    _check_language(language)
    if language == "en":
        return ", ".join(ENGLISH_KEYWORDS)
    return "\n".join(f"{', '.join(KEYWORDS[language][k])} = {k}" for k in ENGLISH_KEYWORDS)


def argument_hint(language: str) -> str:
    """The colour, side and points words of ``language`` with their English meaning::

        rot = red, blau = blue, grün/gruen = green, ...
        kaiser = emperor, rebellen/rebell/... = rebels
        einfluss = influence, armee = army

    For English, the words alone."""
    _check_language(language)

    def entry(canonical: str, spellings: tuple[str, ...]) -> str:
        written = "/".join(spellings)
        return written if language == "en" else f"{written} = {canonical}"

    return "\n".join(
        ", ".join(entry(canonical, spellings) for canonical, spellings in table[language].items())
        for table in (COLOURS, SIDES, POINTS)
    )
