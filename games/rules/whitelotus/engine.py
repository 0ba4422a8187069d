"""The White Lotus rules module: setup, apply, outcome, replay (who decides what and what they
may answer, ``pending`` and ``legal``, are :mod:`.decisions`; the defaults :mod:`.defaults`).

Two layers of validation: first whether the game is running and it is this seat's
decision (with a message naming whose it is), then whether the move is legal (the phase
module's message).  Every :class:`IllegalCommand` leaving :func:`apply` ends with the menu
of what the seat may do now, so it can be mailed back as it is.

After each accepted command the engine settles: finished steps start the next one, and a
non-sealed decision with exactly one legal answer is played at once (logged as "forced").
Sealed decisions are never played for a seat, since that would tell the others something
about its hand.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from .. import chance as chance_
from ..base import IllegalCommand, LogEntry, Message, Outcome, Word
from ..chance import Chance, ChanceError
from . import flow
from .commands import Command, Give
from .common import all_of
from .constants import START_ARMY, START_INFLUENCE, START_TILES, TILE_COUNTS, Building
from .decisions import RULES, pending
from .menu import describe
from .rng_draws import fill, first_emperor
from .scoring import outcome as final_outcome
from .state import (
    Bidding,
    Config,
    Finished,
    PalaceChoices,
    Placement,
    Rebellion,
    State,
    StepDone,
    TieBreak,
    Working,
    add,
    bag_index,
    evolve,
    put,
    settled,
)

# Placement settles its own forced moves; sealed decisions are never played for a seat.
NEVER_FORCED = frozenset({Placement, Bidding, Rebellion, PalaceChoices})


def setup(config: Config, seed: str, chance: Sequence[Chance] = ()) -> State:
    """A new game: start tiles shuffled onto the lotus areas, hands dealt, year 1 begins.
    ``chance``: the outcomes of its draws as a record gives them (games.rules.chance)."""
    n = config.players
    board = config.board
    lotus = [p.index for p in board.provinces if p.lotus and p.index in board.in_play(n)]
    start = START_TILES + ((Building.VILLAGE,) if n == 6 else ())
    if len(lotus) != len(start):
        raise ValueError(
            f"board {board.name} has {len(lotus)} start areas in play with {n} "
            f"players; the rules need {len(start)}"
        )
    state = State(
        config=config,
        seed=seed,
        draws=0,
        year=1,
        emperor=0,
        rebel=-1,
        building=(0,) * board.size,
        owner=(-1,) * board.size,
        markers=(0,) * board.size,
        influence=(START_INFLUENCE,) * n,
        army=(START_ARMY,) * n,
        vp=(0,) * n,
        bag=tuple(TILE_COUNTS[k] for k in Building),
        boxed=0,
        final_year=False,
        phase=StepDone("setup"),
        given=tuple(chance),
    )
    if config.first_emperor is None:  # "most grey hair": drawn by lot in a mail game
        first, state = first_emperor(state)
    else:
        first = config.first_emperor
    placed, state = fill(
        state, lotus, [int(k) for k in start], Message("The start tiles are shuffled onto the lotus areas")
    )
    building, bag = state.building, state.bag
    for area, kind in placed:
        building = put(building, area, kind)
        bag = add(bag, bag_index(kind), -1)
    state = evolve(state, emperor=first, building=building, bag=bag)
    log: list[LogEntry] = []
    state = _settle(flow.start_year(state, log), log)
    chance_.settle(state)
    return state


def apply(
    state: State, seat: int, command: Command, chance: Sequence[Chance] = ()
) -> tuple[State, list[LogEntry]]:
    """The state after ``seat`` plays ``command``; ``chance``: the outcomes of the draws it
    makes, as a record gives them (games.rules.chance)."""
    log: list[LogEntry] = []
    state = chance_.give(state, chance, evolve)
    try:
        new = _step(state, seat, command, log)
    except ChanceError:
        raise
    except IllegalCommand as error:
        raise IllegalCommand(
            error.text, legal=_menu_lines(state, seat), note=_menu_hint(state, seat)
        ) from None
    new = _settle(new, log)
    if new.given:
        chance_.settle(new)
    return new, log


def _step(state: State, seat: int, command: Command, log: list[LogEntry]) -> State:
    if isinstance(state.phase, Finished):
        raise IllegalCommand(Message("The game is over."))
    if not 0 <= seat < state.players:
        raise IllegalCommand(Message("There is no seat {seat} in this game.", seat=seat))
    if isinstance(command, Give):
        return give(state, seat, command, log)
    rules = RULES[type(state.phase)]
    try:
        new: State = rules.apply(state, seat, command, log)
    except IllegalCommand:
        # checked only on the error path, so that legal moves (and replay) stay cheap
        if seat not in {d.seat for d in pending(state)} and not rules.legal(state, seat):
            raise IllegalCommand(_not_yours(state)) from None
        raise
    return new


def _not_yours(state: State) -> Message:
    waiting = sorted({d.seat for d in pending(state)})
    # the seats waited for are named as seats are ("Red"), not as colours in a command ("red")
    colours = all_of(state, waiting, case="capitalize")
    return Message("Nothing is yours to decide now: waiting for {colours}.", colours=colours)


def _settle(state: State, log: list[LogEntry]) -> State:
    """Start the next steps and play forced decisions: each phase module's ``forced`` finds
    a lone decision with one answer without listing whole menus (replay settles after every
    command)."""
    while True:
        kind = type(state.phase)
        if kind is StepDone:
            state = flow.proceed(state, log)
            continue
        if kind in NEVER_FORCED or kind not in RULES:
            return state
        rules = RULES[kind]
        found = rules.forced(state)
        if found is None:
            return state
        decision, command = found
        log.append(LogEntry("forced", {"seat": decision.seat, "kind": decision.kind}))
        state = rules.apply(state, decision.seat, command, log)


def give(state: State, seat: int, command: Give, log: list[LogEntry]) -> State:
    """Negotiation variant (001 "Variante für eifrige Verhandler", 004 4): points given to
    another player, at any time, openly (D12).  Points sealed in a bid or army commitment
    that is not yet revealed cannot be given away."""
    if not state.config.options.negotiation:
        raise IllegalCommand(Message("Gifts are only allowed in games with the negotiation variant."))
    if not 0 <= command.to < state.players or command.to == seat:
        raise IllegalCommand(Message("Give to another player of this game."))
    if command.amount < 1:
        raise IllegalCommand(Message("Give at least 1 point."))
    hand = state.army if command.army else state.influence
    free = hand[seat] - committed(state, seat, army=command.army)
    kind = "army" if command.army else "influence"
    if command.amount > free:
        raise IllegalCommand(
            Message(
                "You cannot give {amount} {points} points: you have {free} that are not sealed in a bid.",
                amount=command.amount,
                points=Word(kind),
                free=free,
            )
        )
    hand = add(add(hand, seat, -command.amount), command.to, command.amount)
    log.append(LogEntry("gift", {"seat": seat, "to": command.to, "amount": command.amount, "kind": kind}))
    return evolve(state, army=hand) if command.army else evolve(state, influence=hand)


def committed(state: State, seat: int, army: bool) -> int:
    """Points of ``seat`` bid or committed and not yet paid."""
    phase = state.phase
    if army and isinstance(phase, Rebellion):
        return max(phase.army[seat], 0)
    if not army and isinstance(phase, Bidding | TieBreak):  # a tie: revealed but not yet paid
        bid = phase.bids[seat]
        return bid[1] if bid is not None else 0
    return 0


def outcome(state: State) -> Outcome | None:
    return final_outcome(state) if isinstance(state.phase, Finished) else None


def replay(config: Config, seed: str, moves: Iterable[tuple[int, Command]]) -> State:
    draft = Draft(setup(config, seed))
    play = draft.apply
    for seat, command in moves:
        play(seat, command)
    return draft.done()


class Draft:
    """A fold's working copy (``serial.draft``): each move changes one :class:`Working` state
    in place, as :func:`apply` would return it changed; ``done()`` copies it out.  A move it
    refuses raises as :func:`apply` does, without the menu, and spends the draft."""

    def __init__(self, state: State) -> None:
        self._state: State = Working.of(state)
        self._log: list[LogEntry] = []  # what the moves log: nobody reads it, emptied now and then

    def apply(self, seat: int, command: Command, chance: Sequence[Chance] = (), /) -> None:
        state, log = self._state, self._log
        if chance:
            state = evolve(state, given=tuple(chance))
        state = self._state = _settle(_step(state, seat, command, log), log)
        if len(log) > 256:
            log.clear()
        if state.given:
            chance_.settle(state)

    def done(self) -> State:
        return settled(self._state)


def _menu_lines(state: State, seat: int) -> list[str]:
    return describe(state, seat)


def _menu_hint(state: State, seat: int) -> str:
    lines = _menu_lines(state, seat)
    if not lines:
        return ""
    return "\nWhat you can do now:\n" + "\n".join(f"  {line}" for line in lines)
