"""Random whole games for property tests and benchmarks: random legal moves, or defaults."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import replace

from games.rules import rng
from games.rules.base import LogEntry
from games.rules.whitelotus import apply, default, legal, pending, setup
from games.rules.whitelotus.commands import Command, Give
from games.rules.whitelotus.constants import (
    CHIP_LIMIT,
    CHIPS_PER_COLOUR,
    MARKERS_PER_COLOUR,
    NEUTRAL,
    TILE_COUNTS,
    Building,
)
from games.rules.whitelotus.engine import committed
from games.rules.whitelotus.state import (
    Bidding,
    Config,
    NewAreas,
    PalaceChoices,
    Rebellion,
    Spoils,
    State,
    add,
    put,
)
from tests.engine.whitelotus.helpers import config

Step = tuple[State, int, Command, State, list[LogEntry]]


class Chooser:
    """Deterministic choices from a key (the same HMAC generator the engine uses)."""

    def __init__(self, key: str) -> None:
        self.key, self.counter = key, 0

    def below(self, n: int) -> int:
        value, self.counter = rng.randbelow(self.key, self.counter, n)
        return value


def random_move(state: State, chooser: Chooser) -> tuple[int, Command]:
    """A random legal move of a pending seat; now and then a change of a sealed choice
    already given, or (negotiation variant) a gift."""
    decisions = pending(state)
    seat = decisions[chooser.below(len(decisions))].seat
    if decisions[0].sealed and chooser.below(8) == 0:  # re-seal as someone who already sealed
        others = [s for s in range(state.players) if legal(state, s)]
        seat = others[chooser.below(len(others))]
    free = state.influence[seat] - committed(state, seat, army=False)
    if state.config.options.negotiation and chooser.below(25) == 0 and free > 5:
        return seat, Give((seat + 1) % state.players, 1, army=False)
    menu = legal(state, seat)
    return seat, menu[chooser.below(len(menu))]


def play_random(
    config: Config, seed: str, key: str, defaults_only: bool = False, max_moves: int = 5000
) -> Iterator[Step]:
    state = setup(config, seed)
    chooser = Chooser(key)
    for _ in range(max_moves):
        if not pending(state):
            return
        if defaults_only:
            seat = pending(state)[0].seat
            command = default(state, seat)
        else:
            seat, command = random_move(state, chooser)
        new, log = apply(state, seat, command)
        yield state, seat, command, new, log
        state = new
    raise AssertionError(f"no end after {max_moves} moves")


def check_invariants(state: State) -> None:
    n = state.players
    in_play = state.in_play()
    for a in range(state.board.size):
        if state.owner[a] != NEUTRAL:
            assert state.building[a], "a chip on an area without a tile"
            assert a in in_play
        if state.markers[a]:
            assert state.building[a] and state.owner[a] == NEUTRAL and a in in_play
            assert state.markers[a] < 1 << n
    for s in range(n):
        assert state.influence[s] >= 0 and state.army[s] >= 0 and state.vp[s] >= 0
        placed = sum(1 for m in state.markers if m >> s & 1)
        assert placed <= MARKERS_PER_COLOUR
        assert state.chips_on_board(s) <= CHIPS_PER_COLOUR
        for kind in Building:
            assert state.count(s, kind) <= CHIP_LIMIT[kind]
    if not isinstance(state.phase, Spoils):  # kosmos settles the emperor after the spoils
        assert all(state.palaces(state.emperor) >= state.palaces(s) for s in range(n))
    drawn = 1 if isinstance(state.phase, NewAreas) and state.phase.drawn else 0  # 0: offered, not drawn
    on_board = sum(1 for b in state.building if b)
    assert on_board + sum(state.bag) + state.boxed + drawn == sum(TILE_COUNTS.values())
    if state.config.designer:
        assert state.year <= 4
    else:
        assert state.year <= 40


HiddenChange = Callable[[State, int], State]


def hide_changes(state: State, b: int) -> list[State]:
    """Copies of ``state`` that differ only in seat ``b``'s hidden information."""
    out = [replace(state, influence=add(state.influence, b, 7), army=add(state.army, b, 3))]
    phase = state.phase
    if isinstance(phase, Bidding) and phase.bids[b] is not None:
        target, amount = phase.bids[b]  # type: ignore[misc]
        out.append(replace(state, phase=replace(phase, bids=put(phase.bids, b, (target, amount + 1)))))
    if isinstance(phase, Rebellion):
        if phase.army[b] >= 0:
            out.append(replace(state, phase=replace(phase, army=put(phase.army, b, phase.army[b] + 1))))
        if phase.stage != "army" and phase.sides[b] >= 0 and b not in (state.emperor, phase.leader):
            out.append(replace(state, phase=replace(phase, sides=put(phase.sides, b, 1 - phase.sides[b]))))
    if isinstance(phase, PalaceChoices) and phase.choices[b] >= 0:
        out.append(replace(state, phase=replace(phase, choices=put(phase.choices, b, phase.choices[b] + 1))))
    if isinstance(phase, NewAreas) and phase.queue[0] == b and phase.drawn:  # 0: not drawn yet
        other = Building.TEMPLE if phase.drawn != Building.TEMPLE else Building.FORT
        out.append(replace(state, phase=replace(phase, drawn=int(other))))
    return out


def hide_common(state: State) -> list[State]:
    """Copies differing in what no seat may see: the seed and the bag's composition."""
    bag = state.bag
    moved = bag
    if bag[0] and len(bag) > 1:
        moved = add(add(bag, 0, -1), 1, 1)
    return [replace(state, seed=state.seed + "x", bag=moved)]


def random_logs() -> Iterator[tuple[State, LogEntry]]:
    """Every entry (private ones too) of a few random games, with the state after it."""
    games = [
        (3, "kosmos", {}),
        (4, "designer", {"negotiation": True}),
        (5, "kosmos", {"negotiation": True}),
        (6, "designer", {}),
        (6, "kosmos", {"zero_card": False}),
    ]
    for i, (players, edition, options) in enumerate(games):
        cfg = config(players, edition, **options)
        for _state, _seat, _command, new, log in play_random(cfg, f"narrate-{i}", f"key-{i}"):
            for entry in log:
                yield new, entry
