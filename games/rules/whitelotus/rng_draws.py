"""Every outcome of chance in White Lotus, each drawn against the game's seed or given in its
record (:mod:`games.rules.chance`); each returns the state with its counter advanced.

The outcomes, as a record writes them (``chance: …``, COMMANDS.md "Chance written down"):

``first <colour>``              the first emperor, drawn by lot (``first_emperor: lot``)
``fill <province> <building>``  a tile put face up on an area by chance: the start tiles on
                                the lotus areas, and the designer edition's one-time fill;
                                one line per area, in any order
``draw <building>``             a tile drawn from the bag (kosmos phase 6)
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import TypeVar

from .. import chance, rng
from ..base import Message
from ..chance import Value
from .constants import Building
from .state import State, add, bag_index, evolve

T = TypeVar("T")


def _in_bag(state: State) -> list[str]:
    return [f"{Building(k).label} {state.bag[bag_index(k)]}" for k in Building if state.bag[bag_index(k)]]


def _building(value: object) -> Building | None:
    try:
        return Building(int(value))  # type: ignore[call-overload]
    except (TypeError, ValueError):
        return None


def say(state: State, value: Value) -> str:
    """An outcome's value as the record writes it after its keyword."""
    *area, kind = value
    building = _building(kind)
    word = building.label if building is not None else str(kind)
    if area:
        index = area[0]
        name = state.board.provinces[index].name if 0 <= index < state.board.size else str(index)
        return f"{name} {word}"
    return word


# --- the first emperor --------------------------------------------------------------------


def first_emperor(state: State) -> tuple[int, State]:
    """The seat that is first emperor, by lot."""
    n = state.players

    def seeded(s: State) -> tuple[Value, State]:
        value, counter = rng.randbelow(s.seed, s.draws, n)
        return (value,), evolve(s, draws=counter)

    def check(value: Value) -> Message | None:
        if len(value) == 1 and isinstance(value[0], int) and 0 <= value[0] < n:
            return None
        return Message("That is not a colour of this game.")

    def need(written: Sequence[Value]) -> tuple[Message, list[str]]:
        return (
            Message("The first emperor is drawn by lot here: write 'chance: first <colour>'."),
            [f"chance: first {c}" for c in state.config.colours],
        )

    value, state = chance.draw(
        state,
        "first",
        seeded,
        check=check,
        need=need,
        evolve=evolve,
        say=lambda v: state.config.colours[v[0]],
    )
    return int(value[0]), state


# --- tiles put on areas by chance ------------------------------------------------------------


def fill(
    state: State, areas: Sequence[int], tiles: Sequence[int], what: Message
) -> tuple[list[tuple[int, int]], State]:
    """Shuffled ``tiles`` put on ``areas`` (in order; tiles beyond the areas are left over):
    ``(area, building)`` pairs.  Given, one ``fill`` per area with a tile, in any order: the
    areas are ``areas`` (as many as there are tiles, if fewer), each once, and the buildings
    are among ``tiles``.  ``what`` names the fill for the reader."""
    count = min(len(areas), len(tiles))
    pool = Counter(int(t) for t in tiles)

    def seeded(s: State) -> tuple[list[Value], State]:
        order, counter = rng.shuffled(s.seed, s.draws, list(tiles))
        return [(a, int(k)) for a, k in zip(areas, order, strict=False)], evolve(s, draws=counter)

    def check(values: list[Value]) -> Message | None:
        named = [v[0] if len(v) == 2 else None for v in values]
        wrong = [a for a in named if a not in areas]
        if wrong:
            where = state.board.provinces[wrong[0]].name if isinstance(wrong[0], int) else str(wrong[0])
            return Message("{area} is not an area filled here.", area=where)
        twice = [a for a, n in Counter(named).items() if n > 1 and a is not None]
        if twice:
            return Message("{area} is filled twice.", area=state.board.provinces[int(twice[0])].name)
        wanted = Counter(_building(v[1]) for v in values)
        over = [k for k, n in wanted.items() if k is None or n > pool[int(k)]]
        if over:
            return Message(
                "There are not that many {building} tiles to fill with (there are: {tiles}).",
                building=over[0].label if over[0] is not None else "?",
                tiles=", ".join(f"{Building(k).label} {n}" for k, n in sorted(pool.items())),
            )
        return None

    def need(written: Sequence[Value]) -> tuple[Message, list[str]]:
        done = {v[0] for v in written}
        left = [a for a in areas if a not in done]
        rest = pool - Counter(int(v[1]) for v in written)
        kinds = sorted(k for k in rest if rest[k] > 0)
        return (
            Message(
                "{what} here: write one 'chance: fill <province> <building>' for each of {count} "
                "areas, from {areas} (the tiles: {tiles}).",
                what=what,
                count=count,
                areas=", ".join(state.board.provinces[a].name for a in left),
                tiles=", ".join(f"{Building(k).label} {rest[k]}" for k in kinds),
            ),
            [
                f"chance: fill {state.board.provinces[a].name} {Building(k).label}"
                for a in left
                for k in kinds
            ],
        )

    values, state = chance.draw_group(
        state, "fill", count, seeded, check=check, need=need, evolve=evolve, say=lambda v: say(state, v)
    )
    return [(int(v[0]), int(v[1])) for v in values], state


# --- the bag ---------------------------------------------------------------------------------


def draw_tile(state: State) -> tuple[int, State]:
    """One tile from the bag, uniformly among the tiles left."""
    if chance.from_seed(state):  # what the draw below makes, without its checks and texts
        roll, counter = rng.randbelow(state.seed, state.draws, sum(state.bag))
        for building in Building:
            n = state.bag[bag_index(building)]
            if roll < n:
                bag = add(state.bag, bag_index(building), -1)
                return int(building), chance.noted(
                    state, "draw", (int(building),), evolve, draws=counter, bag=bag
                )
            roll -= n
        raise AssertionError("unreachable: roll below the bag size")

    def seeded(s: State) -> tuple[Value, State]:
        roll, counter = rng.randbelow(s.seed, s.draws, sum(s.bag))
        for kind in Building:
            n = s.bag[bag_index(kind)]
            if roll < n:
                return (int(kind),), evolve(s, draws=counter)
            roll -= n
        raise AssertionError("unreachable: roll below the bag size")

    def check(value: Value) -> Message | None:
        kind = _building(value[0]) if len(value) == 1 else None
        if kind is None:
            return Message("That is not a building.")
        if not state.bag[bag_index(kind)]:
            return Message(
                "There is no {building} tile left in the bag (it holds: {tiles}).",
                building=kind.label,
                tiles=", ".join(_in_bag(state)) or "nothing",
            )
        return None

    def need(written: Sequence[Value]) -> tuple[Message, list[str]]:
        return (
            Message(
                "A tile is drawn from the bag here: write 'chance: draw <building>' "
                "(the bag holds: {tiles}).",
                tiles=", ".join(_in_bag(state)),
            ),
            [f"chance: draw {Building(k).label}" for k in Building if state.bag[bag_index(k)]],
        )

    value, state = chance.draw(
        state, "draw", seeded, check=check, need=need, evolve=evolve, say=lambda v: say(state, v)
    )
    kind = int(value[0])
    return kind, evolve(state, bag=add(state.bag, bag_index(kind), -1))
