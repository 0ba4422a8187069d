"""Phase 2: resolving claims.

2a (001 "Konfliktloser Gebietserwerb", 002): a lone marker takes the area free.  Lone
claims are settled first, clockwise from the emperor (D4), each followed by the emperor check.

2b (001 "Konflikt um Gebiete", 004 2.2.2, 002): in year 1 the palace area goes first; then the
emperor names each next contested area.  Every contender seals one dragon card (another
contender's colour) and influence: kosmos any amount, designer exactly two cards.  The seat
with the most influence against it is out, keeps half its own bid rounded up and the others
lose theirs; ties are broken by the emperor.  Repeat until one remains, who takes the area.
"""

from __future__ import annotations

from ..base import Decision, IllegalCommand, LogEntry, Message
from .commands import Bid, Command, Out, Resolve
from .common import (
    alternatives,
    area_name,
    claim,
    colour_word,
    either,
    not_your_turn,
    popcount,
    wrong_command,
)
from .constants import NEUTRAL, Building
from .state import Bidding, ChooseContest, State, StepDone, TieBreak, bits, evolve, put, set_area


def begin(state: State, log: list[LogEntry]) -> State:
    for seat in state.seats_from(state.emperor):
        for area in range(len(state.markers)):
            if state.markers[area] == 1 << seat and state.owner[area] == NEUTRAL:
                state = claim(state, seat, area, log, how="alone")
    remaining = 0
    for area, m in enumerate(state.markers):
        if m:
            remaining |= 1 << area
    return _next(state, remaining, log)


def _next(state: State, remaining: int, log: list[LogEntry]) -> State:
    if not remaining:
        return evolve(state, phase=StepDone("resolution"))
    if state.year == 1:
        palace = [a for a in bits(remaining) if state.building[a] == Building.PALACE]
        if palace:  # 001 2b: "Im ersten Jahr muss das Gebiet ... als Erstes vergeben werden"
            return _open(state, remaining, palace[0], log, chosen_by=None)
    return evolve(state, phase=ChooseContest(remaining))


def _open(state: State, remaining: int, area: int, log: list[LogEntry], chosen_by: int | None) -> State:
    contenders = state.markers[area]
    log.append(
        LogEntry("contest", {"area": area, "contenders": list(bits(contenders)), "chosen_by": chosen_by})
    )
    return evolve(state, phase=Bidding(remaining & ~(1 << area), area, contenders, (None,) * state.players))


# --- what a seat may bid ------------------------------------------------------------------


def bid_amounts(state: State, seat: int) -> list[int]:
    """Legal influence totals for ``seat``.

    Kosmos: any number of points up to the hand, 0 included (001 2b.3).  Designer: exactly
    two cards of 1-3 points (cards are exchanged freely), or the 0 card plus one card: so
    2..6, or 1..3 with the 0 card (002).  A hand that cannot make two cards bids all it has
    (D5)."""
    points = state.influence[seat]
    if state.config.kosmos:
        return list(range(points + 1))
    totals: set[int] = set()
    if points >= 2:
        totals.update(range(2, min(6, points) + 1))
    if state.config.options.zero_card and points >= 1:
        totals.update(range(1, min(3, points) + 1))
    return sorted(totals) or [points]


def targets(contenders: int, seat: int) -> list[int]:
    return [s for s in bits(contenders) if s != seat]


# --- the phase rules ----------------------------------------------------------------------


def pending(state: State) -> tuple[Decision, ...]:
    phase = state.phase
    if isinstance(phase, ChooseContest):
        return (Decision(state.emperor, "resolve"),)
    if isinstance(phase, TieBreak):
        return (Decision(state.emperor, "out"),)
    assert isinstance(phase, Bidding)
    return tuple(Decision(s, "bid", sealed=True) for s in bits(phase.contenders) if phase.bids[s] is None)


def legal(state: State, seat: int) -> tuple[Command, ...]:
    phase = state.phase
    if isinstance(phase, ChooseContest):
        return tuple(Resolve(a) for a in bits(phase.remaining)) if seat == state.emperor else ()
    if isinstance(phase, TieBreak):
        return tuple(Out(s) for s in bits(phase.tied)) if seat == state.emperor else ()
    assert isinstance(phase, Bidding)
    if not phase.contenders >> seat & 1:
        return ()
    amounts = bid_amounts(state, seat)
    return tuple(Bid(t, n) for t in targets(phase.contenders, seat) for n in amounts)


def forced(state: State) -> tuple[Decision, Command] | None:
    """The emperor's decision and its one answer when :func:`legal` has only one (the last
    contested area; a tie of one cannot happen, but is answered alike); bids are sealed."""
    phase = state.phase
    if isinstance(phase, ChooseContest) and popcount(phase.remaining) == 1:
        return Decision(state.emperor, "resolve"), Resolve(next(bits(phase.remaining)))
    if isinstance(phase, TieBreak) and popcount(phase.tied) == 1:
        return Decision(state.emperor, "out"), Out(next(bits(phase.tied)))
    return None


def apply(state: State, seat: int, command: Command, log: list[LogEntry]) -> State:
    phase = state.phase
    if isinstance(phase, ChooseContest):
        if not isinstance(command, Resolve):
            raise wrong_command(
                state, seat, command.kind, Message("the emperor names the next contested area")
            )
        if seat != state.emperor:
            raise not_your_turn(state, state.emperor, Message("name the next contested area"))
        if not phase.remaining >> command.area & 1:
            raise IllegalCommand(
                Message(
                    "{area} is not a contested area waiting to be resolved.",
                    area=area_name(state, command.area),
                )
            )
        return _open(state, phase.remaining, command.area, log, chosen_by=seat)
    if isinstance(phase, TieBreak):
        if not isinstance(command, Out):
            raise wrong_command(state, seat, command.kind, Message("the emperor breaks a tie"))
        if seat != state.emperor:
            raise not_your_turn(state, state.emperor, Message("break the tie"))
        if not phase.tied >> command.target & 1:
            raise IllegalCommand(
                Message("{colour} is not one of the tied players.", colour=colour_word(state, command.target))
            )
        log.append(LogEntry("tie_broken", {"seat": seat, "out": command.target}))
        return _eliminate(
            state, phase.remaining, phase.area, phase.contenders, phase.bids, command.target, log
        )
    assert isinstance(phase, Bidding)
    if not isinstance(command, Bid):
        raise wrong_command(
            state,
            seat,
            command.kind,
            Message("sealed bids are due for {area}", area=area_name(state, phase.area)),
        )
    if not phase.contenders >> seat & 1:
        raise IllegalCommand(
            Message(
                "You have no marker in {area}, so you do not bid for it.", area=area_name(state, phase.area)
            )
        )
    if command.target == seat or not phase.contenders >> command.target & 1:
        raise IllegalCommand(
            Message(
                "Your dragon card must name another player in {area}: {colours}.",
                area=area_name(state, phase.area),
                colours=either(state, targets(phase.contenders, seat)),
            )
        )
    # kosmos: 0 to the hand (a range, not the list bid_amounts makes: bids are most commands)
    if command.amount not in (
        range(state.influence[seat] + 1) if state.config.kosmos else bid_amounts(state, seat)
    ):
        raise IllegalCommand(_bad_amount(state, seat, command.amount, bid_amounts(state, seat)))
    bids = put(phase.bids, seat, (command.target, command.amount))
    log.append(LogEntry("sealed", {"seat": seat, "target": command.target, "amount": command.amount}, seat))
    log.append(LogEntry("submitted", {"seat": seat, "what": "bid"}))
    # only contenders bid, so all have bid when the others' places alone are empty
    if bids.count(None) > len(bids) - popcount(phase.contenders):
        return evolve(state, phase=evolve(phase, bids=bids))
    return _reveal(state, evolve(phase, bids=bids), log)


def _bad_amount(state: State, seat: int, amount: int, amounts: list[int]) -> Message:
    points = state.influence[seat]
    if amount > points:
        return Message(
            "You cannot bid {amount}: you have {points} influence points.", amount=amount, points=points
        )
    if state.config.designer:
        return Message(
            "You cannot bid {amount}: in the designer rules you play exactly two influence "
            "cards, so your bid can be {amounts}.",
            amount=amount,
            amounts=span(amounts),
        )
    return Message("You cannot bid {amount}: bid from 0 to {points}.", amount=amount, points=points)


def span(amounts: list[int]) -> Message:
    """``[2, 3, 4, 5]`` as "2 to 5", ``[0, 1]`` as "0 or 1"."""
    if amounts == list(range(amounts[0], amounts[-1] + 1)) and len(amounts) > 2:
        return Message("{low} to {high}", low=amounts[0], high=amounts[-1])
    return alternatives([str(a) for a in amounts])


def _reveal(state: State, phase: Bidding, log: list[LogEntry]) -> State:
    against = [0] * state.players
    shown = []
    for s in bits(phase.contenders):
        bid = phase.bids[s]
        assert bid is not None
        against[bid[0]] += bid[1]
        shown.append({"seat": s, "target": bid[0], "amount": bid[1]})
    most = max(against[s] for s in bits(phase.contenders))
    tied = 0
    for s in bits(phase.contenders):
        if against[s] == most:
            tied |= 1 << s
    log.append(
        LogEntry(
            "bids",
            {
                "area": phase.area,
                "bids": shown,
                "against": {s: against[s] for s in bits(phase.contenders)},
                "tied": list(bits(tied)) if popcount(tied) > 1 else [],
            },
        )
    )
    if popcount(tied) > 1:  # 001 "Weitere Regeln": the emperor decides, may favour himself
        return evolve(state, phase=TieBreak(phase.remaining, phase.area, phase.contenders, phase.bids, tied))
    loser = next(bits(tied))
    return _eliminate(state, phase.remaining, phase.area, phase.contenders, phase.bids, loser, log)


def _eliminate(
    state: State,
    remaining: int,
    area: int,
    contenders: int,
    bids: tuple[tuple[int, int] | None, ...],
    loser: int,
    log: list[LogEntry],
) -> State:
    """The loser takes back the marker and keeps half his bid rounded up; everyone else
    discards what they bid (001 2b.5-6, 002)."""
    points = list(state.influence)
    for s in bits(contenders):
        bid = bids[s]
        assert bid is not None
        points[s] -= bid[1] // 2 if s == loser else bid[1]
    influence = tuple(points)
    kept = bids[loser][1] - bids[loser][1] // 2  # type: ignore[index]
    state = set_area(state, area, markers=state.markers[area] & ~(1 << loser), influence=influence)
    log.append(LogEntry("out", {"seat": loser, "area": area, "kept": kept}))
    contenders &= ~(1 << loser)
    if popcount(contenders) > 1:
        return evolve(state, phase=Bidding(remaining, area, contenders, (None,) * state.players))
    state = claim(state, next(bits(contenders)), area, log, how="contest")
    return _next(state, remaining, log)
