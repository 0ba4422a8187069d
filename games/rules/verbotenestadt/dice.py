"""The server's dice and lots, drawn from the game's seeded generator (games.rules.rng).

Each draw advances ``State.draws``; replaying the same commands draws the same numbers.  Dial
salts come from their own stream (keyed by the seed, the seat and how often its dial has been
committed: at every window it was in, kept or not), so that setting or keeping a dial never
moves the dice.
"""

from __future__ import annotations

import hashlib
import hmac
import json
from collections.abc import Sequence
from typing import TypeVar

from .. import rng
from .constants import FATE_DICE, PAVILION_DIE
from .state import State, evolve

T = TypeVar("T")


def below(state: State, n: int) -> tuple[int, State]:
    value, counter = rng.randbelow(state.seed, state.draws, n)
    return value, evolve(state, draws=counter)


def shuffle(state: State, items: Sequence[T]) -> tuple[list[T], State]:
    out, counter = rng.shuffled(state.seed, state.draws, items)
    return out, evolve(state, draws=counter)


def fate(state: State, die: str) -> tuple[str, State]:
    faces = FATE_DICE[die]
    i, state = below(state, len(faces))
    return faces[i], state


def pavilion(state: State) -> tuple[int, State]:
    i, state = below(state, PAVILION_DIE)
    return i + 1, state


def salt(seed: str, seat: int, sets: int) -> str:
    """The salt of a seat's ``sets``-th dial commitment: secret while the seed is."""
    message = f"verbotenestadt:dial:{seat}:{sets}".encode()
    return hmac.new(seed.encode("utf-8"), message, hashlib.sha256).hexdigest()[:16]


def commitment(seat: int, code: str, salt_: str) -> str:
    """sha256 of the canonical ``[seat, code, salt]`` (JSON, no spaces): published when a dial
    is set, so that anyone can check the dial when it is shown with its salt."""
    canonical = json.dumps([seat, code, salt_], separators=(",", ":"))
    return hashlib.sha256(canonical.encode()).hexdigest()


def lot(seed: str, *parts: object) -> int:
    """A number for a deterministic choice that must not move the dice (defaults)."""
    message = ":".join(str(p) for p in ("verbotenestadt:lot", *parts)).encode()
    return int.from_bytes(hmac.new(seed.encode("utf-8"), message, hashlib.sha256).digest()[:8], "big")
