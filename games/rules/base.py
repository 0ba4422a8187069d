"""The rules-module contract every game implements (after Rally the Troops and boardgame.io).

A rules module is a set of pure functions over immutable values::

    setup(config, seed) -> State
    pending(state) -> tuple[Decision, ...]      who must decide what now
    legal(state, seat) -> tuple[Command, ...]   the menu of that seat
    apply(state, seat, command) -> (State, [LogEntry])   or raises IllegalCommand
    view(state, seat | None) -> dict           what that seat (or a spectator) may see
    default(state, seat) -> Command            what a missed deadline plays
    outcome(state) -> Outcome | None           scores and ranking once finished

plus a text notation (``parse_command`` / ``format_command``) that round-trips, used for
mail commands and game records.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any, NamedTuple, Protocol, TypeVar


class IllegalCommand(Exception):
    """A command that is not allowed now.

    ``str(error)`` is written for the player and can be mailed back as it is: it says what
    was wrong and what would be legal.  ``legal`` holds the legal commands in notation.
    """

    def __init__(self, message: str, legal: Sequence[str] = ()) -> None:
        super().__init__(message)
        self.message = message
        self.legal = tuple(legal)


class Decision(NamedTuple):
    """One seat owes one decision.

    ``sealed`` decisions are taken simultaneously and stay hidden until all are in; a seat
    may change its sealed choice until then (it is no longer *pending* once submitted).
    """

    seat: int
    kind: str
    sealed: bool = False


class LogEntry(NamedTuple):
    """Something that happened, as structured data (rendered to text per language later).

    ``private_to`` is None for public entries, or the only seat allowed to see it.
    (Decision and LogEntry are named tuples: replay builds many and they are cheap.)
    """

    kind: str
    data: Mapping[str, Any] = MappingProxyType({})
    private_to: int | None = None

    def visible_to(self, seat: int | None) -> bool:
        return self.private_to is None or self.private_to == seat


@dataclass(frozen=True, slots=True)
class Outcome:
    """Final scores (per seat, with a breakdown) and the ranking: ``rank[seat]`` is 1 for
    the winner(s); tied seats share a rank."""

    scores: tuple[int, ...]
    breakdown: tuple[Mapping[str, int], ...]
    rank: tuple[int, ...]

    @property
    def winners(self) -> tuple[int, ...]:
        return tuple(s for s, r in enumerate(self.rank) if r == 1)


S = TypeVar("S")
C = TypeVar("C")


class RulesModule(Protocol[S, C]):
    """What the service (games/services.py) needs from a game."""

    name: str

    def setup(self, config: Any, seed: str) -> S: ...
    def pending(self, state: S) -> tuple[Decision, ...]: ...
    def legal(self, state: S, seat: int) -> tuple[C, ...]: ...
    def apply(self, state: S, seat: int, command: C) -> tuple[S, list[LogEntry]]: ...
    def view(self, state: S, seat: int | None) -> dict[str, Any]: ...
    def default(self, state: S, seat: int) -> C: ...
    def outcome(self, state: S) -> Outcome | None: ...
    def parse_command(self, state: S, text: str) -> C: ...
    def format_command(self, state: S, command: C) -> str: ...
