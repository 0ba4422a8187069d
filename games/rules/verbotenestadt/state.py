"""The game state: an immutable value, changed only by :mod:`.engine` (``evolve``).

Everything in it is JSON-able through ``to_dict`` / ``State.from_dict``; the board itself is
kept in the config (by name and digest in stored games).  Hidden parts: the dials (each seat
sees only its own), the sealed answers of an open window and the order of the face-down cards
in the pavilions; :mod:`.views` shows each seat only what it may see.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, fields
from typing import TYPE_CHECKING, Any

from .board import Board, Square
from .commands import Move, command_from_dict, command_to_dict
from .constants import MAX_TURNS_IN_A_MOVE, OFFICIALS, SEATS, Card

EDITIONS = ("ravensburger",)


@dataclass(frozen=True, slots=True)
class Options:
    """``partners``: the 4-player variant, opposite seats (north+south, east+west) play
    together and add their points.  ``many_turns``: a move may turn again after every slide
    (up to ``MAX_TURNS_IN_A_MOVE`` slides); by default it turns at most once, the literal
    reading of seed 003's "im rechten Winkel nach rechts oder links weiterziehen – wieder bis
    zum nächsten Hindernis" (RULES.md open point 3)."""

    partners: bool = False
    many_turns: bool = False

    @classmethod
    def from_data(cls, data: Mapping[str, Any]) -> Options:
        """Options from stored or given data; the former ``one_turn`` (whose default was
        many turns) still reads: ``one_turn: false`` is ``many_turns: true``."""
        values = dict(data)
        if "one_turn" in values:
            one_turn = bool(values.pop("one_turn"))
            values.setdefault("many_turns", not one_turn)
        return cls(**values)


@dataclass(frozen=True, slots=True)
class Config:
    board: Board
    seats: tuple[str, ...]  # what the seats are called, in seat order: "north", "east", ...
    edition: str = "ravensburger"
    options: Options = field(default_factory=Options)
    first_seat: int | None = None  # None: "first red on the large die", rolled by the server

    def __post_init__(self) -> None:
        if not 2 <= len(self.seats) <= 4:
            raise ValueError("Die Verbotene Stadt is played by 2 to 4 players")
        if self.edition not in EDITIONS:
            raise ValueError(f"unknown edition {self.edition!r} (known: {', '.join(EDITIONS)})")
        if self.options.partners and len(self.seats) != 4:
            raise ValueError("the partner variant needs 4 players")
        if self.first_seat is not None and not 0 <= self.first_seat < len(self.seats):
            raise ValueError("first_seat must be a seat")

    @property
    def players(self) -> int:
        return len(self.seats)

    @property
    def max_slides(self) -> int:
        return MAX_TURNS_IN_A_MOVE if self.options.many_turns else 2

    def partner(self, seat: int) -> int | None:
        return (seat + 2) % 4 if self.options.partners else None

    def to_dict(self) -> dict[str, Any]:
        return {
            "board": self.board.name,
            "board_digest": self.board.digest,
            "seats": list(self.seats),
            "edition": self.edition,
            "options": {f.name: getattr(self.options, f.name) for f in fields(Options)},
            "first_seat": self.first_seat,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any], board: Board) -> Config:
        return cls(
            board=board,
            seats=tuple(data.get("seats") or SEATS[: int(data.get("players", 4))]),
            edition=str(data.get("edition", "ravensburger")),
            options=Options.from_data(data.get("options") or {}),
            first_seat=data.get("first_seat"),
        )


@dataclass(frozen=True, slots=True)
class Entry:
    """An official entering the target pavilion, while its consequences are settled."""

    mover: int
    code: str
    pavilion: int
    honest: bool
    take_all: bool


@dataclass(frozen=True)
class State:  # no slots: evolve copies the instance dict (see below)
    config: Config
    seed: str
    draws: int  # the counter of the seeded generator (games.rules.rng)
    squares: tuple[Square | None, ...]  # each official's square (OFFICIALS order); None: terrace
    terrace: tuple[str, ...]  # officials in the order they arrived
    piles: tuple[tuple[Card, ...], ...]  # the face-down cards of pavilions 1-8, top first
    hands: tuple[tuple[Card, ...], ...]  # each seat's cards, face up, in the order taken
    dials: tuple[str | None, ...]  # each seat's secret dial
    dial_sets: tuple[int, ...]  # how often each seat's dial was committed (numbers the salts)
    commitments: tuple[str, ...]  # sha256 of each seat's current dial (public)
    phase: str  # "dial", "move", "take", "challenge", "finished"
    active: int = 0
    target: int | None = None
    moves: int = 0  # moves made in this turn
    turn: int = 0
    fate_last: tuple[str, str] | None = None  # (die, face) of the last fate roll
    last_move: tuple[str, tuple[Square, ...]] | None = None  # (code, squares passed)
    plan: tuple[Move, ...] = ()
    plan_stop: bool = False
    window: tuple[tuple[int, str], ...] = ()  # (seat, kind) owing a sealed decision now
    sealed: tuple[str | None, ...] = ()  # each seat's sealed answer in the open window
    entry: Entry | None = None
    tasks: tuple[tuple[Any, ...], ...] = ()  # card transfers still to settle, first first
    extra_turn: bool = False
    revealed: tuple[tuple[int, str, str], ...] = ()  # (seat, code, salt) shown at the last entry
    passes: int = 0  # turns in a row in which the active player could not move at all
    # chance written down (games.rules.chance): the outcomes handed to the step being played
    # (empty between steps) and every outcome drawn so far (a trace: never stored, never compared)
    given: tuple[Any, ...] = ()
    drawn: tuple[Any, ...] = field(default=(), compare=False)

    @property
    def board(self) -> Board:
        return self.config.board

    @property
    def players(self) -> int:
        return len(self.config.seats)  # Config.players, one call less (asked very often)

    def square_of(self, code: str) -> Square | None:
        index = _INDEX.get(code)
        return self.squares[OFFICIALS.index(code) if index is None else index]

    def occupied(self, *, besides: str | None = None) -> frozenset[Square]:
        """The squares officials stand on (``besides``: but that official's)."""
        occupied = self._placed()[0]
        index = None if besides is None else _INDEX.get(besides)
        square = None if index is None else self.squares[index]
        # officials stand on different squares, so only ``besides`` stands on its square
        return occupied if square is None else occupied - {square}

    def on_board(self) -> tuple[str, ...]:
        return self._placed()[1]

    def _placed(self) -> tuple[frozenset[Square], tuple[str, ...]]:
        """The occupied squares and the officials on the board: computed from ``squares``
        once per state (kept in its dict; ``evolve`` drops them when ``squares`` changes)."""
        found: tuple[frozenset[Square], tuple[str, ...]] | None = self.__dict__.get("_squares_facts")
        if found is None:
            placed = [(code, s) for code, s in zip(OFFICIALS, self.squares, strict=True) if s is not None]
            found = (frozenset(s for _, s in placed), tuple(code for code, _ in placed))
            self.__dict__["_squares_facts"] = found
        return found

    def holder(self, card: Card) -> int | None:
        return next((s for s, hand in enumerate(self.hands) if card in hand), None)

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for f in fields(self):
            if f.name in ("config", "given", "drawn"):
                continue
            value = getattr(self, f.name)
            if f.name == "plan":
                out["plan"] = [command_to_dict(m) for m in value]
            elif f.name == "entry":
                out["entry"] = (
                    None if value is None else {g.name: getattr(value, g.name) for g in fields(Entry)}
                )
            else:
                out[f.name] = _jsonable(value)
        return out

    @classmethod
    def from_dict(cls, data: Mapping[str, Any], config: Config) -> State:
        values: dict[str, Any] = {}
        for f in fields(cls):
            if f.name in ("config", "given", "drawn") or f.name not in data:
                continue
            raw = data[f.name]
            if f.name == "plan":
                values["plan"] = tuple(m for m in (command_from_dict(d) for d in raw) if isinstance(m, Move))
            elif f.name == "entry":
                values["entry"] = None if raw is None else Entry(**raw)
            else:
                values[f.name] = _tuples(raw)
        return cls(config=config, **values)


_INDEX = {code: i for i, code in enumerate(OFFICIALS)}


def _jsonable(value: Any) -> Any:
    if isinstance(value, tuple | list):
        return [_jsonable(v) for v in value]
    return value


def _tuples(value: Any) -> Any:
    if isinstance(value, list):
        return tuple(_tuples(v) for v in value)
    return value


# ``evolve(state, **changes)`` is ``dataclasses.replace`` for the state, several times
# faster: it copies the instance dict instead of calling __init__ with every field (the
# state has 27; replay evolves it a few times per command, bench/replay.py).  mypy checks
# its calls as it checks ``replace``; the field names are not checked again at run time.
# A :class:`Working` state (a fold's draft, engine.Draft) is changed in place and returned.
_new = object.__new__
_set = object.__setattr__
__all__ = [
    "EDITIONS",
    "Config",
    "Entry",
    "Options",
    "State",
    "Working",
    "evolve",
    "move_official",
    "put",
    "settled",
]


class Working(State):
    """A state a fold changes in place (``evolve`` on it returns it, changed): the one working
    copy of ``engine.Draft``, never seen outside it; :func:`settled` is its value."""

    @classmethod
    def of(cls, state: State) -> Working:
        working = _new(cls)
        _set(working, "__dict__", state.__dict__.copy())
        return working


def settled(working: State) -> State:
    """A working state's value now: a :class:`State` of its fields (and facts kept on it)."""
    state = _new(State)
    _set(state, "__dict__", working.__dict__.copy())
    return state


if TYPE_CHECKING:
    from dataclasses import replace as evolve
else:

    def evolve(state: State, /, **changes: Any) -> State:
        if type(state) is Working:
            d = state.__dict__
            d.update(changes)
            new = state
        else:
            new = _new(State)
            d = state.__dict__.copy()  # a copied dict, set whole: faster than filling a new one
            d.update(changes)
            _set(new, "__dict__", d)
        if "squares" in changes and "_squares_facts" in d:
            del d["_squares_facts"]
        return new


def move_official(state: State, code: str, square: Square | None, **changes: Any) -> State:
    """``state`` with official ``code`` on ``square`` (None: the terrace) and ``changes``; the
    occupied squares and the officials on the board carried over, updated for that move."""
    index = _INDEX[code]
    before = state.squares[index]
    # read before evolving: a draft's evolve changes ``state`` itself
    facts: tuple[frozenset[Square], tuple[str, ...]] | None = state.__dict__.get("_squares_facts")
    new = evolve(state, squares=put(state.squares, index, square), **changes)
    if facts is not None and before is not None:
        occupied, on_board = facts
        occupied = occupied - {before}
        if square is None:
            on_board = tuple(c for c in on_board if c != code)
        else:
            occupied = occupied | {square}
        new.__dict__["_squares_facts"] = (occupied, on_board)
    return new


def put(items: Sequence[Any], index: int, value: Any) -> tuple[Any, ...]:
    out = list(items)
    out[index] = value
    return tuple(out)
