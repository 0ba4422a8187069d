"""The game state: one immutable value, serialisable canonically.

Per-area and per-seat data are tuples indexed by area index / seat; sets of seats or areas
are int bitmasks.  The current step of the year is a small frozen dataclass (``phase``),
one type per kind of decision, so fields only exist where they mean something.

Long on purpose: the state, its options and config, and their JSON forms are one value
type; split, every phase module would import several modules for one state.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field, fields
from typing import TYPE_CHECKING, Any, ClassVar, TypeVar

from .board import Board
from .constants import (
    CHIP_LIMIT,
    CHIPS_PER_COLOUR,
    COLOURS,
    DESIGNER,
    EDITIONS,
    KOSMOS,
    NEUTRAL,
    Building,
)

STATE_VERSION = 1


@dataclass(frozen=True, slots=True)
class Options:
    zero_card: bool = True  # the 0-value influence card (seeds 001, 002; 004 drops it)
    negotiation: bool = False  # "Variante für eifrige Verhandler": card gifts allowed
    open_hands: bool = False  # show every hand to everyone (off: hands are face down)
    adjacency: str = "any"  # designer placement: next to "any" player's chip or "own" chips
    # kosmos: the ricefields' extra markers (001 "darf ... einen weiteren Marker setzen") and
    # the temples' extra draws (001 "dürfen ... einen weiteren Chip aufdecken"): "may" (the
    # player may decline each) or "must" (every one taken: LEGACY, below)
    ricefield_extra: str = "may"
    temple_draw: str = "may"

    def __post_init__(self) -> None:
        if self.adjacency not in ("any", "own"):
            raise ValueError("adjacency must be 'any' or 'own'")
        for name in ("ricefield_extra", "temple_draw"):
            if getattr(self, name) not in ("may", "must"):
                raise ValueError(f"{name} must be 'may' or 'must'")

    @classmethod
    def from_data(cls, data: Mapping[str, Any]) -> Options:
        """The options a stored config (or record) names.  An option it does not name reads
        as the rule the engine played before that option existed (:data:`LEGACY`), so a
        game created earlier replays and plays on exactly as it began."""
        return cls(**{**LEGACY, **data})

    def to_data(self) -> dict[str, Any]:
        """Every option by name (what the service stores for a new game)."""
        return {f.name: getattr(self, f.name) for f in fields(Options)}

    def canonical(self) -> dict[str, Any]:
        """The options in the state's canonical form: those at their :data:`LEGACY` value are
        left out, so a game begun before they existed keeps the same bytes (and its golden
        final state); :meth:`from_data` reads them back."""
        return {k: v for k, v in self.to_data().items() if k not in LEGACY or LEGACY[k] != v}


# Options added after games were created without them: the value a config that does not
# name them means (every extra marker and draw is taken).
LEGACY: Mapping[str, Any] = {"ricefield_extra": "must", "temple_draw": "must"}


@dataclass(frozen=True, slots=True)
class Config:
    board: Board
    colours: tuple[str, ...]
    edition: str = KOSMOS
    options: Options = field(default_factory=Options)
    first_emperor: int | None = 0  # None: drawn by lot from the seed

    def __post_init__(self) -> None:
        if self.edition not in EDITIONS:
            raise ValueError(f"edition must be one of {', '.join(EDITIONS)}")
        if not 3 <= len(self.colours) <= 6:
            raise ValueError("White Lotus is for 3 to 6 players")
        if len(set(self.colours)) != len(self.colours) or not set(self.colours) <= set(COLOURS):
            raise ValueError(f"colours must be distinct, from {', '.join(COLOURS)}")
        if self.first_emperor is not None and not 0 <= self.first_emperor < len(self.colours):
            raise ValueError("first_emperor must be a seat number or None (by lot)")

    @property
    def players(self) -> int:
        return len(self.colours)

    @property
    def kosmos(self) -> bool:
        return self.edition == KOSMOS

    @property
    def designer(self) -> bool:
        return self.edition == DESIGNER

    def to_dict(self) -> dict[str, Any]:
        return {
            "board": {"name": self.board.name, "digest": self.board.digest},
            "colours": list(self.colours),
            "edition": self.edition,
            "options": self.options.canonical(),
            "first_emperor": self.first_emperor,
        }


# --- phases -------------------------------------------------------------------------------


@dataclass(frozen=True)
class Placement:
    """Phase 1.  ``queue``: the seats still to place (or pass), one marker each, in order."""

    name: ClassVar[str] = "placement"
    queue: tuple[int, ...]


@dataclass(frozen=True)
class ChooseContest:
    """Phase 2b: the emperor names the next of the ``remaining`` contested areas (bitmask)."""

    name: ClassVar[str] = "choose_contest"
    remaining: int


@dataclass(frozen=True)
class Bidding:
    """Phase 2b: sealed bids for ``area`` by the ``contenders`` (seat bitmask).

    ``bids[seat]`` is ``(target, amount)`` once sealed, else None."""

    name: ClassVar[str] = "bidding"
    remaining: int
    area: int
    contenders: int
    bids: tuple[tuple[int, int] | None, ...]


@dataclass(frozen=True)
class TieBreak:
    """Phase 2b: bids revealed, the ``tied`` seats (bitmask) drew the most influence; the
    emperor names the one who is out."""

    name: ClassVar[str] = "tie_break"
    remaining: int
    area: int
    contenders: int
    bids: tuple[tuple[int, int] | None, ...]
    tied: int


@dataclass(frozen=True)
class RebellionOffer:
    """Kosmos phase 4: the head of ``queue`` is asked whether they will lead a rebellion."""

    name: ClassVar[str] = "rebellion_offer"
    queue: tuple[int, ...]


@dataclass(frozen=True)
class Rebellion:
    """Phase 4, sealed.  ``sides[seat]``: 0 emperor's side, 1 rebels, -1 not chosen yet;
    ``army[seat]``: committed points or -1.  ``stage``: "sides" then "army" (kosmos), or
    "both" at once (designer)."""

    name: ClassVar[str] = "rebellion"
    leader: int
    stage: str
    sides: tuple[int, ...]
    army: tuple[int, ...]


@dataclass(frozen=True)
class Spoils:
    """After the battle: ``groups`` of winners still to pick, in order (a group of several is
    a tie the emperor orders, designer only); ``losers``/``hit`` are seat bitmasks."""

    name: ClassVar[str] = "spoils"
    groups: tuple[tuple[int, ...], ...]
    losers: int
    hit: int
    old_emperor: int
    palace_takers: tuple[int, ...]


@dataclass(frozen=True)
class PalaceChoices:
    """Phase 5, sealed: ``choices[seat]`` = palaces taken as army, -1 pending, -2 no palace."""

    name: ClassVar[str] = "palace_choice"
    choices: tuple[int, ...]


@dataclass(frozen=True)
class NewAreas:
    """Kosmos phase 6: the head of ``queue`` has drawn ``drawn`` (hidden) and places it;
    ``drawn`` 0: a temple's extra draw is offered, not yet drawn (``temple_draw="may"``)."""

    name: ClassVar[str] = "new_areas"
    queue: tuple[int, ...]
    drawn: int


@dataclass(frozen=True)
class StepDone:
    """Transient: ``step`` has finished; the sequencer (flow.py) starts the next one."""

    name: ClassVar[str] = "step_done"
    step: str


@dataclass(frozen=True)
class Finished:
    name: ClassVar[str] = "finished"


Phase = (
    Placement
    | ChooseContest
    | Bidding
    | TieBreak
    | RebellionOffer
    | Rebellion
    | Spoils
    | PalaceChoices
    | NewAreas
    | StepDone
    | Finished
)
PHASE_TYPES: dict[str, type[Phase]] = {
    t.name: t
    for t in (
        Placement,
        ChooseContest,
        Bidding,
        TieBreak,
        RebellionOffer,
        Rebellion,
        Spoils,
        PalaceChoices,
        NewAreas,
        StepDone,
        Finished,
    )
}


# --- the state ----------------------------------------------------------------------------


@dataclass(frozen=True)
class State:
    config: Config
    seed: str  # secret until the end; never in a view
    draws: int  # the generator's counter
    year: int
    emperor: int
    rebel: int  # the rebel leader during a rebellion, else -1
    building: tuple[int, ...]  # per area: 0 = empty, else Building of its tile or chip
    owner: tuple[int, ...]  # per area: seat holding it, -1 = neutral (or empty)
    markers: tuple[int, ...]  # per area: bitmask of seats with a control marker there
    influence: tuple[int, ...]
    army: tuple[int, ...]
    vp: tuple[int, ...]  # victory-point chips
    bag: tuple[int, ...]  # hidden tiles left, count per Building (index Building - 1)
    boxed: int  # designer: tiles returned to the box unseen
    final_year: bool  # kosmos: every area is held; the year ends after the rebellion
    phase: Phase
    # chance written down (games.rules.chance): the outcomes handed to the step being played
    # (empty between steps) and every outcome drawn so far (a trace: never stored, never compared)
    given: tuple[Any, ...] = ()
    drawn: tuple[Any, ...] = field(default=(), compare=False)

    # -- derived facts -------------------------------------------------------------------
    @property
    def board(self) -> Board:
        return self.config.board

    @property
    def players(self) -> int:
        return len(self.config.colours)  # Config.players, one call less (asked very often)

    def seats_from(self, first: int) -> tuple[int, ...]:
        """Play order: clockwise (by seat number) starting with ``first``."""
        n = self.players
        return tuple((first + i) % n for i in range(n))

    def areas_of(self, seat: int) -> Iterator[int]:
        return bits(self.census().owned[seat])

    def count(self, seat: int, kind: Building) -> int:
        return self.census().held[seat][kind]

    def chips_on_board(self, seat: int) -> int:
        return self.census().owned[seat].bit_count()

    def palaces(self, seat: int) -> int:
        return self.count(seat, Building.PALACE)

    def villages(self, seat: int) -> int:
        return self.count(seat, Building.VILLAGE)

    def can_take(self, seat: int, kind: int, pending: int = 0) -> bool:
        """Does ``seat`` still have a chip for one more ``kind`` area?  ``pending``: how
        many such areas (and chips in all) are already spoken for by their markers."""
        b = Building(kind)
        used_kind = self.count(seat, b) + pending
        used_all = self.chips_on_board(seat) + pending
        return used_kind < CHIP_LIMIT[b] and used_all < CHIPS_PER_COLOUR

    def in_play(self) -> frozenset[int]:
        return self.board.in_play(self.players)

    def seat_of(self, colour: str) -> int | None:
        try:
            return self.config.colours.index(colour)
        except ValueError:
            return None

    # -- derived data, kept on the state it describes ------------------------------------
    # Computed on first use and stored in the instance dict (the state stays a value: these
    # are functions of its fields); ``evolve`` keeps them only while the fields they are
    # computed from are unchanged.  Replay asks them many times per state (bench/replay.py).
    def census(self) -> Census:
        """Who holds what: from ``building`` and ``owner``."""
        found: Census | None = self.__dict__.get("_census")
        if found is None:
            found = self.__dict__["_census"] = Census.of(self)
        return found

    def marks(self) -> tuple[int, ...]:
        """Per seat: the bitmask of areas holding its control marker (from ``markers``)."""
        found: tuple[int, ...] | None = self.__dict__.get("_marks")
        if found is None:
            marks = [0] * self.players
            for a, m in enumerate(self.markers):
                if m:
                    for s in bits(m):
                        marks[s] |= 1 << a
            found = self.__dict__["_marks"] = tuple(marks)
        return found

    # -- serialisation -------------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"version": STATE_VERSION}
        for f in fields(self):
            if f.name in _TRANSIENT:
                continue
            value = getattr(self, f.name)
            if f.name == "config":
                out[f.name] = value.to_dict()
            elif f.name == "phase":
                out[f.name] = {"name": value.name, **_plain(value)}
            else:
                out[f.name] = _jsonable(value)
        return out

    def to_json(self) -> bytes:
        """Canonical bytes: equal states give equal bytes (what replay tests compare)."""
        return json.dumps(self.to_dict(), sort_keys=True, separators=(",", ":")).encode()

    @classmethod
    def from_dict(cls, data: Mapping[str, Any], board: Board) -> State:
        if data.get("version") != STATE_VERSION:
            raise ValueError(f"state version {data.get('version')} is not {STATE_VERSION}")
        c = data["config"]
        if c["board"]["digest"] != board.digest:
            raise ValueError(f"this state was played on another board than {board.name}")
        config = Config(
            board=board,
            colours=tuple(c["colours"]),
            edition=c["edition"],
            options=Options.from_data(c["options"]),
            first_emperor=c["first_emperor"],
        )
        p = dict(data["phase"])
        phase_type = PHASE_TYPES[p.pop("name")]
        phase = phase_type(**{k: _tuplify(v) for k, v in p.items()})
        values = {
            f.name: _tuplify(data[f.name])
            for f in fields(cls)
            if f.name not in ("config", "phase", *_TRANSIENT)
        }
        return cls(config=config, phase=phase, **values)


@dataclass(frozen=True, slots=True)
class Census:
    """What the board's areas add up to, per seat and per building (``State.census``).

    ``held[seat]``: [chips on the board, then per Building value] as ``common.holdings``
    counts them; ``owned[seat]``: bitmask of the seat's areas; ``reach[seat]``: areas next
    to one of them; ``kinds[k]``: areas whose building is ``k`` (0: no tile);
    ``neutral``: areas holding a tile nobody holds."""

    held: tuple[tuple[int, ...], ...]
    owned: tuple[int, ...]
    reach: tuple[int, ...]
    kinds: tuple[int, ...]
    neutral: int

    @classmethod
    def of(cls, state: State) -> Census:
        n = state.players
        held = [[0] * 6 for _ in range(n)]
        owned = [0] * n
        reach = [0] * n
        kinds = [0] * 6
        neutral = 0
        masks = state.config.board.masks
        for a, (b, o) in enumerate(zip(state.building, state.owner, strict=True)):
            bit = 1 << a
            kinds[b] |= bit
            if o >= 0:
                h = held[o]
                h[0] += 1
                h[b] += 1
                owned[o] |= bit
                reach[o] |= masks[a]
            elif b and o == NEUTRAL:
                neutral |= bit
        return cls(tuple(map(tuple, held)), tuple(owned), tuple(reach), tuple(kinds), neutral)

    def moved(self, state: State, area: int, old: tuple[int, int], new: tuple[int, int]) -> Census:
        """The census once ``area``'s (building, owner) went from ``old`` to ``new``."""
        bit = 1 << area
        held = list(self.held)
        owned = list(self.owned)
        reach = list(self.reach)
        kinds = list(self.kinds)
        neutral = self.neutral
        masks = state.config.board.masks
        (b0, o0), (b1, o1) = old, new
        kinds[b0] &= ~bit
        kinds[b1] |= bit
        if o0 >= 0:
            h = list(held[o0])
            h[0] -= 1
            h[b0] -= 1
            held[o0] = tuple(h)
            owned[o0] &= ~bit
            r = 0
            for a in bits(owned[o0]):
                r |= masks[a]
            reach[o0] = r
        elif b0 and o0 == NEUTRAL:
            neutral &= ~bit
        if o1 >= 0:
            h = list(held[o1])
            h[0] += 1
            h[b1] += 1
            held[o1] = tuple(h)
            owned[o1] |= bit
            reach[o1] |= masks[area]
        elif b1 and o1 == NEUTRAL:
            neutral |= bit
        return Census(tuple(held), tuple(owned), tuple(reach), tuple(kinds), neutral)


# what a state holds only while a step is played, or only to tell what was drawn
_TRANSIENT = ("given", "drawn")


def _plain(obj: Any) -> dict[str, Any]:
    return {f.name: _jsonable(getattr(obj, f.name)) for f in fields(obj)}


def _jsonable(value: Any) -> Any:
    if isinstance(value, tuple):
        return [_jsonable(v) for v in value]
    return value


def _tuplify(value: Any) -> Any:
    if isinstance(value, list):
        return tuple(_tuplify(v) for v in value)
    return value


# --- small immutable helpers --------------------------------------------------------------


def put(values: tuple[Any, ...], index: int, value: Any) -> tuple[Any, ...]:
    """A copy of ``values`` with one element replaced."""
    return (*values[:index], value, *values[index + 1 :])


def set_area(
    state: State,
    area: int,
    *,
    building: int | None = None,
    owner: int | None = None,
    markers: int | None = None,
    **changes: Any,
) -> State:
    """``state`` with one area's building, owner and/or markers changed (and ``changes``),
    its census and marks carried over, updated for that one area instead of recounted."""
    b0, o0, m0 = state.building[area], state.owner[area], state.markers[area]
    b1 = b0 if building is None else building
    o1 = o0 if owner is None else owner
    m1 = m0 if markers is None else markers
    if b1 != b0:
        changes["building"] = put(state.building, area, b1)
    if o1 != o0:
        changes["owner"] = put(state.owner, area, o1)
    if m1 != m0:
        changes["markers"] = put(state.markers, area, m1)
    # read before evolving: a draft's evolve changes ``state`` itself
    census: Census | None = state.__dict__.get("_census")
    marks: tuple[int, ...] | None = state.__dict__.get("_marks")
    new = evolve(state, **changes)
    d = new.__dict__
    if census is not None and "_census" not in d:
        d["_census"] = census.moved(new, area, (b0, o0), (b1, o1))
    if marks is not None and "_marks" not in d:
        changed = list(marks)
        for s in bits(m0 ^ m1):
            changed[s] ^= 1 << area
        d["_marks"] = tuple(changed)
    return new


def add(values: tuple[int, ...], index: int, delta: int) -> tuple[int, ...]:
    return put(values, index, values[index] + delta)


def bits(mask: int) -> Iterator[int]:
    """The set bits of ``mask``, lowest first.  (Seats' masks from a table; an areas' mask
    visits its set bits only: replay asks this thousands of times.)"""
    if mask < _SMALL_MASKS:
        return iter(_BITS[mask])
    found = []
    while mask:
        low = mask & -mask
        found.append(low.bit_length() - 1)
        mask ^= low
    return iter(found)


_SMALL_MASKS = 1 << 8
_BITS = tuple(tuple(i for i in range(8) if m >> i & 1) for m in range(_SMALL_MASKS))


def bag_index(kind: int) -> int:
    return kind - 1


# --- copying with changes ------------------------------------------------------------------
#
# ``evolve(obj, **changes)`` is ``dataclasses.replace`` for the state and phase classes,
# several times faster: it copies the instance dict instead of calling __init__ (the
# classes are frozen dataclasses without slots for this reason).  Replay speed depends on
# it (bench/replay.py).  mypy checks calls to it as it checks ``replace`` (the field names
# are not checked again at run time: that cost a quarter of each call).  A :class:`Working`
# state (a fold's draft, engine.Draft) is changed in place and returned.

_T = TypeVar("_T")
_new = object.__new__
_set = object.__setattr__
__all__ = ["Working", "evolve", "settled"]  # plus every public name defined above


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

    def evolve(obj: _T, /, **changes: Any) -> _T:
        if type(obj) is Working:
            d = obj.__dict__
            d.update(changes)
            new = obj
        else:
            new = _new(type(obj))
            d = obj.__dict__.copy()  # a copied dict, set whole: faster than filling a new one
            d.update(changes)
            _set(new, "__dict__", d)
        if "_census" in d and ("owner" in changes or "building" in changes):
            del d["_census"]
        if "_marks" in d and "markers" in changes:
            del d["_marks"]
        return new
