"""A version-stable random generator: HMAC-SHA256 of a counter, keyed by the game's seed.

The same seed and counter give the same numbers on every Python and every platform, which is
what replay needs; the counter lives in the game state, so drawing is a pure function
``(seed, counter) -> (value, next counter)``.  Uniform integers use rejection sampling, so
there is no modulo bias.
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Sequence
from typing import TypeVar

T = TypeVar("T")

_SPAN = 1 << 64


def _block(seed: str, counter: int) -> int:
    digest = hmac.new(seed.encode("utf-8"), b"whitelotus:%d" % counter, hashlib.sha256).digest()
    return int.from_bytes(digest[:8], "big")


def randbelow(seed: str, counter: int, n: int) -> tuple[int, int]:
    """A uniform integer in ``range(n)`` and the next counter."""
    if n <= 0:
        raise ValueError("randbelow needs n > 0")
    limit = _SPAN - (_SPAN % n)
    while True:
        x = _block(seed, counter)
        counter += 1
        if x < limit:
            return x % n, counter


def shuffled(seed: str, counter: int, items: Sequence[T]) -> tuple[list[T], int]:
    """A Fisher-Yates shuffle of ``items`` and the next counter."""
    out = list(items)
    for i in range(len(out) - 1, 0, -1):
        j, counter = randbelow(seed, counter, i + 1)
        out[i], out[j] = out[j], out[i]
    return out, counter


def lot(seed: str, label: str, n: int) -> int:
    """A uniform integer in ``range(n)`` drawn by lot for one named decision.

    A pure function of the seed and ``label`` (which names the decision: the year, the
    phase, the area, the seats concerned ...): it does not touch the game's counter, so a
    lot changes no later draw, and two decisions with different labels are independent.
    The deadline defaults use it to settle ties between seats fairly instead of by seat
    order; the command a default chose is stored with the move anyway, so replay never
    draws a lot again.  Its keyed messages (``lot:<label>:<try>``) never collide with the
    counter's (``whitelotus:<n>``)."""
    if n <= 0:
        raise ValueError("lot needs n > 0")
    limit = _SPAN - (_SPAN % n)
    attempt = 0
    while True:
        message = f"lot:{label}:{attempt}".encode()
        x = int.from_bytes(hmac.new(seed.encode("utf-8"), message, hashlib.sha256).digest()[:8], "big")
        if x < limit:
            return x % n
        attempt += 1


def seed_digest(seed: str) -> str:
    """What may be published at the start so players can verify the draws at the end."""
    return hashlib.sha256(seed.encode("utf-8")).hexdigest()


class Stream:
    """A player program's own draws: the same generator under its own key (not the game's
    seed), the counter kept between calls.  Deterministic for the key: a bot built with the
    same key makes the same choices.  The bots of every game draw through it."""

    def __init__(self, key: str) -> None:
        self.key = key
        self.counter = 0

    def below(self, n: int) -> int:
        """A uniform integer in ``range(n)``."""
        value, self.counter = randbelow(self.key, self.counter, n)
        return value

    def chance(self, n: int) -> bool:
        """True one time in ``n``."""
        return self.below(n) == 0

    def pick(self, items: Sequence[T]) -> T:
        """One of ``items``, uniformly."""
        return items[self.below(len(items))]
