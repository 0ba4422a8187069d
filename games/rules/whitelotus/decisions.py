"""Who decides what, and what they may answer: the phase module of each phase (``RULES``),
the decisions owed now (``pending``) and a seat's menu (``legal``).

Below both the engine (which applies a command through the same phase modules, and names the
menu when it refuses one) and the menu in words (:mod:`.menu`), so that neither has to import
the other to know what a seat may do."""

from __future__ import annotations

from types import ModuleType

from ..base import Decision
from . import contest, income, placement, rebellion, tiles
from .commands import Command
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
)

RULES: dict[type, ModuleType] = {
    Placement: placement,
    ChooseContest: contest,
    Bidding: contest,
    TieBreak: contest,
    RebellionOffer: rebellion,
    Rebellion: rebellion,
    Spoils: rebellion,
    PalaceChoices: income,
    NewAreas: tiles,
}


def pending(state: State) -> tuple[Decision, ...]:
    rules = RULES.get(type(state.phase))
    return rules.pending(state) if rules else ()


def legal(state: State, seat: int) -> tuple[Command, ...]:
    """The menu of ``seat``: answers to its decision (also to a sealed one it has already
    given, which it may still change).  Gifts (negotiation variant) are not listed."""
    rules = RULES.get(type(state.phase))
    return rules.legal(state, seat) if rules else ()
