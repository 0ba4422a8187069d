"""Typed commands: what a seat can decide.  Seats are 0-based ints (0 = north).

Every command has a JSON form (``command_to_dict`` / ``command_from_dict``) for stored events
and a text form (:mod:`.notation`) for mails and game records.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar


@dataclass(frozen=True, slots=True)
class Move:
    """Move one official: slide it ``path[0]`` until blocked, then turn 90° and slide again
    for each further direction.  ``short``: the one-square move from a start square
    (``path`` is then one direction)."""

    kind: ClassVar[str] = "move"
    code: str
    path: tuple[str, ...]
    short: bool = False


@dataclass(frozen=True, slots=True)
class Plan:
    """Moves to make one after another while the fate dice stay red; ``stop``: end the turn
    when they are all made (otherwise the player is asked again)."""

    kind: ClassVar[str] = "plan"
    moves: tuple[Move, ...]
    stop: bool = False


@dataclass(frozen=True, slots=True)
class Stop:
    """End the turn after a red fate die instead of moving again."""

    kind: ClassVar[str] = "stop"


@dataclass(frozen=True, slots=True)
class Dial:
    """Sealed: set the secret dial to an official (bribe it)."""

    kind: ClassVar[str] = "dial"
    code: str


@dataclass(frozen=True, slots=True)
class Keep:
    """Sealed, in the re-bribe window: keep the dial as it is."""

    kind: ClassVar[str] = "keep"


@dataclass(frozen=True, slots=True)
class Believe:
    """Sealed: believe the mover ("Glaubt ihr mir?")."""

    kind: ClassVar[str] = "believe"


@dataclass(frozen=True, slots=True)
class Doubt:
    """Sealed: doubt the mover."""

    kind: ClassVar[str] = "doubt"


@dataclass(frozen=True, slots=True)
class Take:
    """Take the garment card ``colour`` ``piece`` from another player (a dragon, the penalty
    of a challenge, an empty pavilion)."""

    kind: ClassVar[str] = "take"
    colour: str
    piece: str


@dataclass(frozen=True, slots=True)
class Spare:
    """A dragon's roller takes no card."""

    kind: ClassVar[str] = "spare"


Command = Move | Plan | Stop | Dial | Keep | Believe | Doubt | Take | Spare

KINDS: dict[str, type] = {c.kind: c for c in (Move, Plan, Stop, Dial, Keep, Believe, Doubt, Take, Spare)}

# The commands that are their keyword alone (the notation and the stored form read them).
SIMPLE: dict[str, Command] = {
    "stop": Stop(),
    "keep": Keep(),
    "believe": Believe(),
    "doubt": Doubt(),
    "spare": Spare(),
}


def command_to_dict(command: Command) -> dict[str, Any]:
    c = command
    if isinstance(c, Move):
        return {"kind": "move", "code": c.code, "path": list(c.path), "short": c.short}
    if isinstance(c, Plan):
        return {"kind": "plan", "moves": [command_to_dict(m) for m in c.moves], "stop": c.stop}
    if isinstance(c, Dial):
        return {"kind": "dial", "code": c.code}
    if isinstance(c, Take):
        return {"kind": "take", "colour": c.colour, "piece": c.piece}
    return {"kind": c.kind}


def command_from_dict(data: Mapping[str, Any]) -> Command:
    kind = data.get("kind")
    if kind == "move":
        return Move(str(data["code"]), tuple(map(str, data["path"])), bool(data.get("short", False)))
    if kind == "plan":
        moves = tuple(command_from_dict(m) for m in data["moves"])
        if not all(isinstance(m, Move) for m in moves):
            raise ValueError("a plan holds moves only")
        return Plan(tuple(m for m in moves if isinstance(m, Move)), bool(data.get("stop", False)))
    if kind == "dial":
        return Dial(str(data["code"]))
    if kind == "take":
        return Take(str(data["colour"]), str(data["piece"]))
    if isinstance(kind, str) and kind in SIMPLE:
        return SIMPLE[kind]
    raise ValueError(f"unknown command kind {kind!r}")
