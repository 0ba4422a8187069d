"""White Lotus's outcomes of chance as a record writes them (COMMANDS.md "Chance written
down"): ``first red``, ``fill Yanan palace``, ``draw village``, in English, German or French
words (:mod:`games.rules.chance` reads the line's ``chance:``)."""

from __future__ import annotations

from collections.abc import Sequence

from .. import chance, text
from ..chance import Chance, Value
from ..text import Table
from .constants import Building
from .state import State
from .words import COLOURS, LANGUAGES
from .words import colour as colour_word

CHANCE = {
    "first": "first <colour>",
    "fill": "fill <province> <building>",
    "draw": "draw <building>",
}

CHANCE_WORDS: Table = {
    "en": {k: (k,) for k in CHANCE},
    "de": {"first": ("erster", "erste"), "fill": ("fülle", "fuelle", "füllen"), "draw": ("ziehe", "ziehen")},
    "fr": {"first": ("premier",), "fill": ("remplis", "remplir"), "draw": ("tire", "tirer", "pioche")},
}

BUILDINGS: Table = {
    "en": {b.label: (b.label,) for b in Building},
    "de": {
        "village": ("Dorf",),
        "palace": ("Palast",),
        "temple": ("Tempel",),
        "fort": ("Festung", "Burg"),
        "ricefield": ("Reisfeld",),
    },
    "fr": {
        "village": ("village",),
        "palace": ("palais",),
        "temple": ("temple",),
        "fort": ("fort", "forteresse"),
        "ricefield": ("rizière", "riziere"),
    },
}

# the parts of a state that come from the seed, not from play (a record replayed without its
# seed has other values there and the same game): the seed and the generator's counter
SEEDED_FIELDS = ("seed", "draws")

KINDS = chance.kinds_index(CHANCE_WORDS, LANGUAGES)
_BUILDINGS = text.index("building", BUILDINGS, LANGUAGES)


def _building(word: str) -> int:
    found = _BUILDINGS.get(text.key(word))
    if found is None:
        raise ValueError(f"'{word[:30]}' is not a building (village, palace, temple, fort, ricefield).")
    return int(Building[found.upper()])


def parse_chance(state: State, line: str) -> Chance:
    """An outcome from its words (after ``chance:``)."""

    def first(args: list[str]) -> Value:
        if len(args) != 1:
            raise ValueError("Name one colour.")
        colour = colour_word(args[0])
        seat = state.seat_of(colour) if colour else None
        if seat is None:
            raise ValueError(
                f"'{args[0][:30]}' is not a colour of this game ({', '.join(state.config.colours)})."
            )
        return (seat,)

    def fill(args: list[str]) -> Value:
        if len(args) < 2:
            raise ValueError("Name a province and a building.")
        province = state.board.lookup(" ".join(args[:-1]))
        if province is None:
            raise ValueError(f"There is no province '{' '.join(args[:-1])[:40]}'.")
        return (province.index, _building(args[-1]))

    def draw(args: list[str]) -> Value:
        if len(args) != 1:
            raise ValueError("Name one building.")
        return (_building(args[0]),)

    return chance.read(line, KINDS, {"first": first, "fill": fill, "draw": draw}, CHANCE)


def format_chance_in(state: State, outcome: Chance, language: str) -> str:
    """The outcome in ``language``'s words ("ziehe Palast", "premier bleu"), as a reader of
    that language writes it; :func:`parse_chance` reads it back.  In English it
    is what a record writes after ``chance:`` (``format_chance``, derived in games.rules.base)."""

    def say(table: Table, canonical: str) -> str:
        return text.spell(table, canonical, language, LANGUAGES)

    value = outcome.value
    keyword = say(CHANCE_WORDS, outcome.kind)
    if outcome.kind == "first":
        return f"{keyword} {say(COLOURS, state.config.colours[value[0]])}"
    if outcome.kind == "fill":
        return f"{keyword} {state.board.provinces[value[0]].name} {say(BUILDINGS, Building(value[1]).label)}"
    if outcome.kind == "draw":
        return f"{keyword} {say(BUILDINGS, Building(value[0]).label)}"
    raise ValueError(f"White Lotus has no outcome of chance {outcome.kind!r}")


def drawn(state: State) -> Sequence[Chance]:
    """Every outcome drawn on the way to ``state`` (since it was set up or loaded)."""
    return state.drawn
