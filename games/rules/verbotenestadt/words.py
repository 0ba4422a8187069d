"""The words of the Verbotene Stadt notation in English, German and French (COMMANDS.md).

Data plus the look-ups :mod:`.notation` and the mail parser need, shaped like White Lotus's
``words`` (``key``, ``keyword``, ``closest_keyword_scored``, ``keyword_hint``,
``argument_hint``, ``LANGUAGES``).  Per language every canonical English word has one or more
spellings; the first is the one written.  Typed words are compared folded (case, accents and
punctuation ignored, ``ß`` = ``ss``); German umlauts are also listed spelled out.

Directions: the letters ``n e s w`` and the words of every language (``nord``, ``ost``,
``süd``, ``west``; ``nord``, ``est``, ``sud``, ``ouest``).  A lone ``o`` is refused: it is
east in German and west in French.
"""

from __future__ import annotations

from .. import text
from ..text import Table

LANGUAGES = ("en", "de", "fr")
LANGUAGE_NAMES = {"en": "English", "de": "Deutsch", "fr": "Français"}

ENGLISH_KEYWORDS = ("move", "step", "plan", "stop", "dial", "keep", "believe", "doubt", "take", "spare")

KEYWORDS: Table = {
    "en": {k: (k,) for k in ENGLISH_KEYWORDS},
    "de": {
        "move": ("ziehe", "zieh", "ziehen"),
        "step": ("schritt",),
        "plan": ("plan",),
        "stop": ("halt", "stopp", "aufhören", "aufhoeren"),
        "dial": ("besteche", "bestechen", "tafel"),
        "keep": ("behalte", "behalten"),
        "believe": ("glaube", "glauben"),
        "doubt": ("zweifle", "zweifel", "zweifeln"),
        "take": ("nimm", "nehmen"),
        "spare": ("verschone", "verschonen"),
    },
    "fr": {
        "move": ("déplace", "déplacer"),
        "step": ("pas",),
        "plan": ("plan",),
        "stop": ("arrête", "arrêter", "stop"),
        "dial": ("soudoie", "soudoyer", "cadran"),
        "keep": ("garde", "garder"),
        "believe": ("crois", "croire"),
        "doubt": ("doute", "douter"),
        "take": ("prends", "prendre"),
        "spare": ("épargne", "épargner"),
    },
}

# The officials' hat and robe colours.
OFFICIAL_COLOURS: Table = {
    "en": {c: (c,) for c in ("red", "yellow", "blue", "green", "black")},
    "de": {
        "red": ("rot",),
        "yellow": ("gelb",),
        "blue": ("blau",),
        "green": ("grün", "gruen"),
        "black": ("schwarz",),
    },
    "fr": {
        "red": ("rouge",),
        "yellow": ("jaune",),
        "blue": ("bleu",),
        "green": ("vert",),
        "black": ("noir",),
    },
}

# The garment colours (of the pavilions 1-8).
COLOURS: Table = {
    "en": {c: (c,) for c in ("red", "orange", "yellow", "white", "blue", "purple", "green", "black")},
    "de": {
        "red": ("rot",),
        "orange": ("orange",),
        "yellow": ("gelb",),
        "white": ("weiß", "weiss"),
        "blue": ("blau",),
        "purple": ("lila", "violett"),
        "green": ("grün", "gruen"),
        "black": ("schwarz",),
    },
    "fr": {
        "red": ("rouge",),
        "orange": ("orange",),
        "yellow": ("jaune",),
        "white": ("blanc",),
        "blue": ("bleu",),
        "purple": ("violet",),
        "green": ("vert",),
        "black": ("noir",),
    },
}

PIECES: Table = {
    "en": {"hat": ("hat",), "coat": ("coat",), "trousers": ("trousers",)},
    "de": {"hat": ("hut",), "coat": ("mantel",), "trousers": ("hose",)},
    "fr": {"hat": ("chapeau",), "coat": ("manteau",), "trousers": ("pantalon",)},
}

DIRECTIONS: Table = {
    "en": {"n": ("n", "north"), "e": ("e", "east"), "s": ("s", "south"), "w": ("w", "west")},
    "de": {
        "n": ("nord", "norden"),
        "e": ("ost", "osten"),
        "s": ("süd", "sued", "süden"),
        "w": ("west", "westen"),
    },
    "fr": {"n": ("nord",), "e": ("est",), "s": ("sud",), "w": ("ouest",)},
}

SEATS: Table = {
    "en": {s: (s,) for s in ("north", "east", "south", "west")},
    "de": {"north": ("nord",), "east": ("ost",), "south": ("süd", "sued"), "west": ("west",)},
    "fr": {"north": ("nord",), "east": ("est",), "south": ("sud",), "west": ("ouest",)},
}

# The officials' codes (the same in every language): so that a mail reader sees ``mvoe rg n``
# as a mistyped command, not as prose.
_CODES = {h + r: (h + r,) for h in "rybgk" for r in "rybgk"}
OFFICIALS: Table = {language: _CODES for language in LANGUAGES}

TABLES: dict[str, Table] = {
    "keyword": KEYWORDS,
    "official_colour": OFFICIAL_COLOURS,
    "colour": COLOURS,
    "piece": PIECES,
    "direction": DIRECTIONS,
    "seat": SEATS,
    "official": OFFICIALS,
}


# How a typed word is compared: case, accents and punctuation ignored, ``ß`` = ``ss``.
key = text.key

# folded spelling -> canonical word, per table; a spelling meaning two words is an error
_INDEXES = {name: text.index(name, table, LANGUAGES) for name, table in TABLES.items()}


def keyword(word: str) -> str | None:
    """The canonical keyword a typed word means, in any language, or None."""
    return _INDEXES["keyword"].get(key(word))


def official_colour(word: str) -> str | None:
    return _INDEXES["official_colour"].get(key(word))


def colour(word: str) -> str | None:
    return _INDEXES["colour"].get(key(word))


def piece(word: str) -> str | None:
    return _INDEXES["piece"].get(key(word))


def direction(word: str) -> str | None:
    return _INDEXES["direction"].get(key(word))


def seat(word: str) -> str | None:
    return _INDEXES["seat"].get(key(word))


def spell(table: Table, canonical: str, language: str) -> str:
    return text.spell(table, canonical, language, LANGUAGES)


MAX_TYPO = 24

_SPELLINGS = text.spellings(KEYWORDS, ENGLISH_KEYWORDS, LANGUAGES)


def closest_keyword(word: str) -> str | None:
    closest = closest_keyword_scored(word)
    return closest[0] if closest else None


def closest_keyword_scored(word: str) -> tuple[str, float] | None:
    """``(spelling, similarity ratio)`` of the keyword (any language) closest to a mistyped
    word, or None below 0.6.  Ties go to English, then German, then French."""
    return text.closest_scored(word, _SPELLINGS, 0.6, MAX_TYPO)


def keyword_hint(language: str) -> str:
    """The keywords of ``language`` with their English meaning, one per line (English: one
    line of keywords)."""
    text.check_language(language, LANGUAGES)
    return text.keyword_hint(KEYWORDS, ENGLISH_KEYWORDS, language)


def argument_hint(language: str) -> str:
    """The colour, piece and direction words of ``language`` with their English meaning, and
    how an official is written (``rg`` = red hat, green robe)."""
    text.check_language(language, LANGUAGES)
    lines = [
        text.table_hint(table, language, bare_when_same=True)
        for table in (OFFICIAL_COLOURS, COLOURS, PIECES, DIRECTIONS)
    ]
    lines.append(OFFICIAL_HINT[language])
    return "\n".join(lines)


OFFICIAL_HINT = {
    "en": "officials: hat initial + robe initial (r y b g, k = black): rg = red hat, green robe",
    "de": "Beamte: Hut + Gewand mit englischen Anfangsbuchstaben (r=rot y=gelb b=blau g=grün k=schwarz):"
    " rg = roter Hut, grünes Gewand; oder rot/grün",
    "fr": "fonctionnaires : chapeau + robe en initiales anglaises (r=rouge y=jaune b=bleu g=vert k=noir) :"
    " rg = chapeau rouge, robe verte ; ou rouge/vert",
}
