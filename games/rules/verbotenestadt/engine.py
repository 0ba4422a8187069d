"""The Verbotene Stadt rules module: setup, apply, outcome, replay (who decides what and what
they may answer, ``pending`` and ``legal``, are :mod:`.decisions`; the defaults :mod:`.defaults`).

The flow of a game (RULES.md cites the seed for each step)::

    dial window (sealed, all)  ->  start player, target  ->  turn of the start player
    turn: move -> fate die (rolled for the left neighbour) -> move again on red ... until black
          (or the player stops); a dragon face lets the roller take a card first;
          a pavilion face rolls a new target before the next move
    entering the target pavilion ends the turn: the card(s) go out (a challenge first, once
          bluffing is open), the official goes to the terrace, a re-bribe window (sealed),
          the mover rolls the next target, the left neighbour plays (or the mover again after
          a believed bluff) ... until the 15th official reaches the terrace.

Every :class:`IllegalCommand` leaving :func:`apply` names what the seat may do now.  Decisions
with exactly one possible answer (a penalty card when there is only one) are played at once; a
dragon and an empty pavilion always ask, since their taking may be spared.

Long on purpose: one turn's steps (the dial window, moves and the fate die, entering a pavilion,
the challenge, the tasks, the end) call each other in both directions; split, each part would
import the others.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from .. import chance as chance_
from ..base import IllegalCommand, LogEntry, Message, Outcome, Word
from ..chance import Chance, ChanceError
from . import dice
from .commands import Believe, Command, Dial, Doubt, Keep, Move, Plan, Spare, Stop, Take
from .constants import (
    CARDS,
    DIE_ORDER,
    GARMENT_COLOURS,
    MAX_PLAN,
    OFFICIALS,
    PIECES,
    TAKE_ALL_FROM,
    TERRACE_PLACES,
    Card,
)
from .decisions import (
    _may_enter,
    _may_keep,
    _target_square,
    bluffing_open,
    can_move,
    legal,
    owed,
    pending,
    take_options,
)
from .menu import describe
from .moves import MoveError, trace
from .notation import format_command
from .scoring import outcome_of, score
from .state import Config, Entry, State, Working, evolve, move_official, put, settled

_CODES = frozenset(OFFICIALS)

# -- setup ------------------------------------------------------------------------------


def setup(config: Config, seed: str, chance: Sequence[Chance] = ()) -> State:
    """A new game: the officials placed on the 25 start squares by lot ("beliebig"), each
    pavilion's three cards shuffled, and the first window: every seat sets its dial."""
    board = config.board
    if len(board.start) != len(OFFICIALS):
        raise ValueError(f"board {board.name} has {len(board.start)} start squares; the game needs 25")
    if [p.colour for p in board.pavilions] != list(GARMENT_COLOURS):
        raise ValueError(f"board {board.name} must have the 8 pavilions {', '.join(GARMENT_COLOURS)}")
    n = config.players
    state = State(
        config=config,
        seed=seed,
        draws=0,
        squares=(None,) * len(OFFICIALS),
        terrace=(),
        piles=((),) * len(GARMENT_COLOURS),
        hands=((),) * n,
        dials=(None,) * n,
        dial_sets=(0,) * n,
        commitments=("",) * n,
        phase="dial",
        window=tuple((s, "dial") for s in range(n)),
        sealed=(None,) * n,
        given=tuple(chance),
    )
    order, state = dice.officials(state)
    places = dict(zip(order, board.start, strict=True))
    piles = []
    for colour in GARMENT_COLOURS:
        pieces, state = dice.pile(state, colour)
        piles.append(tuple((colour, piece) for piece in pieces))
    state = evolve(state, squares=tuple(places[c] for c in OFFICIALS), piles=tuple(piles))
    chance_.settle(state)
    return state


# -- applying a command ----------------------------------------------------------------


def apply(
    state: State, seat: int, command: Command, chance: Sequence[Chance] = ()
) -> tuple[State, list[LogEntry]]:
    """The state after ``seat`` plays ``command``; ``chance``: the outcomes of the draws it
    makes, as a record gives them (games.rules.chance)."""
    log: list[LogEntry] = []
    if state.phase == "finished":
        raise IllegalCommand(Message("The game is over."))
    if not 0 <= seat < state.players:
        raise IllegalCommand(Message("There is no seat {seat}.", seat=seat))
    kind = owed(state, seat)
    if kind is None:
        waiting = ", ".join(sorted({state.config.seats[d.seat] for d in pending(state)}))
        raise IllegalCommand(Message("It is not your decision now; waiting for {seats}.", seats=waiting))
    state = chance_.give(state, chance, evolve)
    try:
        state = _apply(state, seat, kind, command, log)
    except ChanceError:
        raise
    except IllegalCommand as error:
        raise _with_menu(state, seat, error) from None
    if state.given:
        chance_.settle(state)
    return state, log


class Draft:
    """A fold's working copy (``serial.draft``): each move changes one :class:`Working` state
    in place, as :func:`apply` would return it changed; ``done()`` copies it out.  A move it
    refuses raises as :func:`apply` does, without the menu, and spends the draft."""

    def __init__(self, state: State) -> None:
        self._state: State = Working.of(state)
        self._log: list[LogEntry] = []  # what the moves log: nobody reads it, emptied now and then

    def apply(self, seat: int, command: Command, chance: Sequence[Chance] = (), /) -> None:
        state, log = self._state, self._log
        kind = None if state.phase == "finished" or not 0 <= seat < state.players else owed(state, seat)
        if kind is None:
            apply(state, seat, command, chance)  # refuses it, in its words
            raise AssertionError("apply took a move its draft refuses")
        if chance:
            state = evolve(state, given=tuple(chance))
        state = self._state = _apply(state, seat, kind, command, log)
        if len(log) > 256:
            log.clear()
        if state.given:
            chance_.settle(state)

    def done(self) -> State:
        return settled(self._state)


def _with_menu(state: State, seat: int, error: IllegalCommand) -> IllegalCommand:
    menu = [format_command(state, c) for c in legal(state, seat)]
    note = "\nLegal now:\n" + "\n".join(describe(state, seat)) if menu else ""
    return IllegalCommand(error.text, legal=menu, note=note)


def _refuse(template: str, **args: str | int | Word | Message) -> IllegalCommand:
    return IllegalCommand(Message(template, **args))


def _apply(state: State, seat: int, kind: str, c: Command, log: list[LogEntry]) -> State:
    if kind in ("dial", "rebribe"):
        if isinstance(c, Keep):
            if kind != "rebribe":
                raise _refuse("Set your dial to an official: there is nothing to keep.")
            if not _may_keep(state, seat):
                raise _refuse("Your dial names an official on the terrace: set a new one.")
            return _submit(state, seat, "keep", log)
        if isinstance(c, Dial):
            if c.code not in _CODES:
                raise _refuse("There is no official {code}.", code=c.code)
            if state.square_of(c.code) is None:
                raise _refuse("Official {code} is on the terrace: bribe one still on the board.", code=c.code)
            return _submit(state, seat, c.code, log)
        if kind == "rebribe":
            raise _refuse("Keep your dial or set a new one now (the re-bribe window).")
        raise _refuse("Set your secret dial now: the game waits for every dial.")
    if kind == "challenge":
        if isinstance(c, Believe | Doubt):
            return _submit(state, seat, c.kind, log)
        raise _refuse("Believe or doubt the mover now.")
    if kind == "move":
        if isinstance(c, Stop):
            if not state.moves:
                raise _refuse("The first move of a turn must be made: you cannot stop yet.")
            log.append(LogEntry("stopped", {"seat": seat}))
            return _end_turn(state, log)
        if isinstance(c, Move):
            return _move(state, _checked(state, seat, c), c, log)
        if isinstance(c, Plan):
            return _plan(state, seat, c, log)
        raise _refuse("Move an official now (or stop, once you have moved).")
    if isinstance(c, Spare) and kind in ("dragon", "empty"):
        log.append(LogEntry("spared", {"seat": seat}))
        return _run_tasks(evolve(state, tasks=state.tasks[1:]), log)
    if isinstance(c, Take):
        card = (c.colour, c.piece)
        if card not in take_options(state):
            raise _refuse(
                "You cannot take that card ({piece}, {colour}) now.",
                colour=Word(c.colour),
                piece=Word(c.piece),
            )
        state = _transfer(state, [card], seat, log, kind)
        return _run_tasks(evolve(state, tasks=state.tasks[1:]), log)
    raise _refuse("Choose a card to take now.")


# -- sealed windows -----------------------------------------------------------------------


def _submit(state: State, seat: int, value: str, log: list[LogEntry]) -> State:
    first = state.sealed[seat] is None
    state = evolve(state, sealed=put(state.sealed, seat, value))
    log.append(LogEntry("submitted" if first else "changed", {"seat": seat}))
    log.append(LogEntry("sealed", {"seat": seat, "choice": value}, private_to=seat))
    sealed = state.sealed
    for s, _kind in state.window:
        if sealed[s] is None:
            return state
    return _close_window(state, log)


def _close_window(state: State, log: list[LogEntry]) -> State:
    if state.phase == "challenge":
        return _resolve_challenge(state, log)
    # Every dial of the window gets a fresh salt and commitment, kept or not, and the public
    # entry says nothing of who kept: a kept dial's unchanged hash would tell it.
    dials, sets, commits = list(state.dials), list(state.dial_sets), list(state.commitments)
    for s, _kind in state.window:
        value = state.sealed[s]
        if value != "keep" and value is not None:
            dials[s] = value
            log.append(LogEntry("dial", {"seat": s, "code": value}, private_to=s))
        code = dials[s]
        if code is None:
            continue
        sets[s] += 1
        commits[s] = dice.commitment(s, code, dice.salt(state.seed, s, sets[s]))
    log.append(LogEntry("dials", {"commitments": list(commits)}))
    state = evolve(
        state,
        dials=tuple(dials),
        dial_sets=tuple(sets),
        commitments=tuple(commits),
        window=(),
        sealed=(None,) * state.players,
    )
    if state.entry is None:  # the first window: the start player, the first target
        first = state.config.first_seat
        if first is None:  # the roll-off begins at a seat drawn by lot (OP 10), then clockwise
            first, state = dice.first(state)
            while True:
                face, state = dice.fate(state, "large")
                log.append(LogEntry("start_roll", {"seat": first, "face": face}))
                if face != "black":
                    break
                first = (first + 1) % state.players
        log.append(LogEntry("start_player", {"seat": first}))
        state = _roll_target(state, first, log)
        return _start_turn(state, first, log)
    mover = state.entry.mover
    state = _roll_target(state, mover, log)
    following = mover if state.extra_turn else (mover + 1) % state.players
    if state.extra_turn:
        log.append(LogEntry("extra_turn", {"seat": mover}))
    return _start_turn(evolve(state, entry=None, extra_turn=False), following, log)


def _roll_target(state: State, seat: int, log: list[LogEntry], reason: str = "") -> State:
    number, state = dice.pavilion(state)
    log.append(LogEntry("target", {"seat": seat, "pavilion": number, "reason": reason}))
    return evolve(state, target=number)


# -- turns and moves ----------------------------------------------------------------------


def _start_turn(state: State, seat: int, log: list[LogEntry]) -> State:
    state = evolve(state, active=seat, moves=0, plan=(), plan_stop=False, turn=state.turn + 1, phase="move")
    log.append(LogEntry("turn", {"seat": seat, "turn": state.turn}))
    if not can_move(state, seat):  # nothing on the board can move (never on a real board)
        log.append(LogEntry("no_move", {"seat": seat}))
        state = evolve(state, passes=state.passes + 1)
        if state.passes >= state.players:
            return _finish(state, log)
        return _start_turn(state, (seat + 1) % state.players, log)
    return state


def _end_turn(state: State, log: list[LogEntry]) -> State:
    if state.plan:
        log.append(LogEntry("plan_dropped", {"seat": state.active, "moves": len(state.plan)}))
    return _start_turn(state, (state.active + 1) % state.players, log)


def _checked(state: State, seat: int, move: Move) -> tuple[list[tuple[int, int]], bool]:
    """The squares ``move`` passes and whether it enters the target; refuses it if illegal."""
    if move.code not in _CODES:
        raise _refuse("There is no official {code}.", code=move.code)
    start = state.square_of(move.code)
    if start is None:
        raise _refuse("Official {code} is on the terrace.", code=move.code)
    try:
        passed, entered = trace(
            state.board,
            # a move of one or two slides (an L) never passes its own start square again
            state.occupied() if len(move.path) <= 2 else state.occupied(besides=move.code),
            start,
            move.path,
            move.short,
            _target_square(state),
            state.config.max_slides,
        )
    except MoveError as error:
        raise IllegalCommand(Message(error.reason, **error.args_)) from None
    if entered and not _may_enter(state, seat, move.code):
        raise _refuse(
            "Until you and another player own a card, only the official on your dial"
            " may enter the target pavilion."
        )
    return passed, entered


def _plan(state: State, seat: int, plan: Plan, log: list[LogEntry]) -> State:
    if not plan.moves:
        if not state.moves:
            raise _refuse("The first move of a turn must be made: you cannot stop yet.")
        log.append(LogEntry("stopped", {"seat": seat}))
        return _end_turn(state, log)
    if len(plan.moves) > MAX_PLAN:
        raise _refuse("A plan may hold at most {n} moves.", n=MAX_PLAN)
    checked = _checked(state, seat, plan.moves[0])
    log.append(LogEntry("plan", {"seat": seat, "moves": len(plan.moves), "stop": plan.stop}, private_to=seat))
    state = evolve(state, plan=plan.moves[1:], plan_stop=plan.stop)
    return _move(state, checked, plan.moves[0], log)


def _move(
    state: State, checked: tuple[list[tuple[int, int]], bool], move: Move, log: list[LogEntry]
) -> State:
    passed, entered = checked
    seat = state.active
    start = state.square_of(move.code)
    assert start is not None
    state = move_official(
        state,
        move.code,
        None if entered else passed[-1],
        terrace=(*state.terrace, move.code) if entered else state.terrace,
        moves=state.moves + 1,
        last_move=(move.code, (start, *passed)),
        passes=0,
    )
    log.append(
        LogEntry(
            "moved",
            {
                "seat": seat,
                "code": move.code,
                "path": list(move.path),
                "short": move.short,
                "to": list(passed[-1]),
                "entered": entered,
            },
        )
    )
    return _enter(state, log) if entered else _fate(state, log)


def _fate(state: State, log: list[LogEntry]) -> State:
    die = DIE_ORDER[min(state.moves, len(DIE_ORDER)) - 1]
    roller = (state.active + 1) % state.players
    face, state = dice.fate(state, die)
    state = evolve(state, fate_last=(die, face))
    log.append(LogEntry("fate", {"seat": roller, "die": die, "face": face, "active": state.active}))
    if face == "black":
        return _end_turn(state, log)
    if face == "red-pavilion":
        before = state.target
        state = _roll_target(state, state.active, log, reason="fate")
        if state.target == before:  # "Mit viel Glück bleibt alles beim alten": the plan goes on
            return _go_on(state, log)
        if state.plan or state.plan_stop:
            log.append(LogEntry("plan_dropped", {"seat": state.active, "moves": len(state.plan)}))
        return evolve(state, plan=(), plan_stop=False, phase="move")
    if face == "red-dragon":
        if any(h for s, h in enumerate(state.hands) if s != roller):
            return evolve(state, phase="take", tasks=(("dragon", roller),))
        log.append(LogEntry("dragon_idle", {"seat": roller}))
    return _go_on(state, log)


def _go_on(state: State, log: list[LogEntry]) -> State:
    """The active player may move again: the next move of the plan, or ask."""
    seat = state.active
    if state.phase != "move":
        state = evolve(state, phase="move")
    if state.plan:
        move, rest = state.plan[0], state.plan[1:]
        try:
            checked = _checked(state, seat, move)
        except IllegalCommand as error:
            # publicly only that the plan ended: which move failed (and why) may tell the dial
            log.append(LogEntry("plan_broken", {"seat": seat, "left": len(rest) + 1}))
            log.append(
                LogEntry(
                    "plan_reason",
                    {"seat": seat, "code": move.code, "reason": error.text.to_data()},
                    private_to=seat,
                )
            )
            return evolve(state, plan=(), plan_stop=False)
        return _move(evolve(state, plan=rest), checked, move, log)
    if state.plan_stop:
        log.append(LogEntry("stopped", {"seat": seat}))
        return _end_turn(evolve(state, plan_stop=False), log)
    return state


# -- entering the target pavilion --------------------------------------------------------


def _enter(state: State, log: list[LogEntry]) -> State:
    mover = state.active
    code = state.terrace[-1]
    assert state.target is not None
    entry = Entry(
        mover=mover,
        code=code,
        pavilion=state.target,
        honest=state.dials[mover] == code,
        take_all=len(state.terrace) > TAKE_ALL_FROM,
    )
    log.append(
        LogEntry(
            "entered", {"seat": mover, "code": code, "pavilion": state.target, "take_all": entry.take_all}
        )
    )
    if state.plan:
        log.append(LogEntry("plan_dropped", {"seat": mover, "moves": len(state.plan)}))
    state = evolve(state, entry=entry, plan=(), plan_stop=False, revealed=())
    if not bluffing_open(state, mover):  # only the bribed official could enter: honest
        state = _reveal(state, mover, log)
        recipient, state = _same_choice(state, log)
        return _run_tasks(evolve(state, tasks=(("pile", recipient),)), log)
    challengers = tuple(s for s in _clockwise(state, mover)[1:] if state.hands[s])
    log.append(LogEntry("challenge", {"seat": mover, "challengers": list(challengers)}))
    return evolve(
        state,
        phase="challenge",
        window=tuple((s, "challenge") for s in challengers),
        sealed=(None,) * state.players,
    )


def _clockwise(state: State, seat: int) -> list[int]:
    """The seats in play order starting at ``seat``."""
    return [(seat + i) % state.players for i in range(state.players)]


def _reveal(state: State, seat: int, log: list[LogEntry]) -> State:
    code = state.dials[seat]
    assert code is not None
    salt = dice.salt(state.seed, seat, state.dial_sets[seat])
    log.append(
        LogEntry(
            "revealed", {"seat": seat, "code": code, "salt": salt, "commitment": state.commitments[seat]}
        )
    )
    return evolve(state, revealed=(*state.revealed, (seat, code, salt)))


def _same_choice(state: State, log: list[LogEntry]) -> tuple[int, State]:
    """Seats that bribed the same official show their dials; the card goes to the one of them
    furthest clockwise from the mover (the mover if none)."""
    assert state.entry is not None
    mover, code = state.entry.mover, state.entry.code
    same = [s for s in _clockwise(state, mover)[1:] if state.dials[s] == code]
    for s in same:
        state = _reveal(state, s, log)
    if not same:
        return mover, state
    log.append(LogEntry("same_choice", {"seat": mover, "seats": same, "recipient": same[-1]}))
    return same[-1], state


def _resolve_challenge(state: State, log: list[LogEntry]) -> State:
    entry = state.entry
    assert entry is not None
    mover = entry.mover
    order = _clockwise(state, mover)[1:]
    doubters = [s for s in order if state.sealed[s] == "doubt"]
    believers = [s for s in order if state.sealed[s] == "believe"]
    doubter = doubters[0] if doubters else None
    log.append(
        LogEntry("answers", {"seat": mover, "believed": believers, "doubted": doubters, "doubter": doubter})
    )
    state = evolve(state, window=(), sealed=(None,) * state.players)
    state = _reveal(state, mover, log)
    case = (
        ("honest" if entry.honest else "bluff")
        if doubter is None
        else ("doubted_honest" if entry.honest else "doubted_bluff")
    )
    log.append(LogEntry("challenge_result", {"seat": mover, "case": case, "doubter": doubter}))
    tasks: tuple[tuple[int | str, ...], ...]
    if case == "honest":
        recipient, state = _same_choice(state, log)
        tasks = (("pile", recipient),)
    elif case == "bluff":
        tasks = (("pile", mover),)
        state = evolve(state, extra_turn=len(state.terrace) < TERRACE_PLACES)
    elif doubter is not None and case == "doubted_honest":
        tasks = (("pile", mover), ("penalty", mover, doubter))
    else:
        assert doubter is not None
        tasks = (("pile", doubter), ("penalty", doubter, mover))
    return _run_tasks(evolve(state, tasks=tasks), log)


def _transfer(state: State, cards: Sequence[Card], to: int, log: list[LogEntry], reason: str) -> State:
    hands = [list(h) for h in state.hands]
    for card in cards:
        giver = state.holder(card)
        assert giver is not None and giver != to
        hands[giver].remove(card)
        hands[to].append(card)
        log.append(
            LogEntry(
                "took", {"seat": to, "from": giver, "colour": card[0], "piece": card[1], "reason": reason}
            )
        )
    return evolve(state, hands=tuple(tuple(h) for h in hands))


def _run_tasks(state: State, log: list[LogEntry]) -> State:
    """Settle the card transfers in order; stop at one that needs a choice."""
    while state.tasks:
        task = state.tasks[0]
        kind, taker = str(task[0]), int(task[1])
        if kind == "pile":
            entry = state.entry
            assert entry is not None
            pile = state.piles[entry.pavilion - 1]
            if pile:
                took = pile if entry.take_all else pile[:1]
                hands = put(state.hands, taker, (*state.hands[taker], *took))
                piles = put(state.piles, entry.pavilion - 1, pile[len(took) :])
                state = evolve(state, hands=hands, piles=piles)
                for card in took:
                    log.append(
                        LogEntry(
                            "took_pile",
                            {"seat": taker, "pavilion": entry.pavilion, "colour": card[0], "piece": card[1]},
                        )
                    )
                state = evolve(state, tasks=state.tasks[1:])
                continue
            state = evolve(state, tasks=(("empty", taker), *state.tasks[1:]))
            kind = "empty"
            log.append(LogEntry("empty", {"seat": taker, "pavilion": entry.pavilion}))
            if entry.take_all:  # all its cards from the others; a partner's stay (OP 8)
                partner = state.config.partner(taker)
                cards = [c for c in take_options(state) if state.holder(c) != partner]
                state = _transfer(state, cards, taker, log, "empty")
                state = evolve(state, tasks=state.tasks[1:])
                continue
        options = take_options(state)
        if not options:
            log.append(LogEntry("nothing", {"seat": taker, "reason": kind}))
            state = evolve(state, tasks=state.tasks[1:])
            continue
        if len(options) == 1 and kind not in ("dragon", "empty"):  # those two may be spared
            # (only a penalty gets here, and it is always the last task: ``continue`` and
            # ``break`` would do the same; the loop is written for any order of tasks)
            state = _transfer(state, options, taker, log, kind)
            state = evolve(state, tasks=state.tasks[1:])
            continue
        return evolve(state, phase="take")
    if state.entry is not None:
        return _after_entry(state, log)
    return _go_on(state, log)


def _after_entry(state: State, log: list[LogEntry]) -> State:
    entry = state.entry
    assert entry is not None
    if len(state.terrace) >= TERRACE_PLACES:  # (it reaches it and stops: never more)
        return _finish(state, log)
    n = state.players
    window = tuple((s, "dial" if s == entry.mover else "rebribe") for s in _clockwise(state, entry.mover))
    log.append(LogEntry("rebribe", {"seat": entry.mover}))
    return evolve(state, phase="dial", window=tuple(sorted(window)), sealed=(None,) * n)


def _finish(state: State, log: list[LogEntry]) -> State:
    shown = {s for s, _code, _salt in state.revealed}
    for s in range(state.players):
        if state.dials[s] is not None and s not in shown:
            state = _reveal(state, s, log)
    result = outcome_of(state.hands, state.config.options.partners)
    log.append(LogEntry("game_over", {"scores": list(result.scores), "rank": list(result.rank)}))
    return evolve(
        state, phase="finished", window=(), sealed=(None,) * state.players, tasks=(), extra_turn=False
    )


# -- outcome, defaults, replay ------------------------------------------------------------


def outcome(state: State) -> Outcome | None:
    if state.phase != "finished":
        return None
    return outcome_of(state.hands, state.config.options.partners)


def gain(state: State, seat: int, card: Card) -> int:
    """How many points ``card`` would add to ``seat``'s cards (for defaults and bots)."""
    return score((*state.hands[seat], card))["total"] - score(state.hands[seat])["total"]


def best_take(state: State, seat: int) -> Take:
    """The card that adds most to the seat (its partner's cards only when nothing else;
    :func:`default_take` spares a partner where it may)."""
    options = take_options(state)
    partner = state.config.partner(seat)
    preferred = [c for c in options if state.holder(c) != partner] or options
    card = max(preferred, key=lambda c: (gain(state, seat, c), -CARDS.index(c)))
    return Take(*card)


def default_take(state: State, seat: int) -> Take | Spare:
    """The card that adds most to the seat; where the decision may be spared (a dragon, an
    empty pavilion) and only a partner's card is left, nothing."""
    take = best_take(state, seat)
    partner = state.config.partner(seat)
    spareable = owed(state, seat) in ("dragon", "empty")
    if spareable and partner is not None and state.holder((take.colour, take.piece)) == partner:
        return Spare()
    return take


def replay(config: Config, seed: str, moves: Iterable[tuple[int, Command]]) -> State:
    draft = Draft(setup(config, seed))
    play = draft.apply
    for seat, command in moves:
        play(seat, command)
    return draft.done()


__all__ = ["PIECES", "apply", "outcome", "replay", "setup"]
