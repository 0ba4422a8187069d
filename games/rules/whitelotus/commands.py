"""Typed commands: what a seat can decide.  Seats are 0-based ints, areas 0-based indexes.

Every command has a JSON form (``to_dict``/``command_from_dict``) for stored events, and a
text form (see :mod:`.notation`) for mails and game records.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import asdict, dataclass, fields
from typing import Any, ClassVar


@dataclass(frozen=True, slots=True)
class Place:
    """Put a control marker on an area holding a neutral tile (phase 1)."""

    kind: ClassVar[str] = "place"
    area: int


@dataclass(frozen=True, slots=True)
class Pass:
    """Designer placement: discard a marker for this turn instead of placing it."""

    kind: ClassVar[str] = "pass"


@dataclass(frozen=True, slots=True)
class Resolve:
    """The emperor names the next contested area."""

    kind: ClassVar[str] = "resolve"
    area: int


@dataclass(frozen=True, slots=True)
class Bid:
    """Sealed: a dragon card against ``target`` plus ``amount`` influence points."""

    kind: ClassVar[str] = "bid"
    target: int
    amount: int


@dataclass(frozen=True, slots=True)
class Out:
    """The emperor breaks a tie: ``target`` must take back the marker."""

    kind: ClassVar[str] = "out"
    target: int


@dataclass(frozen=True, slots=True)
class Lead:
    """Kosmos: accept the emperor's question and lead a rebellion."""

    kind: ClassVar[str] = "lead"


@dataclass(frozen=True, slots=True)
class Decline:
    """Kosmos: decline to lead a rebellion."""

    kind: ClassVar[str] = "decline"


@dataclass(frozen=True, slots=True)
class Side:
    """Sealed: fight with the rebels (dragon card of the emperor) or with the emperor."""

    kind: ClassVar[str] = "side"
    rebels: bool


@dataclass(frozen=True, slots=True)
class Army:
    """Sealed: commit ``amount`` army points to the rebellion."""

    kind: ClassVar[str] = "army"
    amount: int


@dataclass(frozen=True, slots=True)
class Take:
    """Spoils: take a loser's area, swapping in a chip of the same building."""

    kind: ClassVar[str] = "take"
    area: int


@dataclass(frozen=True, slots=True)
class First:
    """Designer: the emperor decides which of the tied winners picks spoils next."""

    kind: ClassVar[str] = "first"
    seat: int


@dataclass(frozen=True, slots=True)
class PalaceChoice:
    """New cards: ``army`` of your palaces give 1 army point, the others 2 influence."""

    kind: ClassVar[str] = "palace"
    army: int


@dataclass(frozen=True, slots=True)
class Tile:
    """Kosmos phase 6: put the tile you drew on an empty area next to a tile."""

    kind: ClassVar[str] = "tile"
    area: int


@dataclass(frozen=True, slots=True)
class Draw:
    """Kosmos phase 6: take a temple's extra draw (``temple_draw="may"``; ``pass`` declines).
    Written ``tile`` without a province (no keyword of its own: a short one such as "draw"
    would make a signature like "Drew" or "Dora" look like a mistyped command)."""

    kind: ClassVar[str] = "draw"


@dataclass(frozen=True, slots=True)
class Give:
    """Negotiation variant: give points to another seat."""

    kind: ClassVar[str] = "give"
    to: int
    amount: int
    army: bool


Command = (
    Place
    | Pass
    | Resolve
    | Bid
    | Out
    | Lead
    | Decline
    | Side
    | Army
    | Take
    | First
    | PalaceChoice
    | Tile
    | Draw
    | Give
)
COMMAND_TYPES: dict[str, type[Command]] = {
    t.kind: t
    for t in (
        Place,
        Pass,
        Resolve,
        Bid,
        Out,
        Lead,
        Decline,
        Side,
        Army,
        Take,
        First,
        PalaceChoice,
        Tile,
        Draw,
        Give,
    )
}


def command_to_dict(command: Command) -> dict[str, Any]:
    return {"type": command.kind, **asdict(command)}


def _decoder(cls: type[Command]) -> Callable[[Mapping[str, Any]], Command]:
    """The command of kind ``cls`` from its stored fields (a missing one: KeyError).  One per
    kind, made once: replay decodes every stored command."""
    names = tuple(f.name for f in fields(cls))
    make: Callable[..., Command] = cls
    if not names:
        command = make()  # frozen and without fields: one value serves every event
        return lambda data: command
    if len(names) == 1:
        (a,) = names
        return lambda data: make(data[a])
    if len(names) == 2:
        a, b = names
        return lambda data: make(data[a], data[b])
    return lambda data: make(*[data[name] for name in names])


_DECODERS = {kind: _decoder(t) for kind, t in COMMAND_TYPES.items()}


def command_from_dict(data: Mapping[str, Any]) -> Command:
    try:
        return _DECODERS[data["type"]](data)
    except KeyError as exc:
        raise ValueError(f"not a White Lotus command: {dict(data)!r}") from exc
