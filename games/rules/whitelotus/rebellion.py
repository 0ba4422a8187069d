"""Phase 4: the rebellion, the battle and the spoils.

Kosmos (001 "4. Rebellion", 004 2.4): optional.  The player with the most villages (at
least one) is asked first, then the next (ties: first after the emperor, 004); the emperor
cannot lead.  Sides are sealed and revealed (004), then everyone seals army points.  The
rebels add 1 per village of their leader.  Losers lose at most one area each.

Designer (002 "4. REBELLION"): mandatory; the leader is the non-emperor with the most
villages (ties: closest to the emperor's left).  Side and army are sealed together.  The
rebels add 2 per village of their leader; the emperor orders tied winners; a loser can lose
several areas; the emperor changes at once whenever palaces change hands.

Both: the emperor's side adds 2 per emperor's palace and wins ties; all committed army is
discarded; the winners pick in order (leader first, then by army committed) an area of a
loser adjacent to one of their own (any loser's area if they hold none), swapping in their
own chip of the same building, else take a VP chip.
"""

from __future__ import annotations

from ..base import Decision, IllegalCommand, LogEntry, Message, Word
from .commands import Army, Command, Decline, First, Lead, Side, Take
from .common import (
    area_name,
    colour_word,
    holdings,
    not_your_turn,
    room_for,
    update_emperor,
    wrong_command,
)
from .constants import EMPEROR_PALACE_STRENGTH, Building
from .state import Rebellion, RebellionOffer, Spoils, State, StepDone, add, bits, evolve, put, set_area

EMPEROR_SIDE, REBEL_SIDE, UNDECIDED = 0, 1, -1


def begin(state: State, log: list[LogEntry]) -> State:
    order = state.seats_from(state.emperor)[1:]
    villages = {s: state.villages(s) for s in order}
    ranked = sorted(order, key=lambda s: (-villages[s], order.index(s)))
    if state.config.designer:  # 002: "There must be a rebellion"
        return _start(state, ranked[0], log)
    queue = tuple(s for s in ranked if villages[s] >= 1)
    if not queue:
        log.append(LogEntry("no_rebellion", {"reason": "no_villages"}))
        return evolve(state, phase=StepDone("rebellion"))
    return evolve(state, phase=RebellionOffer(queue))


def _start(state: State, leader: int, log: list[LogEntry]) -> State:
    n = state.players
    sides = tuple(
        EMPEROR_SIDE if s == state.emperor else REBEL_SIDE if s == leader else UNDECIDED for s in range(n)
    )
    stage = "both" if state.config.designer else "sides" if UNDECIDED in sides else "army"
    log.append(LogEntry("rebellion", {"leader": leader, "emperor": state.emperor}))
    return evolve(state, rebel=leader, phase=Rebellion(leader, stage, sides, (UNDECIDED,) * n))


# --- decisions ----------------------------------------------------------------------------


def pending(state: State) -> tuple[Decision, ...]:
    phase = state.phase
    if isinstance(phase, RebellionOffer):
        return (Decision(phase.queue[0], "lead"),)
    if isinstance(phase, Spoils):
        head = phase.groups[0]
        if len(head) > 1:
            return (Decision(state.emperor, "first"),)
        return (Decision(head[0], "take"),)
    assert isinstance(phase, Rebellion)
    out = []
    for s in range(state.players):
        if phase.stage in ("sides", "both") and phase.sides[s] == UNDECIDED:
            out.append(Decision(s, "side", sealed=True))
        elif phase.stage in ("army", "both") and phase.army[s] == UNDECIDED:
            out.append(Decision(s, "army", sealed=True))
    return tuple(out)


def legal(state: State, seat: int) -> tuple[Command, ...]:
    phase = state.phase
    if isinstance(phase, RebellionOffer):
        return (Lead(), Decline()) if seat == phase.queue[0] else ()
    if isinstance(phase, Spoils):
        head = phase.groups[0]
        if len(head) > 1:
            return tuple(First(s) for s in head) if seat == state.emperor else ()
        return tuple(Take(a) for a in spoils_targets(state, phase, seat)) if seat == head[0] else ()
    assert isinstance(phase, Rebellion)
    moves: list[Command] = []
    if phase.stage in ("sides", "both") and seat not in (state.emperor, phase.leader):
        moves += [Side(rebels=False), Side(rebels=True)]
    if phase.stage in ("army", "both"):
        moves += [Army(n) for n in range(state.army[seat] + 1)]
    return tuple(moves)


def forced(state: State) -> tuple[Decision, Command] | None:
    """A winner's decision and its one answer when :func:`legal` has only one: a single area
    to take.  (Leading is asked, tied winners are two or more, sides and army are sealed.)"""
    phase = state.phase
    if isinstance(phase, Spoils) and len(phase.groups[0]) == 1:
        seat = phase.groups[0][0]
        targets = spoils_targets(state, phase, seat)
        if len(targets) == 1:
            return Decision(seat, "take"), Take(targets[0])
    return None


def apply(state: State, seat: int, command: Command, log: list[LogEntry]) -> State:
    phase = state.phase
    if isinstance(phase, RebellionOffer):
        if not isinstance(command, Lead | Decline):
            raise wrong_command(state, seat, command.kind, Message("a rebel leader is being sought"))
        if seat != phase.queue[0]:
            raise not_your_turn(state, phase.queue[0], Message("say whether they lead a rebellion"))
        if isinstance(command, Lead):
            return _start(state, seat, log)
        log.append(LogEntry("declined", {"seat": seat}))
        if len(phase.queue) == 1:
            log.append(LogEntry("no_rebellion", {"reason": "declined"}))
            return evolve(state, phase=StepDone("rebellion"))
        return evolve(state, phase=RebellionOffer(phase.queue[1:]))
    if isinstance(phase, Spoils):
        return _apply_spoils(state, phase, seat, command, log)
    assert isinstance(phase, Rebellion)
    if isinstance(command, Side):
        if phase.stage not in ("sides", "both"):
            raise IllegalCommand(Message("Sides are already chosen and revealed; now commit army points."))
        if seat in (state.emperor, phase.leader):
            raise IllegalCommand(
                Message("The emperor and the rebel leader do not choose a side: they lead them.")
            )
        value = REBEL_SIDE if command.rebels else EMPEROR_SIDE
        phase = evolve(phase, sides=put(phase.sides, seat, value))
        what = "side"
    elif isinstance(command, Army):
        if phase.stage not in ("army", "both"):
            raise IllegalCommand(
                Message(
                    "First choose your side (side emperor / side rebels); army "
                    "points are committed once all sides are revealed."
                )
            )
        if not 0 <= command.amount <= state.army[seat]:
            raise IllegalCommand(
                Message(
                    "You cannot commit {amount} army points: you have {points}.",
                    amount=command.amount,
                    points=state.army[seat],
                )
            )
        phase = evolve(phase, army=put(phase.army, seat, command.amount))
        what = "army"
    else:
        raise wrong_command(
            state, seat, command.kind, Message("sides and army are being chosen for the rebellion")
        )
    log.append(LogEntry("sealed", {"seat": seat, what: _sealed_value(command)}, private_to=seat))
    log.append(LogEntry("submitted", {"seat": seat, "what": what}))
    state = evolve(state, phase=phase)
    # pending(state), without building it: someone has yet to choose a side or commit army
    if (phase.stage in ("sides", "both") and UNDECIDED in phase.sides) or (
        phase.stage in ("army", "both") and UNDECIDED in phase.army
    ):
        return state
    if phase.stage == "sides":
        log.append(LogEntry("sides", {"sides": list(phase.sides), "leader": phase.leader}))
        return evolve(state, phase=evolve(phase, stage="army"))
    return _battle(state, phase, log)


def _sealed_value(command: Side | Army) -> object:
    return (
        "rebels"
        if isinstance(command, Side) and command.rebels
        else ("emperor" if isinstance(command, Side) else command.amount)
    )


# --- the battle ---------------------------------------------------------------------------


def strengths(state: State, phase: Rebellion) -> tuple[int, int]:
    """(emperor's side, rebels): army committed plus 2 per emperor's palace, and 1 (kosmos)
    or 2 (designer) per rebel leader's village."""
    per_village = 1 if state.config.kosmos else 2
    emperor = EMPEROR_PALACE_STRENGTH * state.palaces(state.emperor)
    rebels = per_village * state.villages(phase.leader)
    for s in range(state.players):
        if phase.sides[s] == EMPEROR_SIDE:
            emperor += phase.army[s]
        else:
            rebels += phase.army[s]
    return emperor, rebels


def _battle(state: State, phase: Rebellion, log: list[LogEntry]) -> State:
    emperor_strength, rebel_strength = strengths(state, phase)
    rebels_win = rebel_strength > emperor_strength  # ties: the emperor's side wins
    army = state.army
    for s in range(state.players):
        army = add(army, s, -phase.army[s])
    winners_side = REBEL_SIDE if rebels_win else EMPEROR_SIDE
    leader = phase.leader if rebels_win else state.emperor
    log.append(
        LogEntry(
            "battle",
            {
                "sides": list(phase.sides),
                "army": list(phase.army),
                "leader": phase.leader,
                "emperor_strength": emperor_strength,
                "rebel_strength": rebel_strength,
                "winner": "rebels" if rebels_win else "emperor",
            },
        )
    )
    allies = [s for s in state.seats_from(leader)[1:] if phase.sides[s] == winners_side]
    groups: list[tuple[int, ...]] = [(leader,)]
    for amount in sorted({phase.army[s] for s in allies}, reverse=True):
        group = tuple(s for s in allies if phase.army[s] == amount)
        if state.config.kosmos:  # 001: ties pick in order from the left of the winning leader
            groups += [(s,) for s in group]
        else:  # 002: "In the case of a tie the Emperor decides who will pick first"
            groups.append(group)
    losers = 0
    for s in range(state.players):
        if phase.sides[s] != winners_side:
            losers |= 1 << s
    spoils = Spoils(tuple(groups), losers, 0, state.emperor, ())
    return _settle_spoils(evolve(state, army=army, phase=spoils), log)


# --- the spoils ---------------------------------------------------------------------------


def spoils_targets(state: State, phase: Spoils, seat: int) -> list[int]:
    """Areas ``seat`` may take: a loser's (kosmos: a loser not yet hit), adjacent to one of
    the seat's own areas unless it holds none, and of a building it still has a chip for."""
    census = state.census()
    held = census.held[seat]
    mask = 0
    for loser in bits(phase.losers & ~phase.hit if state.config.kosmos else phase.losers):
        if loser < len(census.owned):
            mask |= census.owned[loser]
    if census.owned[seat]:
        mask &= census.reach[seat]
    allowed = 0
    for kind in range(6):
        if room_for(held, kind):
            allowed |= census.kinds[kind]
    return list(bits(mask & allowed))


def _apply_spoils(state: State, phase: Spoils, seat: int, command: Command, log: list[LogEntry]) -> State:
    head = phase.groups[0]
    if len(head) > 1:
        if not isinstance(command, First):
            raise wrong_command(state, seat, command.kind, Message("the emperor orders tied winners"))
        if seat != state.emperor:
            raise not_your_turn(state, state.emperor, Message("say which tied winner picks first"))
        if command.seat not in head:
            raise IllegalCommand(
                Message("{colour} is not one of the tied winners.", colour=colour_word(state, command.seat))
            )
        rest = tuple(s for s in head if s != command.seat)
        log.append(LogEntry("pick_order", {"seat": seat, "first": command.seat}))
        phase = evolve(phase, groups=((command.seat,), rest, *phase.groups[1:]))
        return _settle_spoils(evolve(state, phase=phase), log)
    if not isinstance(command, Take):
        raise wrong_command(
            state, seat, command.kind, Message("the winners of the rebellion take their spoils")
        )
    if seat != head[0]:
        raise not_your_turn(state, head[0], Message("take an area"))
    choices = spoils_targets(state, phase, seat)
    if command.area not in choices:
        raise IllegalCommand(
            Message(
                "You cannot take {area}: {why}.",
                area=area_name(state, command.area),
                why=_why_not(state, phase, seat, command.area),
            )
        )
    area, loser = command.area, state.owner[command.area]
    # A village taken from the emperor could be counted here too and change nothing: its taker
    # holds no more palaces than the emperor, who keeps all of his (kosmos: a loser loses one
    # area; designer: the emperor is checked after every take), so it never ties for most.
    took_palace_from_emperor = state.building[area] == Building.PALACE and loser == (
        phase.old_emperor if state.config.kosmos else state.emperor
    )
    state = set_area(state, area, owner=seat)
    log.append(
        LogEntry("took", {"seat": seat, "area": area, "from": loser, "building": state.building[area]})
    )
    takers = phase.palace_takers + ((seat,) if took_palace_from_emperor else ())
    if state.config.designer:  # 002: the emperor may change at once, throughout the game
        state = update_emperor(state, log, took_from=(seat,) if took_palace_from_emperor else ())
    phase = evolve(phase, groups=phase.groups[1:], hit=phase.hit | 1 << loser, palace_takers=takers)
    return _settle_spoils(evolve(state, phase=phase), log)


def _why_not(state: State, phase: Spoils, seat: int, area: int) -> Message:
    owner = state.owner[area]
    if owner < 0 or not phase.losers >> owner & 1:
        return Message("it does not belong to a player on the losing side")
    if state.config.kosmos and phase.hit >> owner & 1:
        return Message(
            "{colour} has already lost an area in this rebellion", colour=colour_word(state, owner)
        )
    if not room_for(holdings(state, seat), state.building[area]):
        return Message(
            "you have no {building} chip left", building=Word(Building(state.building[area]).label)
        )
    return Message("it is not next to one of your areas")


def _settle_spoils(state: State, log: list[LogEntry]) -> State:
    """Give a VP chip to each winner in turn who cannot take an area; end the spoils."""
    phase = state.phase
    assert isinstance(phase, Spoils)
    while phase.groups and len(phase.groups[0]) == 1:
        seat = phase.groups[0][0]
        if spoils_targets(state, phase, seat):
            return evolve(state, phase=phase)
        state = evolve(state, vp=add(state.vp, seat, 1))
        log.append(LogEntry("consolation", {"seat": seat}))
        phase = evolve(phase, groups=phase.groups[1:])
    if phase.groups:
        return evolve(state, phase=phase)
    if state.config.kosmos:  # 001 p.6 and the "Nachtrag": checked once, after the rebellion
        state = update_emperor(state, log, took_from=phase.palace_takers)
    return evolve(state, rebel=-1, phase=StepDone("rebellion"))
