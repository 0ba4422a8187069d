"""Hand-made White Lotus states for rule tests.

Typical use::

    s = blank(players=4, edition="kosmos", year=2, emperor="red")
    s = tiles(s, Hangzhou="palace", Fuzhou="village")          # neutral tiles
    s = holds(s, "blue", Quanzhou="temple", Yangzhou="village") # chips of a colour
    s = markers(s, Hangzhou=("red", "blue"))
    s, log = begin(s, "resolution")                              # run a step
    s, log = play(s, "red", "bid blue 3")                        # a command as typed
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from games.rules.base import LogEntry
from games.rules.whitelotus import contest, income, placement, rebellion
from games.rules.whitelotus import tiles as tiles_mod
from games.rules.whitelotus.board import load_board
from games.rules.whitelotus.constants import COLOURS, NEUTRAL, Building
from games.rules.whitelotus.engine import _settle, apply, setup
from games.rules.whitelotus.notation import parse_command
from games.rules.whitelotus.state import Bidding, Config, Options, State, StepDone, put

BOARD = load_board()
STEPS = {
    "placement": placement.begin,
    "resolution": contest.begin,
    "rebellion": rebellion.begin,
    "income": income.begin,
    "new_areas": tiles_mod.begin,
}


def config(
    players: int = 3, edition: str = "kosmos", first_emperor: int | None = 0, **options: Any
) -> Config:
    return Config(BOARD, COLOURS[:players], edition, Options(**options), first_emperor)


def new_game(players: int = 3, edition: str = "kosmos", seed: str = "test", **options: Any) -> State:
    return setup(config(players, edition, **options), seed)


def area(name: str) -> int:
    province = BOARD.lookup(name)
    assert province is not None, name
    return province.index


def seat(state: State, colour: str) -> int:
    s = state.seat_of(colour)
    assert s is not None, colour
    return s


def blank(
    players: int = 3,
    edition: str = "kosmos",
    year: int = 2,
    emperor: str = "red",
    seed: str = "test",
    **options: Any,
) -> State:
    """An empty board in ``year``, start hands, nothing pending (phase: a finished step)."""
    s = new_game(players, edition, seed, **options)
    n = BOARD.size
    return replace(
        s,
        year=year,
        emperor=seat(s, emperor),
        building=(0,) * n,
        owner=(NEUTRAL,) * n,
        markers=(0,) * n,
        phase=StepDone("test"),
    )


def tiles(state: State, **where: str) -> State:
    """Neutral tiles: ``tiles(s, Hangzhou="palace")``."""
    building, owner = state.building, state.owner
    for name, kind in where.items():
        building = put(building, area(name), int(Building[kind.upper()]))
        owner = put(owner, area(name), NEUTRAL)
    return replace(state, building=building, owner=owner)


def holds(state: State, colour: str, **where: str) -> State:
    """Chips of ``colour``: ``holds(s, "red", Hangzhou="palace")``."""
    s = tiles(state, **where)
    owner = s.owner
    for name in where:
        owner = put(owner, area(name), seat(s, colour))
    return replace(s, owner=owner)


def markers(state: State, **where: tuple[str, ...]) -> State:
    m = state.markers
    for name, colours in where.items():
        mask = 0
        for c in colours:
            mask |= 1 << seat(state, c)
        m = put(m, area(name), mask)
    return replace(state, markers=m)


def hands(state: State, influence: dict[str, int] | None = None, army: dict[str, int] | None = None) -> State:
    inf, arm = state.influence, state.army
    for c, v in (influence or {}).items():
        inf = put(inf, seat(state, c), v)
    for c, v in (army or {}).items():
        arm = put(arm, seat(state, c), v)
    return replace(state, influence=inf, army=arm)


def begin(state: State, step: str) -> tuple[State, list[LogEntry]]:
    """Start a step of the year on a hand-made state and settle it like the engine does."""
    log: list[LogEntry] = []
    s = STEPS[step](state, log)
    return _settle(s, log), log


def play(state: State, colour: str, text: str) -> tuple[State, list[LogEntry]]:
    """Apply a command written as a player would write it."""
    who = seat(state, colour)
    return apply(state, who, parse_command(state, text, who))


def kinds(log: list[LogEntry]) -> list[str]:
    return [e.kind for e in log]


def entries(log: list[LogEntry], kind: str) -> list[dict[str, Any]]:
    return [dict(e.data) for e in log if e.kind == kind]


def resolution(state: State) -> tuple[State, list[LogEntry]]:
    return begin(state, "resolution")


def one_contest(
    contenders: tuple[str, ...],
    players: int = 3,
    edition: str = "kosmos",
    emperor: str = "red",
    influence: dict[str, int] | None = None,
    **options: Any,
) -> tuple[State, list[LogEntry]]:
    """Year 2, a single contested village in Yanan.  A non-emperor holds a village in Jinan, so
    after the claim the kosmos year stops at the rebellion offer (no new cards are dealt)."""
    s = blank(players=players, edition=edition, year=2, emperor=emperor, **options)
    stopper = next(c for c in s.config.colours if c != emperor)
    s = holds(tiles(s, Yanan="village"), stopper, Jinan="village")
    s = hands(markers(s, Yanan=contenders), influence=influence)
    s, log = resolution(s)
    assert isinstance(s.phase, Bidding)
    return s, log
