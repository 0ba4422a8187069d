"""A version-stable random generator: HMAC-SHA256 of a counter, keyed by the game's seed.

The same seed and counter give the same numbers on every Python and every platform, which is
what replay needs; the counter lives in the game state, so drawing is a pure function
``(seed, counter) -> (value, next counter)``.  Uniform integers use rejection sampling, so
there is no modulo bias.

Versioned (COMMANDS.md "Checking the draws").  A game's first event names the generator
(``"rng"``, an id of :data:`ALGORITHMS`) and how its draw seed is made (``"draws"``, an id of
:data:`DRAWS`); a game created before either was named reads as :data:`RNG` and
:data:`PLAIN` (the server's seed is the draw seed), which is what it was played with.  An id
this code does not know is refused (:class:`UnknownAlgorithm`), never guessed at.

``mixed/1`` (:func:`mixed_seed`): the draw seed is HMAC-SHA256 keyed by the server's seed over
the players' contributions, so neither side alone chooses the draws.  The server publishes
``sha256(server seed)`` when the game is created; each seat's contribution is a digest of what
its player wrote (:func:`contribution`) before the game starts; the game's ``started`` event
lists the contributions used, before any draw is made; the seed is shown when the game is
over, and anyone can recompute the chain (``games.rules.verify``).

Why it holds: the server's seed is fixed (by its published hash) before any contribution
exists, and the players never see it before the end, so no player can aim the draws; the
server cannot undo its seed, and a contribution's value is the digest of what its player
wrote and of the Message-ID their own mail client chose (no received time: that would be a
knob the server turns).  What is left to the server is leaving out a contribution that
arrived; its player holds the answer that told its value and sees the list the start
publishes, so that cannot pass unseen.
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Iterable, Mapping, Sequence
from functools import lru_cache
from typing import Any, TypeVar

T = TypeVar("T")

_SPAN = 1 << 64


# the generators, by the id a game's first event names; ``randbelow`` below is the only one
RNG = "hmac-sha256-counter/1"
ALGORITHMS = (RNG,)
# how a game's draw seed is made from its server seed: ``plain`` (the server seed itself: every
# game created before draws were mixed, whose first event says nothing) or ``mixed/1``
PLAIN = "plain"
MIXED = "mixed/1"
DRAWS = (PLAIN, MIXED)
_HEX64 = frozenset("0123456789abcdef")


class UnknownAlgorithm(ValueError):
    """A generator or draw-seed recipe this code does not have: the game cannot be replayed
    (or verified) here."""


def check_algorithms(rng: str | None, draws: str | None) -> tuple[str, str]:
    """The ids of a game's generator and draw-seed recipe, the first recipes' for those not
    named (a game stored before the recipes were named); an unknown one raises
    :class:`UnknownAlgorithm` naming the known ones."""
    rng = rng or RNG
    draws = draws or PLAIN
    if rng not in ALGORITHMS:
        raise UnknownAlgorithm(f"unknown random generator {rng!r} (this code knows {', '.join(ALGORITHMS)})")
    if draws not in DRAWS:
        raise UnknownAlgorithm(f"unknown way of making the draw seed {draws!r} (known: {', '.join(DRAWS)})")
    return rng, draws


def contribution(text: str, message_id: str) -> str:
    """A player's contribution to the draws: the SHA-256 of what they wrote after ``ready``
    and the Message-ID of their mail (both theirs: the player can recompute it, and the server
    has nothing of its own to put in — a received time would let it pick among values)."""
    return hashlib.sha256(f"{text.strip()}\n{message_id.strip()}".encode()).hexdigest()


def is_contribution(value: object) -> bool:
    """A contribution as it is stored and listed: 64 lower-case hex digits."""
    return isinstance(value, str) and len(value) == 64 and set(value) <= _HEX64


def mixed_seed(server_seed: str, contributions: Mapping[int, str] | Iterable[tuple[int, str]]) -> str:
    """The draw seed of a ``mixed/1`` game: HMAC-SHA256 keyed by the server's seed over the
    text ``draws:mixed/1`` and one ``<seat>=<contribution>`` line per seat, by seat, as hex.

    Without contributions (nobody answered in time, or the game started at once) the draws
    rest on the server's seed alone, and the draw seed is that seed itself: a game started at
    once draws exactly as it did before draws were mixed, and the published hash is the hash
    of its draw seed."""
    pairs = sorted(dict(contributions).items())
    for seat, value in pairs:
        if not isinstance(seat, int) or seat < 0 or not is_contribution(value):
            raise ValueError(f"not a contribution: seat {seat!r}, value {value!r}")
    if not pairs:
        return server_seed
    text = "draws:mixed/1\n" + "".join(f"{seat}={value}\n" for seat, value in pairs)
    return hmac.new(server_seed.encode("utf-8"), text.encode("ascii"), hashlib.sha256).hexdigest()


def draw_seed(
    server_seed: str, draws: str | None, contributions: Mapping[int, str] | Iterable[tuple[int, str]] = ()
) -> str:
    """The seed the game's draws are made with: the server seed itself for an old
    (``plain``) game, :func:`mixed_seed` for a ``mixed/1`` one."""
    _, draws = check_algorithms(None, draws)
    if draws == PLAIN:
        return server_seed
    return mixed_seed(server_seed, contributions)


@lru_cache(maxsize=64)
def _pads(key: str) -> tuple[Any, Any]:
    """SHA-256 states after HMAC's inner and outer key pads (RFC 2104), for ``key``: a draw
    then costs two hash copies instead of a new HMAC object (replay draws hundreds)."""
    raw = key.encode("utf-8")
    if len(raw) > _BLOCK:
        raw = hashlib.sha256(raw).digest()
    raw = raw.ljust(_BLOCK, b"\0")
    return hashlib.sha256(raw.translate(_IPAD)), hashlib.sha256(raw.translate(_OPAD))


_BLOCK = 64  # SHA-256's block size
_IPAD = bytes(x ^ 0x36 for x in range(256))
_OPAD = bytes(x ^ 0x5C for x in range(256))


def hmac_sha256(key: str, message: bytes) -> bytes:
    """``hmac.new(key.encode(), message, hashlib.sha256).digest()``, faster for a key used
    again and again (a game's seed)."""
    inner, outer = _pads(key)
    h = inner.copy()
    h.update(message)
    o = outer.copy()
    o.update(h.digest())
    digest: bytes = o.digest()
    return digest


def randbelow(seed: str, counter: int, n: int) -> tuple[int, int]:
    """A uniform integer in ``range(n)`` and the next counter."""
    if n <= 0:
        raise ValueError("randbelow needs n > 0")
    limit = _SPAN - (_SPAN % n)
    inner, outer = _pads(seed)
    # x: the first 8 bytes of hmac_sha256(seed, b"whitelotus:<counter>"), big-endian, with the
    # HMAC written out (every draw of every replay comes here)
    while True:
        h = inner.copy()
        h.update(b"whitelotus:%d" % counter)
        o = outer.copy()
        o.update(h.digest())
        x = int.from_bytes(o.digest()[:8], "big")
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
        x = int.from_bytes(hmac_sha256(seed, message)[:8], "big")
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
