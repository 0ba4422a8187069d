"""Die Verbotene Stadt's outcomes of chance as a record writes them (COMMANDS.md "Chance
written down"; :mod:`.dice` says where each is drawn): ``officials rr ry …``, ``pile red hat
coat trousers``, ``first north``, ``roll large red-dragon``, ``pavilion 5``, in English, German
or French words (:mod:`games.rules.chance` reads the line's ``chance:``)."""

from __future__ import annotations

from collections.abc import Sequence

from .. import chance, text
from ..chance import Chance, Value
from ..text import Table
from .constants import DIE_ORDER, FACES, OFFICIALS, PAVILION_DIE
from .state import State
from .words import COLOURS, LANGUAGES, PIECES, SEATS
from .words import colour as garment_colour
from .words import piece as piece_word
from .words import seat as seat_word

CHANCE = {
    "officials": "officials <25 officials, in the order of the start squares>",
    "pile": "pile <colour> <piece> <piece> <piece>",
    "first": "first <seat>",
    "roll": "roll <small|middle|large> <face>",
    "pavilion": "pavilion <1-8>",
}

CHANCE_WORDS: Table = {
    "en": {k: (k,) for k in CHANCE},
    "de": {
        "officials": ("beamte", "beamten"),
        "pile": ("stapel",),
        "first": ("erster", "erste"),
        "roll": ("wurf", "würfle", "wuerfle"),
        "pavilion": ("pavillon",),
    },
    "fr": {
        "officials": ("fonctionnaires", "mandarins"),
        "pile": ("pile",),
        "first": ("premier",),
        "roll": ("lancer", "lance"),
        "pavilion": ("pavillon-cible", "cible"),
    },
}

DICE: Table = {
    "en": {d: (d,) for d in DIE_ORDER},
    "de": {
        "small": ("klein", "kleiner"),
        "middle": ("mittel", "mittlerer"),
        "large": ("groß", "gross", "großer"),
    },
    "fr": {"small": ("petit",), "middle": ("moyen",), "large": ("grand",)},
}

FACE_WORDS: Table = {
    "en": {f: (f,) for f in FACES},
    "de": {
        "black": ("schwarz",),
        "red": ("rot",),
        "red-dragon": ("rot-drache",),
        "red-pavilion": ("rot-pavillon",),
    },
    "fr": {
        "black": ("noir",),
        "red": ("rouge",),
        "red-dragon": ("rouge-dragon",),
        "red-pavilion": ("rouge-pavillon",),
    },
}

# the parts of a state that come from the seed, not from play (a record replayed without its
# seed has other values there and the same game): the seed, the generator's counter, and the
# dials' commitments and the salts shown with them (dice.salt: keyed by the seed)
SEEDED_FIELDS = ("seed", "draws", "commitments", "revealed")

KINDS = chance.kinds_index(CHANCE_WORDS, LANGUAGES)
_DICE = text.index("die", DICE, LANGUAGES)
_FACES = text.index("face", FACE_WORDS, LANGUAGES)


def parse_chance(state: State, line: str) -> Chance:
    """An outcome from its words (after ``chance:``)."""

    def officials(args: list[str]) -> Value:
        codes = tuple(a.casefold() for a in args)
        strays = [a for a in codes if a not in OFFICIALS]
        if strays or len(codes) != len(OFFICIALS):
            raise ValueError(
                f"Name the {len(OFFICIALS)} officials by code (rg: red hat, green robe)"
                + (f"; '{strays[0][:20]}' is not one." if strays else ".")
            )
        return codes

    def pile(args: list[str]) -> Value:
        colour = garment_colour(args[0]) if args else None
        if colour is None or len(args) != 4:
            raise ValueError("Name a pavilion's colour and its three pieces, top first.")
        pieces = [piece_word(a) for a in args[1:]]
        if None in pieces:
            raise ValueError("The pieces are hat, coat and trousers.")
        return (colour, *pieces)

    def first(args: list[str]) -> Value:
        seat = seat_word(args[0]) if len(args) == 1 else None
        if seat is None or seat not in state.config.seats:
            raise ValueError(f"Name one seat of this game ({', '.join(state.config.seats)}).")
        return (state.config.seats.index(seat),)

    def roll(args: list[str]) -> Value:
        die = _DICE.get(text.key(args[0])) if len(args) == 2 else None
        face = _FACES.get(text.key(args[1])) if len(args) == 2 else None
        if die is None or face is None:
            raise ValueError(
                "Name the die (small, middle, large) and its face (black, red, red-dragon, red-pavilion)."
            )
        return (die, face)

    def pavilion(args: list[str]) -> Value:
        if len(args) != 1 or not args[0].isdigit() or not 1 <= int(args[0]) <= PAVILION_DIE:
            raise ValueError("Name the pavilion the blue die shows: 1 to 8.")
        return (int(args[0]),)

    parsers = {"officials": officials, "pile": pile, "first": first, "roll": roll, "pavilion": pavilion}
    return chance.read(line, KINDS, parsers, CHANCE)


def format_chance_in(state: State, outcome: Chance, language: str) -> str:
    """The outcome in ``language``'s words ("erster nord", "wurf groß rot-drache"), as a
    reader of that language writes it; :func:`parse_chance` reads it back.  In English it
    is what a record writes after ``chance:`` (``format_chance``, derived in games.rules.base)."""

    def say(table: Table, canonical: str) -> str:
        return text.spell(table, canonical, language, LANGUAGES)

    if outcome.kind not in CHANCE:
        raise ValueError(f"Die Verbotene Stadt has no outcome of chance {outcome.kind!r}")
    value = outcome.value
    keyword = say(CHANCE_WORDS, outcome.kind)
    if outcome.kind == "first":
        return f"{keyword} {say(SEATS, state.config.seats[value[0]])}"
    if outcome.kind == "pile":
        return " ".join([keyword, say(COLOURS, value[0]), *(say(PIECES, p) for p in value[1:])])
    if outcome.kind == "roll":
        return f"{keyword} {say(DICE, value[0])} {say(FACE_WORDS, value[1])}"
    return " ".join([keyword, *map(str, value)])  # the officials' codes, the pavilion's number


def drawn(state: State) -> Sequence[Chance]:
    """Every outcome drawn on the way to ``state`` (since it was set up or loaded)."""
    return state.drawn
