"""New tiles on the board.

Kosmos phase 6 (001 "6. Neue Gebiete", 004 2.6): clockwise from the emperor each player draws
a hidden tile, looks at it and puts it face up on an empty area adjacent to an area holding
a tile (neutral or owned); each temple owned gives its owner one more draw, in further rounds,
one tile at a time.  The phase stops early when the bag or the board is used up.

The temples' extra draws: "Für jeden Tempel dürfen ihre Besitzer einen weiteren Chip
aufdecken und legen" (001 l.442-443, "may") against "place un jeton carré de plus" (004
l.255, shall).  The Kosmos edition's German text is followed: before each extra draw the
player is asked (``tile`` to draw it, or ``pass``), and a tile once drawn is placed.  The option
``temple_draw="must"`` keeps the French reading (and is what games created before the
option play): every extra draw is drawn at once.

Designer (002 phase 2): after the turn-1 resolution all remaining tiles are placed at random,
one per empty area, face up; the rest go back in the box unseen.
"""

from __future__ import annotations

from ..base import Decision, IllegalCommand, LogEntry, Message, Word
from .commands import Command, Draw, Pass, Tile
from .common import area_name, not_your_turn, wrong_command
from .constants import NEUTRAL, Building
from .rng_draws import draw_tile, fill
from .state import NewAreas, State, StepDone, bag_index, bits, evolve, put, set_area


def empty_areas(state: State) -> list[int]:
    return [a for a in state.board.play_areas(state.players) if not state.building[a]]


def tile_spots(state: State, most: int | None = None) -> list[int]:
    """Empty areas in play adjacent to an area holding a tile (the first ``most`` of them)."""
    kinds = state.census().kinds
    tiled = kinds[1] | kinds[2] | kinds[3] | kinds[4] | kinds[5]
    masks = state.board.masks
    out = []
    for a in bits(kinds[0] & state.board.play_mask(state.players)):
        if masks[a] & tiled:
            out.append(a)
            if len(out) == most:
                break
    return out


def _tiled(state: State) -> int:
    kinds = state.census().kinds
    return kinds[1] | kinds[2] | kinds[3] | kinds[4] | kinds[5]


def _is_spot(state: State, area: int) -> bool:
    return bool(
        0 <= area < state.board.size
        and not state.building[area]
        and state.board.play_mask(state.players) >> area & 1
        and state.board.adjacency_mask(area) & _tiled(state)
    )


def _has_spot(state: State) -> bool:
    return bool(tile_spots(state, most=1))


def begin(state: State, log: list[LogEntry]) -> State:
    order = state.seats_from(state.emperor)
    temples = [state.count(s, Building.TEMPLE) for s in range(state.players)]
    queue = order
    for k in range(1, max(temples) + 1):
        queue += tuple(s for s in order if temples[s] >= k)
    return _draw_next(state, queue, log)


def _draw_next(state: State, queue: tuple[int, ...], log: list[LogEntry]) -> State:
    if not queue or not sum(state.bag) or not _has_spot(state):
        return evolve(state, phase=StepDone("new_areas"))
    if _optional_draw(state, queue):
        return evolve(state, phase=NewAreas(queue, 0))  # asked first: draw or pass
    return _draw(state, queue, log)


def _draw(state: State, queue: tuple[int, ...], log: list[LogEntry]) -> State:
    kind, state = draw_tile(state)
    log.append(LogEntry("drew", {"seat": queue[0], "building": kind}, private_to=queue[0]))
    return evolve(state, phase=NewAreas(queue, kind))


def _optional_draw(state: State, queue: tuple[int, ...]) -> bool:
    """Is the draw at the head of ``queue`` a temple's extra draw the player may decline?
    The extra rounds follow the one draw of every player, so the last entries are extras."""
    if state.config.options.temple_draw != "may":
        return False
    return len(queue) <= sum(h[Building.TEMPLE] for h in state.census().held)


def pending(state: State) -> tuple[Decision, ...]:
    assert isinstance(state.phase, NewAreas)
    return (Decision(state.phase.queue[0], "tile" if state.phase.drawn else "draw"),)


def legal(state: State, seat: int) -> tuple[Command, ...]:
    assert isinstance(state.phase, NewAreas)
    if seat != state.phase.queue[0]:
        return ()
    if not state.phase.drawn:
        return (Draw(), Pass())
    return tuple(Tile(a) for a in tile_spots(state))


def forced(state: State) -> tuple[Decision, Command] | None:
    """The decision and the one answer of its menu when :func:`legal` has only one: a drawn
    tile with a single spot (a draw offered has two answers: draw or pass)."""
    phase = state.phase
    assert isinstance(phase, NewAreas)
    if not phase.drawn:
        return None
    spots = tile_spots(state, most=2)
    return (pending(state)[0], Tile(spots[0])) if len(spots) == 1 else None


def apply(state: State, seat: int, command: Command, log: list[LogEntry]) -> State:
    phase = state.phase
    assert isinstance(phase, NewAreas)
    if not phase.drawn:
        if not isinstance(command, Draw | Pass):
            raise wrong_command(state, seat, command.kind, Message("a temple's extra tile is offered"))
        if seat != phase.queue[0]:
            raise not_your_turn(state, phase.queue[0], Message("draw a temple's extra tile or pass"))
        if isinstance(command, Draw):
            return _draw(state, phase.queue, log)
        log.append(LogEntry("no_draw", {"seat": seat}))
        return _draw_next(state, phase.queue[1:], log)
    if isinstance(command, Draw):  # "tile" without a province
        raise IllegalCommand(Message("'{keyword}' needs a province.", keyword=Word("tile")))
    if not isinstance(command, Tile):
        raise wrong_command(state, seat, command.kind, Message("new tiles are being placed"))
    if seat != phase.queue[0]:
        raise not_your_turn(state, phase.queue[0], Message("place the tile they drew"))
    if not _is_spot(state, command.area):
        raise IllegalCommand(
            Message(
                "You cannot put your tile on {area}: it must go on an empty area in play next to an area "
                "that holds a tile.",
                area=area_name(state, command.area),
            )
        )
    state = set_area(state, command.area, building=phase.drawn)
    log.append(LogEntry("tile", {"seat": seat, "area": command.area, "building": phase.drawn}))
    return _draw_next(state, phase.queue[1:], log)


def fill_board(state: State, log: list[LogEntry]) -> State:
    """Designer: the one-time random fill after the turn-1 resolution."""
    tiles = [int(k) for k in Building for _ in range(state.bag[bag_index(k)])]
    filled, state = fill(
        state, empty_areas(state), tiles, Message("The designer edition's one-time fill is made")
    )
    building, owner = state.building, state.owner
    placed = []
    for area, kind in filled:
        building = put(building, area, kind)
        owner = put(owner, area, NEUTRAL)
        placed.append({"area": area, "building": kind})
    boxed = len(tiles) - len(placed)
    log.append(LogEntry("filled", {"tiles": placed, "boxed": boxed}))
    bag = (0,) * len(state.bag)
    return evolve(state, building=building, owner=owner, bag=bag, boxed=state.boxed + boxed)
