"""The order of a year (kosmos) or turn (designer): which step follows which.

Each phase module ends its step by leaving ``StepDone(step)``; :func:`proceed` starts the
next one.  Steps without decisions (emperor's VP, the designer's fill, the end check) happen
here.
"""

from __future__ import annotations

from ..base import LogEntry
from . import contest, income, placement, rebellion, tiles
from .constants import DESIGNER_TURNS
from .scoring import outcome
from .state import Finished, State, StepDone, add, evolve


def start_year(state: State, log: list[LogEntry]) -> State:
    log.append(LogEntry("year", {"year": state.year, "emperor": state.emperor}))
    return placement.begin(state, log)


def proceed(state: State, log: list[LogEntry]) -> State:
    phase = state.phase
    assert isinstance(phase, StepDone)
    step = phase.step
    if step == "placement":
        return contest.begin(state, log)
    if step == "resolution":
        if state.config.designer and state.year == 1:
            state = tiles.fill_board(state, log)
        if state.config.kosmos and board_settled(state):
            state = evolve(state, final_year=True)
            log.append(LogEntry("final_year", {"year": state.year}))
        # Phase 3: the emperor takes a VP chip (001 "3.", 002 "3.")
        state = evolve(state, vp=add(state.vp, state.emperor, 1))
        log.append(LogEntry("emperor_vp", {"seat": state.emperor}))
        return rebellion.begin(state, log)
    if step == "rebellion":
        if state.final_year or (state.config.designer and state.year >= DESIGNER_TURNS):
            return finish(state, log)
        return income.begin(state, log)
    if step == "income":
        if state.config.kosmos:
            return tiles.begin(state, log)
        return next_year(state, log)
    if step == "new_areas":
        return next_year(state, log)
    raise AssertionError(f"unknown step {step}")


def board_settled(state: State) -> bool:
    """Kosmos end (001 "Spielende"): every area in play holds a player's chip.  An empty area
    counts only while tiles are left to fill it (never the case on a 39-tile board)."""
    in_play = state.board.play_mask(state.players)
    census = state.census()
    if census.neutral & in_play:  # a tile nobody holds
        return False
    return not sum(state.bag) or not census.kinds[0] & in_play  # no area without a tile


def next_year(state: State, log: list[LogEntry]) -> State:
    return start_year(evolve(state, year=state.year + 1), log)


def finish(state: State, log: list[LogEntry]) -> State:
    state = evolve(state, phase=Finished())
    result = outcome(state)
    log.append(
        LogEntry("game_over", {"scores": list(result.scores), "rank": list(result.rank), "seed": state.seed})
    )
    return state
