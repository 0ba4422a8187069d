"""The move made for a seat whose deadline passed (RULES.md, "Defaults").

Defaults are chosen to be fair in a league: they never spend the absent player's cards
and never start a fight.  Where a default must choose between seats (the emperor's
tie-break, the order of tied winners, a bid between equally strong contenders) it draws
by the game's seeded lot (:func:`games.rules.rng.lot`), named for the decision, never by
seat order: seat order made one seat lose every defaulted contest (the worst
seat of all-default 5- and 6-player kosmos games scored 13 % and 12 % of the table's mean;
by lot the worst seat scores over 90 %, see bench/fairness.py and RULES.md).  The lot does
not advance the game's counter, and the command a default chose is stored with the move,
so replay never draws it again.
Choices between areas go to the lowest province number, except the designer placement's,
whose ties are drawn by lot too (the areas are worth the same to the seat).
"""

from __future__ import annotations

from .. import rng
from ..base import IllegalCommand, Message
from .commands import (
    Army,
    Bid,
    Command,
    Decline,
    Draw,
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
from .decisions import legal, pending
from .placement import legal_areas, optional_marker
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
        return Bid(_strongest(state, seat, phase), bid_amounts(state, seat)[0])
    if isinstance(phase, TieBreak):
        # by lot among all the tied, the emperor too if he is one of them: keeping himself
        # in would make every defaulted tie cost the others (and seat order one of them)
        tied = list(bits(phase.tied))
        return Out(lot(state, f"out:{phase.area}:{phase.contenders}:{phase.tied}", tied))
    if isinstance(phase, RebellionOffer):
        return Decline()
    if isinstance(phase, Rebellion):
        if phase.stage in ("sides", "both") and phase.sides[seat] == UNDECIDED:
            return Side(rebels=False)  # support the emperor ...
        return Army(0)  # ... with no army
    if isinstance(phase, Spoils):
        head = phase.groups[0]
        if len(head) > 1:
            return First(lot(state, f"first:{','.join(map(str, head))}", sorted(head)))
        return Take(_best_area(state, spoils_targets(state, phase, seat)))
    if isinstance(phase, PalaceChoices):
        return PalaceChoice(0)  # influence for every palace
    if isinstance(phase, NewAreas):
        if not phase.drawn:
            return Draw()  # a temple's extra draw is taken, as the compulsory reading plays it
        spots = [c for c in legal(state, seat) if isinstance(c, Tile)]
        return spots[0]
    raise AssertionError(f"no default for {phase.name}")


def _placement(state: State, seat: int) -> Command:
    """Kosmos (no passing): the legal area with the fewest markers, so the absent player
    starts no fight if it can help it; ties: lowest number.  A ricefield's extra marker
    that may be declined is placed the same way on an area nobody has marked (a free
    claim), and declined where every legal area is marked (it would only start a fight).

    Designer (passing allowed): claim as a careful player would, for free: the most
    valuable legal area nobody has a marker on yet (a lone marker takes it without a
    bid), valued as :func:`_worth`; ties by lot.  Where every legal area is already
    claimed, pass: joining a claim would start a fight and spend the absent player's
    influence."""
    areas = legal_areas(state, seat)
    if state.config.designer:
        free = [a for a in areas if not state.markers[a]]
        if not free:
            return Pass()
        best = max(_worth(state, seat, a) for a in free)
        tied = [a for a in free if _worth(state, seat, a) == best]
        assert isinstance(state.phase, Placement)
        return Place(lot(state, f"place:{seat}:{len(state.phase.queue)}", tied))
    if optional_marker(state) and all(state.markers[a] for a in areas):
        return Pass()
    return Place(min(areas, key=lambda a: (bin(state.markers[a]).count("1"), a)))


def _worth(state: State, seat: int, area: int) -> int:
    """What an area adds to ``seat``'s score: its building, +2 for a dragon, +1 next to an
    area the seat holds (its territory grows)."""
    worth = BUILDING_VP[Building(state.building[area])]
    worth += 2 if state.board.provinces[area].dragon else 0
    own = any(o == seat for o in (state.owner[b] for b in bits(state.board.adjacency_mask(area))))
    return worth + (1 if own else 0)


def _strongest(state: State, seat: int, phase: Bidding) -> int:
    """The other contender with the highest provisional score; ties: by lot (a lot of one
    picks it)."""
    seats = targets(phase.contenders, seat)
    scores = breakdown(state)
    best = max(scores[s]["total"] for s in seats)
    tied = sorted(s for s in seats if scores[s]["total"] == best)
    return lot(state, f"bid:{phase.area}:{phase.contenders}:{seat}", tied)


def lot(state: State, decision: str, choices: list[int]) -> int:
    """One of ``choices`` (seats or areas) by the game's seeded lot for ``decision`` in this
    year: the label names the year and the decision (its area, the seats concerned, the
    marker due), so no two decisions of a game share a lot."""
    return choices[rng.lot(state.seed, f"{state.config.edition}:{state.year}:{decision}", len(choices))]


def _best_area(state: State, areas: list[int]) -> int:
    """The most valuable area (building VP, +2 for a dragon); ties: lowest number."""

    def value(a: int) -> tuple[int, int]:
        worth = BUILDING_VP[Building(state.building[a])]
        worth += 2 if state.board.provinces[a].dragon else 0
        return worth, -a

    return max(areas, key=value)
