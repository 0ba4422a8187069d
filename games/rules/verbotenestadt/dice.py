"""The server's dice and lots, drawn from the game's seeded generator (games.rules.rng), or
given by a record that writes chance down (games.rules.chance).

The outcomes, as a record writes them (``chance: …``, COMMANDS.md "Chance written down"):

``officials <25 codes>``          the officials on the start squares, in the board's order of
                                  them (BOARD.md)
``pile <colour> <3 pieces>``      a pavilion's face-down cards, top first, one line per
                                  pavilion in pavilion order (red … black)
``first <seat>``                  the seat the roll-off for the start player begins at
``roll <die> <face>``             a fate die (small, middle, large) and its face
``pavilion <1-8>``                the blue die: the target pavilion

Each draw advances ``State.draws``; replaying the same commands draws the same numbers.  Dial
salts come from their own stream (keyed by the seed, the seat and how often its dial has been
committed: at every window it was in, kept or not), so that setting or keeping a dial never
moves the dice.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

from .. import chance, rng
from ..base import Message
from ..chance import Value
from .constants import CARDS, FATE_DICE, GARMENT_COLOURS, OFFICIALS, PAVILION_DIE, PIECES
from .state import State, evolve

T = TypeVar("T")


def below(state: State, n: int) -> tuple[int, State]:
    value, counter = rng.randbelow(state.seed, state.draws, n)
    return value, evolve(state, draws=counter)


def shuffle(state: State, items: Sequence[T]) -> tuple[list[T], State]:
    out, counter = rng.shuffled(state.seed, state.draws, items)
    return out, evolve(state, draws=counter)


def _draw(
    state: State, kind: str, seeded: Any, check: Any, need: Callable[[], tuple[Message, list[str]]]
) -> tuple[Value, State]:
    """``need``: what the game draws here and the possible outcome lines, made only when a
    draw is missing or wrong (replay never makes them)."""
    return chance.draw(state, kind, seeded, check=check, need=lambda _written: need(), evolve=evolve)


def officials(state: State) -> tuple[tuple[str, ...], State]:
    """The officials in the order of the board's start squares, placed by lot."""

    def seeded(s: State) -> tuple[Value, State]:
        order, s = shuffle(s, OFFICIALS)
        return tuple(order), s

    def check(value: Value) -> Message | None:
        if sorted(value) != sorted(OFFICIALS):
            missing = sorted(set(OFFICIALS) - set(value))
            return Message(
                "Name each of the 25 officials once, in the order of the start squares (missing: {missing}).",
                missing=" ".join(missing) or "none, but one is named twice",
            )
        return None

    def need() -> tuple[Message, list[str]]:
        what = Message(
            "The officials are placed on the 25 start squares by lot here: write 'chance: officials' "
            "and the 25 codes in the order of the start squares."
        )
        return what, ["chance: officials " + " ".join(OFFICIALS)]

    value, state = _draw(state, "officials", seeded, check, need)
    return tuple(str(v) for v in value), state


def pile(state: State, colour: str) -> tuple[tuple[str, ...], State]:
    """The pieces of a pavilion's three face-down cards, top first, shuffled."""

    def seeded(s: State) -> tuple[Value, State]:
        cards, s = shuffle(s, [c for c in CARDS if c[0] == colour])
        return (colour, *(piece for _, piece in cards)), s

    def check(value: Value) -> Message | None:
        if not value or value[0] != colour:
            return Message("The {colour} pile is dealt here.", colour=colour)
        if sorted(value[1:]) != sorted(PIECES):
            return Message("A pile holds a hat, a coat and trousers, each once, top first.")
        return None

    def need() -> tuple[Message, list[str]]:
        what = Message(
            "The {colour} pavilion's cards are shuffled here: write 'chance: pile {colour}' and its three "
            "pieces, top first.",
            colour=colour,
        )
        return what, [f"chance: pile {colour} {' '.join(PIECES)}"]

    value, state = _draw(state, "pile", seeded, check, need)
    return tuple(str(v) for v in value[1:]), state


def first(state: State) -> tuple[int, State]:
    """The seat the roll-off for the start player begins at, by lot."""
    n = state.players
    if chance.from_seed(state):
        seat, counter = rng.randbelow(state.seed, state.draws, n)
        return seat, chance.noted(state, "first", (seat,), evolve, draws=counter)

    def seeded(s: State) -> tuple[Value, State]:
        value, s = below(s, n)
        return (value,), s

    def check(value: Value) -> Message | None:
        ok = len(value) == 1 and isinstance(value[0], int) and 0 <= value[0] < n
        return None if ok else Message("That is not a seat of this game.")

    def need() -> tuple[Message, list[str]]:
        what = Message(
            "The roll-off for the start player begins at a seat drawn by lot here: "
            "write 'chance: first <seat>'."
        )
        return what, [f"chance: first {s}" for s in state.config.seats]

    value, state = _draw(state, "first", seeded, check, need)
    return int(value[0]), state


def fate(state: State, die: str) -> tuple[str, State]:
    faces = FATE_DICE[die]
    if chance.from_seed(state):  # what the draw below makes, without its checks and texts
        i, counter = rng.randbelow(state.seed, state.draws, len(faces))
        return faces[i], chance.noted(state, "roll", (die, faces[i]), evolve, draws=counter)

    def seeded(s: State) -> tuple[Value, State]:
        i, s = below(s, len(faces))
        return (die, faces[i]), s

    def check(value: Value) -> Message | None:
        if len(value) != 2 or value[0] != die:
            return Message("The {die} fate die is rolled here.", die=die)
        if value[1] not in faces:
            return Message("The {die} fate die has no face {face}.", die=die, face=str(value[1]))
        return None

    def need() -> tuple[Message, list[str]]:
        what = Message("The {die} fate die is rolled here: write 'chance: roll {die} <face>'.", die=die)
        return what, [f"chance: roll {die} {f}" for f in sorted(set(faces))]

    value, state = _draw(state, "roll", seeded, check, need)
    return str(value[1]), state


def pavilion(state: State) -> tuple[int, State]:
    if chance.from_seed(state):  # what the draw below makes, without its checks and texts
        i, counter = rng.randbelow(state.seed, state.draws, PAVILION_DIE)
        return i + 1, chance.noted(state, "pavilion", (i + 1,), evolve, draws=counter)

    def seeded(s: State) -> tuple[Value, State]:
        i, s = below(s, PAVILION_DIE)
        return (i + 1,), s

    def check(value: Value) -> Message | None:
        ok = len(value) == 1 and isinstance(value[0], int) and 1 <= value[0] <= PAVILION_DIE
        return None if ok else Message("The blue die shows 1 to 8.")

    def need() -> tuple[Message, list[str]]:
        what = Message("The blue die is rolled for the target pavilion here: write 'chance: pavilion <1-8>'.")
        return what, [f"chance: pavilion {n}" for n in range(1, 9)]

    value, state = _draw(state, "pavilion", seeded, check, need)
    return int(value[0]), state


assert len(GARMENT_COLOURS) == PAVILION_DIE


def salt(seed: str, seat: int, sets: int) -> str:
    """The salt of a seat's ``sets``-th dial commitment: secret while the seed is."""
    message = f"verbotenestadt:dial:{seat}:{sets}".encode()
    return rng.hmac_sha256(seed, message).hex()[:16]


def commitment(seat: int, code: str, salt_: str) -> str:
    """sha256 of the canonical ``[seat, code, salt]`` (JSON, no spaces): published when a dial
    is set, so that anyone can check the dial when it is shown with its salt."""
    if type(seat) is int and code in _PLAIN_CODES and _HEX.issuperset(salt_):
        canonical = f'[{seat},"{code}","{salt_}"]'  # what json.dumps writes for these, faster
    else:
        canonical = json.dumps([seat, code, salt_], separators=(",", ":"))
    return hashlib.sha256(canonical.encode()).hexdigest()


_PLAIN_CODES = frozenset(OFFICIALS)  # letters only: JSON writes them as they are
_HEX = frozenset("0123456789abcdef")


def lot(seed: str, *parts: object) -> int:
    """A number for a deterministic choice that must not move the dice (defaults)."""
    message = ":".join(str(p) for p in ("verbotenestadt:lot", *parts)).encode()
    return int.from_bytes(rng.hmac_sha256(seed, message)[:8], "big")
