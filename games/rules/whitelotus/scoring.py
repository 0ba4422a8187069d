"""End of game: scores and ranking (001 "Spielende", 004 3, 002 "WINNING THE GAME").

Buildings 3/2/1/1/1, +2 per dragon area, +1 per VP chip, and the largest contiguous
territory: +3 to its sole holder (kosmos: a tie gives nothing; designer: each tied player
gets 1).  Ties: kosmos: the emperor wins a tie he is in, else most palaces, else shared;
designer: most chips on the board, else shared.  The same tie rules order every place,
not only the first (D11).
"""

from __future__ import annotations

from ..base import Outcome
from .constants import BUILDING_VP, DRAGON_VP, TERRITORY_VP, Building
from .state import State


def largest_territory(state: State, seat: int) -> int:
    """Size of the seat's largest group of areas connected through adjacency."""
    own = set(state.areas_of(seat))
    best = 0
    while own:
        stack = [own.pop()]
        size = 0
        while stack:
            a = stack.pop()
            size += 1
            for b in state.board.provinces[a].adjacent:
                if b in own:
                    own.remove(b)
                    stack.append(b)
        best = max(best, size)
    return best


def breakdown(state: State) -> tuple[dict[str, int], ...]:
    n = state.players
    territory = [largest_territory(state, s) for s in range(n)]
    top = max(territory)
    holders = [s for s in range(n) if top and territory[s] == top]
    rows = []
    for s in range(n):
        buildings = sum(BUILDING_VP[Building(state.building[a])] for a in state.areas_of(s))
        dragons = DRAGON_VP * sum(1 for a in state.areas_of(s) if state.board.provinces[a].dragon)
        if s in holders and len(holders) == 1:
            bonus = TERRITORY_VP
        elif s in holders and state.config.designer:
            bonus = 1
        else:
            bonus = 0
        row = {
            "buildings": buildings,
            "dragons": dragons,
            "territory": bonus,
            "territory_size": territory[s],
            "chips": state.vp[s],
        }
        row["total"] = buildings + dragons + bonus + state.vp[s]
        rows.append(row)
    return tuple(rows)


def outcome(state: State) -> Outcome:
    rows = breakdown(state)
    n = state.players
    keys: list[tuple[int, int, int]]
    if state.config.kosmos:
        keys = [(rows[s]["total"], s == state.emperor, state.palaces(s)) for s in range(n)]
    else:
        keys = [(rows[s]["total"], state.chips_on_board(s), 0) for s in range(n)]
    rank = tuple(1 + sum(1 for k in keys if k > keys[s]) for s in range(n))
    return Outcome(scores=tuple(r["total"] for r in rows), breakdown=rows, rank=rank)
