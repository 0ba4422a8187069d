"""The components of Die Verbotene Stadt as data (seed 003; RULES.md says where each comes from).

The fate dice are the one thing the seed does not give (open point 1): their faces are chosen
here, as data, and RULES.md documents the choice.  A face is ``black`` (the turn ends), ``red``
(the active player may move again), ``red-dragon`` (red, and the roller takes a card) or
``red-pavilion`` (red, and a new target pavilion is rolled before the next move).
"""

from __future__ import annotations

from collections.abc import Mapping

# The seats, in seat (clockwise) order: the four winds.
SEATS = ("north", "east", "south", "west")

# The officials: 5 hat colours x 5 robe colours; a code is hat initial + robe initial, black "k".
OFFICIAL_COLOURS = ("red", "yellow", "blue", "green", "black")
INITIAL = {"red": "r", "yellow": "y", "blue": "b", "green": "g", "black": "k"}
COLOUR_OF_INITIAL = {v: k for k, v in INITIAL.items()}
OFFICIALS: tuple[str, ...] = tuple(
    INITIAL[h] + INITIAL[r] for h in OFFICIAL_COLOURS for r in OFFICIAL_COLOURS
)


def hat(code: str) -> str:
    return COLOUR_OF_INITIAL[code[0]]


def robe(code: str) -> str:
    return COLOUR_OF_INITIAL[code[1]]


# The garment cards: the colours of the pavilions 1-8 and the three pieces of each.
GARMENT_COLOURS = ("red", "orange", "yellow", "white", "blue", "purple", "green", "black")
PIECES = ("hat", "coat", "trousers")
Card = tuple[str, str]  # (colour, piece)
CARDS: tuple[Card, ...] = tuple((c, p) for c in GARMENT_COLOURS for p in PIECES)

# The fate dice, smallest first.  Six faces each; the chance of going on (a red face) falls
# from 5/6 to 4/6 to 3/6, and each die has one dragon and one pavilion face.
FATE_DICE: Mapping[str, tuple[str, ...]] = {
    "small": ("red", "red", "red", "red-dragon", "red-pavilion", "black"),
    "middle": ("red", "red", "red-dragon", "red-pavilion", "black", "black"),
    "large": ("red", "red-dragon", "red-pavilion", "black", "black", "black"),
}
DIE_ORDER = ("small", "middle", "large")
FACES = ("black", "red", "red-dragon", "red-pavilion")
PAVILION_DIE = 8  # the blue d8: faces 1-8, the pavilions' numbers

TERRACE_PLACES = 15  # the game ends when the 15th official reaches the terrace
TAKE_ALL_FROM = 10  # from then on an entry takes all the cards of the target pavilion

# Scoring (seed 003, "Ende des Spiels").
SINGLE, PAIR, TRIPLE, SUIT = 1, 4, 10, 6

MAX_TURNS_IN_A_MOVE = 12  # the most slides one move may have with the option many_turns
MAX_PLAN = 20  # the most moves one plan may hold
