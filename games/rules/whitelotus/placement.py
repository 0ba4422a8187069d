"""Phase 1: control markers.

Kosmos (001 "1. Gebietsanspruch anmelden", 004 2.1): three rounds clockwise from the
emperor, one marker each, on any area holding a neutral tile, never two of one colour in an
area; from year 2 one more marker per ricefield owned, at most two more, placed in further
rounds.  No passing in the three rounds: a player with no legal area loses that marker
for the year (D3).  The ricefields' extra markers may be declined (``pass``), each one:
"darf ... einen weiteren Marker setzen" (001 l.140-142), "peut placer" (004); with the
option ``ricefield_extra="must"`` (and in games created before that option) they are
compulsory like the others.

Designer (002 "1. PLACE CONTROL MARKERS"): five rounds; each player places or passes
(a pass discards that block for the turn).  Turn 1: any start area; later turns: only areas
adjacent to an area holding a player's chip (D2 on "player-controlled").
"""

from __future__ import annotations

from itertools import islice

from ..base import Decision, IllegalCommand, LogEntry, Message, Word
from .commands import Command, Pass, Place
from .common import area_name, colour_word, not_your_turn, wrong_command
from .constants import CHIP_LIMIT, CHIPS_PER_COLOUR, MARKERS_PER_COLOUR, NEUTRAL, Building
from .state import Placement, State, StepDone, bits, evolve, set_area

KOSMOS_ROUNDS = 3
MAX_RICEFIELD_EXTRAS = MARKERS_PER_COLOUR - KOSMOS_ROUNDS


def ricefield_extras(state: State, seat: int) -> int:
    """Kosmos: the extra markers ``seat`` places this year for its ricefields (from year 2,
    at most two).  Ownership does not change during placement, so this holds all phase."""
    if state.year == 1:
        return 0
    return min(MAX_RICEFIELD_EXTRAS, state.count(seat, Building.RICEFIELD))


def optional_marker(state: State, queue: tuple[int, ...] | None = None) -> bool:
    """Is the marker due at the head of ``queue`` (default: the phase's) a ricefield's extra
    marker the player may decline?  The extra rounds come after the three compulsory ones,
    so the last entries of the queue are the extras."""
    if not state.config.kosmos or state.config.options.ricefield_extra != "may":
        return False
    if queue is None:
        assert isinstance(state.phase, Placement)
        queue = state.phase.queue
    return len(queue) <= sum(ricefield_extras(state, s) for s in range(state.players))


def begin(state: State, log: list[LogEntry]) -> State:
    order = state.seats_from(state.emperor)
    if state.config.kosmos:
        extra = [ricefield_extras(state, s) for s in range(state.players)]
        queue = order * KOSMOS_ROUNDS
        for k in range(1, MAX_RICEFIELD_EXTRAS + 1):
            queue += tuple(s for s in order if extra[s] >= k)
    else:
        queue = order * MARKERS_PER_COLOUR
    return _settle(state, queue, log)


def legal_areas(state: State, seat: int) -> list[int]:
    """Areas where ``seat`` may put a marker now.

    Besides the rules' conditions, a marker may only go where the seat could still place
    a chip of that building if it won, counting the markers it already has on neutral
    tiles this year (D1: chip limits are enforced at placement)."""
    return list(bits(placeable(state, seat)))


def placeable(state: State, seat: int) -> int:
    """:func:`legal_areas` as a bitmask, from the state's census and markers (placement is
    the most frequent move, and replay speed matters)."""
    census = state.census()
    mine = state.marks()[seat]
    kinds = census.kinds
    held = census.owned[seat] | mine  # chips on the board and markers on neutral tiles
    # counted as holdings() counts them (an area without a tile would count twice)
    if held.bit_count() + (held & kinds[0]).bit_count() >= CHIPS_PER_COLOUR:
        return 0
    allowed = 0
    for kind, limit in _KIND_LIMITS:
        if (held & kinds[kind]).bit_count() < limit:
            allowed |= kinds[kind]
    free = census.neutral & ~mine & allowed & state.board.play_mask(state.players)
    if free and state.config.designer and state.year > 1:
        free &= _designer_frontier(state, seat)
    return free


_KIND_LIMITS = tuple((int(b), CHIP_LIMIT[b]) for b in Building)


def _designer_frontier(state: State, seat: int) -> int:
    """Areas adjacent to an area holding a player's chip (any player's, or the seat's own
    with the ``adjacency="own"`` option)."""
    reach = state.census().reach
    if state.config.options.adjacency == "own":
        return reach[seat]
    mask = 0
    for r in reach:
        mask |= r
    return mask


def pending(state: State) -> tuple[Decision, ...]:
    assert isinstance(state.phase, Placement)
    return (Decision(state.phase.queue[0], "place"),)


def legal(state: State, seat: int) -> tuple[Command, ...]:
    assert isinstance(state.phase, Placement)
    if seat != state.phase.queue[0]:
        return ()
    moves: list[Command] = [Place(a) for a in legal_areas(state, seat)]
    if state.config.designer or optional_marker(state):
        moves.append(Pass())
    return tuple(moves)


def apply(state: State, seat: int, command: Command, log: list[LogEntry]) -> State:
    phase = state.phase
    assert isinstance(phase, Placement)
    if not isinstance(command, Place | Pass):
        raise wrong_command(state, seat, command.kind, Message("control markers are being placed"))
    if seat != phase.queue[0]:
        raise not_your_turn(state, phase.queue[0], Message("place a control marker"))
    if isinstance(command, Pass):
        if not state.config.designer and not optional_marker(state):
            if state.config.options.ricefield_extra == "may":
                raise IllegalCommand(
                    Message(
                        "You cannot pass: in the Kosmos rules the three markers of every year must be "
                        "placed (only a ricefield's extra marker may be declined)."
                    )
                )
            raise IllegalCommand(Message("You cannot pass: in the Kosmos rules every marker must be placed."))
        log.append(LogEntry("passed", {"seat": seat}))
        return _settle(state, phase.queue[1:], log)
    area = command.area
    if not placeable(state, seat) >> area & 1:
        raise IllegalCommand(
            Message(
                "You cannot place in {area}: {why}.",
                area=area_name(state, area),
                why=_why_not(state, seat, area),
            )
        )
    log.append(LogEntry("placed", {"seat": seat, "area": area}))
    state = set_area(state, area, markers=state.markers[area] | 1 << seat)
    return _settle(state, phase.queue[1:], log)


def _why_not(state: State, seat: int, area: int) -> Message:
    if area not in state.in_play():
        return Message("it is not in play in this game (brown areas are used only with 6 players)")
    if not state.building[area]:
        return Message("no tile lies there yet")
    if state.owner[area] != NEUTRAL:
        return Message("{colour} already holds it", colour=colour_word(state, state.owner[area]))
    if state.markers[area] >> seat & 1:
        return Message("you already have a marker there")
    if state.config.designer and state.year > 1:
        nearby = _designer_frontier(state, seat)
        if not nearby >> area & 1:
            if state.config.options.adjacency == "own":
                return Message("it is not next to an area holding your chip")
            return Message("it is not next to an area holding a player's chip")
    kind = Word(Building(state.building[area]).label)
    return Message(
        "you have no {building} chip left for it (counting your markers on other {building} areas)",
        building=kind,
    )


def _settle(state: State, queue: tuple[int, ...], log: list[LogEntry]) -> State:
    """Skip turns that have no legal area, play a kosmos turn that has exactly one (the
    engine's forced-move rule, done here to compute the areas once; not an extra marker
    the player may decline, which has two answers); end the phase when the queue is
    empty."""
    while queue:
        mask = placeable(state, queue[0])
        areas = list(islice(bits(mask), 2))  # none, one or several is all we need
        if len(areas) == 1 and state.config.kosmos and not optional_marker(state, queue):
            seat, area = queue[0], areas[0]
            log.append(LogEntry("forced", {"seat": seat, "kind": "place"}))
            log.append(LogEntry("placed", {"seat": seat, "area": area}))
            state = set_area(state, area, markers=state.markers[area] | 1 << seat)
        elif areas:
            return evolve(state, phase=Placement(queue))
        else:
            log.append(LogEntry("no_area", {"seat": queue[0]}))
        queue = queue[1:]
    return evolve(state, phase=StepDone("placement"))
