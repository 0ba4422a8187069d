"""Phase 5: new cards (001 "5. Neue Karten", 004 2.5, 002 "5. NEW CARDS").

Every player takes 10 influence and 2 army points, plus per palace 2 influence or 1 army
(their choice), per temple 3 influence, per ricefield 1 influence and 1 army, per fort 2
army.  The palace choices are sealed and taken together (D9)."""

from __future__ import annotations

from ..base import Decision, IllegalCommand, LogEntry, Message
from .commands import Command, PalaceChoice
from .common import holdings, wrong_command
from .constants import (
    FORT_ARMY,
    INCOME_ARMY,
    INCOME_INFLUENCE,
    PALACE_ARMY,
    PALACE_INFLUENCE,
    RICEFIELD_ARMY,
    RICEFIELD_INFLUENCE,
    TEMPLE_INFLUENCE,
    Building,
)
from .state import PalaceChoices, State, StepDone, add, evolve, put

PENDING, NO_PALACE = -1, -2


def begin(state: State, log: list[LogEntry]) -> State:
    choices = tuple(PENDING if state.palaces(s) else NO_PALACE for s in range(state.players))
    if PENDING in choices:
        return evolve(state, phase=PalaceChoices(choices))
    return _pay(state, choices, log)


def income(state: State, seat: int, palaces_as_army: int) -> tuple[int, int]:
    """(influence, army) a seat receives."""
    held = holdings(state, seat)
    palaces, temples = held[Building.PALACE], held[Building.TEMPLE]
    rice, forts = held[Building.RICEFIELD], held[Building.FORT]
    influence = (
        INCOME_INFLUENCE
        + PALACE_INFLUENCE * (palaces - palaces_as_army)
        + TEMPLE_INFLUENCE * temples
        + RICEFIELD_INFLUENCE * rice
    )
    army = INCOME_ARMY + PALACE_ARMY * palaces_as_army + RICEFIELD_ARMY * rice + FORT_ARMY * forts
    return influence, army


def _pay(state: State, choices: tuple[int, ...], log: list[LogEntry]) -> State:
    influence, army = state.influence, state.army
    for s in range(state.players):
        as_army = max(choices[s], 0)
        gain_i, gain_a = income(state, s, as_army)
        influence = add(influence, s, gain_i)
        army = add(army, s, gain_a)
        log.append(
            LogEntry(
                "income",
                {
                    "seat": s,
                    "influence": gain_i,
                    "army": gain_a,
                    "palaces_as_army": as_army,
                    "palaces": state.palaces(s),
                },
            )
        )
    return evolve(state, influence=influence, army=army, phase=StepDone("income"))


def pending(state: State) -> tuple[Decision, ...]:
    assert isinstance(state.phase, PalaceChoices)
    return tuple(
        Decision(s, "palace", sealed=True) for s, c in enumerate(state.phase.choices) if c == PENDING
    )


def legal(state: State, seat: int) -> tuple[Command, ...]:
    assert isinstance(state.phase, PalaceChoices)
    if state.phase.choices[seat] == NO_PALACE:
        return ()
    return tuple(PalaceChoice(k) for k in range(state.palaces(seat) + 1))


def apply(state: State, seat: int, command: Command, log: list[LogEntry]) -> State:
    phase = state.phase
    assert isinstance(phase, PalaceChoices)
    if not isinstance(command, PalaceChoice):
        raise wrong_command(state, seat, command.kind, Message("palace owners choose their palace cards"))
    if phase.choices[seat] == NO_PALACE:
        raise IllegalCommand(Message("You hold no palace, so there is nothing to choose."))
    palaces = state.palaces(seat)
    if not 0 <= command.army <= palaces:
        raise IllegalCommand(
            Message.counted(
                palaces,
                "You hold {palaces} palace: choose army for 0 to {palaces} of them.",
                "You hold {palaces} palaces: choose army for 0 to {palaces} of them.",
                palaces=palaces,
            )
        )
    choices = put(phase.choices, seat, command.army)
    log.append(LogEntry("sealed", {"seat": seat, "palaces_as_army": command.army}, private_to=seat))
    log.append(LogEntry("submitted", {"seat": seat, "what": "palace"}))
    if PENDING in choices:
        return evolve(state, phase=PalaceChoices(choices))
    return _pay(state, choices, log)
