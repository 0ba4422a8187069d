"""The move made for a seat whose deadline passed (RULES.md, "Defaults").

Defaults are chosen to be fair in a league: they never spend the absent player's cards,
never start a fight, and never hurt anyone on purpose; where a choice must be made it is
deterministic (lowest province number, first seat clockwise from the emperor).
"""

from __future__ import annotations

from ..base import IllegalCommand, Message
from .commands import (
    Army,
    Bid,
    Command,
    Decline,
    First,
    Out,
    PalaceChoice,
    Pass,
    Place,
    Resolve,
    Side,
    Take,
    Tile,
)
from .constants import BUILDING_VP, Building
from .contest import bid_amounts, targets
from .engine import legal, pending
from .placement import legal_areas
from .rebellion import UNDECIDED, spoils_targets
from .scoring import breakdown
from .state import (
    Bidding,
    ChooseContest,
    NewAreas,
    PalaceChoices,
    Placement,
    Rebellion,
    RebellionOffer,
    Spoils,
    State,
    TieBreak,
    bits,
)


def default(state: State, seat: int) -> Command:
    if seat not in {d.seat for d in pending(state)}:
        raise IllegalCommand(Message("This seat has no decision pending."))
    phase = state.phase
    if isinstance(phase, Placement):
        return _placement(state, seat)
    if isinstance(phase, ChooseContest):
        return Resolve(min(bits(phase.remaining)))
    if isinstance(phase, Bidding):
        # bid the least allowed against the strongest other contender
        return Bid(_strongest(state, seat, targets(phase.contenders, seat)), bid_amounts(state, seat)[0])
    if isinstance(phase, TieBreak):
        tied = list(bits(phase.tied))
        # keep himself in if tied, else the first tied seat clockwise from him goes out
        others = [s for s in state.seats_from(state.emperor) if s in tied and s != state.emperor]
        return Out(others[0])
    if isinstance(phase, RebellionOffer):
        return Decline()
    if isinstance(phase, Rebellion):
        if phase.stage in ("sides", "both") and phase.sides[seat] == UNDECIDED:
            return Side(rebels=False)  # support the emperor ...
        return Army(0)  # ... with no army
    if isinstance(phase, Spoils):
        head = phase.groups[0]
        if len(head) > 1:
            return First(next(s for s in state.seats_from(state.emperor) if s in head))
        return Take(_best_area(state, spoils_targets(state, phase, seat)))
    if isinstance(phase, PalaceChoices):
        return PalaceChoice(0)  # influence for every palace
    if isinstance(phase, NewAreas):
        spots = [c for c in legal(state, seat) if isinstance(c, Tile)]
        return spots[0]
    raise AssertionError(f"no default for {phase.name}")


def _placement(state: State, seat: int) -> Command:
    """Designer: pass.  Kosmos (no passing): the legal area with the fewest markers, so
    the absent player starts no fight if it can help it; ties: lowest number."""
    if state.config.designer:
        return Pass()
    areas = legal_areas(state, seat)
    return Place(min(areas, key=lambda a: (bin(state.markers[a]).count("1"), a)))


def _strongest(state: State, seat: int, seats: list[int]) -> int:
    """Highest provisional score; ties: first clockwise from the bidder's left."""
    scores = breakdown(state)
    order = [s for s in state.seats_from(seat) if s in seats]
    return max(order, key=lambda s: (scores[s]["total"], -order.index(s)))


def _best_area(state: State, areas: list[int]) -> int:
    """The most valuable area (building VP, +2 for a dragon); ties: lowest number."""

    def value(a: int) -> tuple[int, int]:
        worth = BUILDING_VP[Building(state.building[a])]
        worth += 2 if state.board.provinces[a].dragon else 0
        return worth, -a

    return max(areas, key=value)
