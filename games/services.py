"""The only way into a game.  Every function here runs in one transaction under a row lock on
the game, validates against the state at the head, appends events and announces them
(``games.signals.events_appended``, inside the transaction: the mail outbox writes its rows
there) — all committed together or not at all.

State at the head = the latest snapshot + replay of the events after it.  A rollback appends
``rolled_back(to_seq)``; replay skips the undone events; nothing is deleted except snapshots,
which are a cache.
"""

from __future__ import annotations

import copy
import inspect
import logging
import secrets
import threading
from collections import OrderedDict
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import nullcontext
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from functools import lru_cache
from typing import Any

from django.conf import settings
from django.contrib.auth.models import User
from django.db import connection, transaction
from django.utils import timezone

from games.rules import chance, registry, rng
from games.rules.base import GameRules, IllegalCommand, LogEntry, Message
from games.rules.chance import Chance
from games.rules.presentation import DEFAULTS, presented

from . import permissions, results, rows, timing
from .models import (
    PLACEHOLDER_DOMAIN,
    Collection,
    Event,
    Game,
    PendingDecision,
    Player,
    Seat,
    SeatRow,
    Snapshot,
)
from .projections import narration
from .signals import events_appended
from .timing import TimeControls

MOVE_KINDS = (Event.Kind.COMMAND, Event.Kind.DEFAULT)

# A game's state, command and config are its rules package's own values: the service only
# passes them back to the same package (``rules_of(game)``).
State = Any
Command = Any
Config = Any

# Per-process caches.  Sound because events are append-only and every change to a game
# appends one: the state after event ``head_seq`` of a game never changes, and a config is
# read from the first event.  Bounded; a miss only costs a snapshot load.
_HEADS_KEPT = 512
logger = logging.getLogger(__name__)
_cache_lock = threading.Lock()
_heads: OrderedDict[tuple[int, datetime, int], State] = OrderedDict()
_configs: dict[tuple[int, datetime], tuple[Config, int]] = {}  # the config and the number of seats
_seats: OrderedDict[tuple[int, datetime, int], tuple[SeatRow, ...]] = OrderedDict()


def _identity(game: Game) -> tuple[int, datetime]:
    """A game's key in the caches: its id and creation time (ids can be reused in tests)."""
    return game.pk, game.created_at


def clear_caches() -> None:
    """Forget every cached head state, config and seats (tests; never needed in production)."""
    with _cache_lock:
        _heads.clear()
        _configs.clear()
        _seats.clear()


def seat_rows(game: Game) -> tuple[SeatRow, ...]:
    """Who holds each seat of a game locked by this transaction, and whether the bot plays
    it, as of its head.  Seats change hands only with an event (``replace_seat``, the bot's
    seating and unseating), under the row lock: so what a process read at one head still
    holds after moves, and a move by the process that played the one before asks nothing
    (``_lock`` brings what is known at the head, ``_finish`` keeps it over moves, the commit
    keeps it for the next head)."""
    known: tuple[SeatRow, ...] | None = getattr(game, "known_seats", None)
    if known is None:
        rows = game.seats.values_list("position", "player_id", "bot_since", "player__email")
        known = tuple(
            SeatRow(position, player, since is not None, not email.lower().endswith(f"@{PLACEHOLDER_DOMAIN}"))
            for position, player, since, email in rows
        )
        game.known_seats = known
    return known


def _remember(game: Game, state: State) -> None:
    key = (*_identity(game), game.head_seq)
    seats = getattr(game, "known_seats", None)
    with _cache_lock:
        _heads[key] = state
        _heads.move_to_end(key)
        while len(_heads) > _HEADS_KEPT:
            _heads.popitem(last=False)
        if seats is not None:
            _seats[key] = seats
            _seats.move_to_end(key)
            while len(_seats) > _HEADS_KEPT:
                _seats.popitem(last=False)


class GameError(Exception):
    """A request the service refuses; ``str()`` is written for the person who asked, in
    English; ``text`` is the same as a :class:`~games.rules.base.Message`, which a mail says
    in its reader's language (a plain ``str`` is said as it is)."""

    def __init__(self, message: str | Message = "") -> None:
        self.text = message if isinstance(message, Message) else Message.literal(message)
        super().__init__(self.text.render())


class IllegalMove(GameError):
    """The rules refuse a command; ``legal`` lists what the seat may do now.  ``text``
    (given apart when ``message`` is the engine's English with its menu) is the reason alone."""

    def __init__(
        self, message: str | Message, legal: Sequence[str] = (), line: str = "", text: Message | None = None
    ) -> None:
        super().__init__(message)
        if text is not None:
            self.text = text
        self.legal = tuple(legal)
        self.line = line


@dataclass
class Result:
    game: Game
    state: State
    events: list[Event] = field(default_factory=list)
    log: list[LogEntry] = field(default_factory=list)
    changed: tuple[str, ...] = ()  # Game fields besides head_seq that must be saved
    before: State | None = None  # the state these events started from (moves only)
    resync: bool = False  # who must decide may have changed: rewrite the pending decisions
    # each move event with the states around it and its log: the narration projection's input
    told: list[narration.Told] = field(default_factory=list)


# --- configuration and state ---------------------------------------------------------------


def rules_of(game: Game) -> GameRules:
    """The rules package of the game ``game`` is a game of (``Game.rules``)."""
    return registry.get(game.rules)


@lru_cache(maxsize=16)
def board(name: str, rules: str = registry.DEFAULT) -> Any:
    """Boards are files; each process reads one once (per game and board name)."""
    return registry.get(rules).load_board(name)


def config_of(game: Game, created: Event | None = None) -> Config:
    """The engine configuration, from the game's first event (which never changes)."""
    return _config_and_seats(game, created)[0]


def seats_of(game: Game) -> int:
    """How many seats the game has (from its first event, kept with its config)."""
    return _config_and_seats(game)[1]


def _config_and_seats(game: Game, created: Event | None = None) -> tuple[Config, int]:
    cached = _configs.get(_identity(game))
    if cached is not None:
        return cached
    created = created or game.events.get(seq=1)
    b = board(game.board, game.rules)
    if b.digest != game.board_digest:
        raise GameError(f"the board file {game.board} changed since this game was created")
    config = rules_of(game).config_from_data(created.payload["config"], b)
    found = _configs[_identity(game)] = (config, len(created.payload["players"]))
    return found


def effective(events: Iterable[Event]) -> list[Event]:
    """The events in effect: a ``rolled_back(to_seq)`` removes every earlier event after
    ``to_seq`` (it stays in the log; it no longer counts)."""
    out: list[Event] = []
    for event in events:
        if event.kind == Event.Kind.ROLLED_BACK:
            to_seq = event.payload["to_seq"]
            out = [e for e in out if e.seq <= to_seq]
        out.append(event)
    return out


def _replay(rules: GameRules, state: State, events: Iterable[Event]) -> State:
    for event in events:
        if event.kind in MOVE_KINDS:
            state, _ = apply_event(rules, state, event)
    return state


def apply_event(rules: GameRules, state: State, event: Event) -> tuple[State, list[LogEntry]]:
    """The state after a move event, and what the engine said of it: its command, with the
    outcomes of chance it keeps (a game played elsewhere: games.rules.chance)."""
    assert event.seat is not None
    command = rules.command_from_dict(event.payload["command"])
    outcomes = event.payload.get("chance")
    if outcomes:
        return rules.apply(state, event.seat, command, chance.from_data(outcomes))
    return rules.apply(state, event.seat, command)


# --- the draws: the server's seed, the players' entropy -----------------------------------------
#
# A game created since draws are mixed names its generator and recipe in its first event
# (``"rng"``, ``"draws"``: games.rules.rng).  Its ``started`` event lists the seats'
# contributions, which make its draw seed with the server's seed; the game is set up from that
# seed, at every event (nothing is played before the start, and a rollback never goes back
# before it, so the state at the first event is the start's).  Until it starts, its draw seed
# is not known: a new game is set up from the server's seed alone, and nothing of that state
# is shown (the pages and mails of a game waiting for its players' ``ready`` show no board).
# An older game (no ``draws``) keeps its seed as its draw seed.


def _setup(game: Game, rules: GameRules, created: Event, log: Sequence[Event] | None = None) -> State:
    """The state the game is set up in (from its draw seed, as far as it is known); ``log``:
    the game's whole log where the caller read it (its ``started`` event is then not read
    again)."""
    outcomes = chance.from_data(created.payload.get("chance"))
    return rules.setup(config_of(game, created), draw_seed_of(game, created, log), outcomes)


def setup_of(game: Game, created: Event | None = None) -> State:
    """The state the game is set up in (what its first event and its start say)."""
    created = created or game.events.get(seq=1)
    return _setup(game, rules_of(game), created)


def contributions_of(started: Event) -> list[tuple[int, str]]:
    """The contributions a ``started`` event lists, as ``(seat, value)`` pairs."""
    return [(int(seat), str(value)) for seat, value in started.payload.get("contributions", [])]


def draw_seed_of(game: Game, created: Event | None = None, log: Sequence[Event] | None = None) -> str:
    """The seed the game's draws are made with: the server's seed mixed with the entropy its
    ``started`` event lists; a game not started yet has only the server's seed.  ``log``: the
    game's whole log, if the caller has it."""
    created = created or game.events.get(seq=1)
    draws = created.payload.get("draws")
    rng.check_algorithms(created.payload.get("rng"), draws)
    if draws is None:
        return str(created.payload["seed"])
    if log is not None:
        started = next((e for e in log if e.kind == Event.Kind.STARTED), None)
    else:
        started = game.events.filter(kind=Event.Kind.STARTED).order_by("seq").first()
    contributions = contributions_of(started) if started is not None else []
    return rng.draw_seed(created.payload["seed"], draws, contributions)


def state_at(game: Game, seq: int | None = None) -> State:
    """The engine state after event ``seq`` (default: the head), from scratch."""
    log = list(game.events.order_by("seq"))
    events = log if seq is None else [e for e in log if e.seq <= seq]
    kept = effective(events)
    created = kept[0]
    rules = rules_of(game)
    return _replay(rules, _setup(game, rules, created, log), kept)


def walk(game: Game, upto: int | None = None) -> Iterator[tuple[Event, State, list[LogEntry]]]:
    """Replay the moves in effect up to event ``upto`` (default: all), yielding each move
    event with the state after it and what the engine said about it."""
    for event, state, log in walk_all(game, upto):
        if event.kind in MOVE_KINDS and event.seat is not None:
            yield event, state, log


def walk_all(game: Game, upto: int | None = None) -> Iterator[tuple[Event, State, list[LogEntry]]]:
    """Replay the events in effect up to event ``upto`` (default: all), yielding every one of
    them (moderators' acts too) with the state after it and what the engine said about it
    (nothing, for an event that is not a move)."""
    every = list(game.events.order_by("seq"))
    kept = effective(every if upto is None else [e for e in every if e.seq <= upto])
    created = kept[0]
    rules = rules_of(game)
    state = _setup(game, rules, created, every)
    for event in kept:
        log: list[LogEntry] = []
        if event.kind in MOVE_KINDS and event.seat is not None:
            state, log = apply_event(rules, state, event)
        yield event, state, log


def head_state(game: Game) -> State:
    """The state at the head of the game as it is in the database now."""
    current = Game.objects.get(pk=game.pk)
    return _head(current)


def _head(game: Game) -> State:
    """The state after ``game.head_seq`` (current under the row lock): from this process's
    cache, else the latest snapshot plus the events after it."""
    with _cache_lock:
        state = _heads.get((*_identity(game), game.head_seq))
    if state is None:
        state = _load_head(game)  # the committed head (we hold the lock, or read committed)
        _remember(game, state)
    return state


def state_after(game: Game, seq: int) -> State:
    """The engine state after event ``seq`` as the game had it then (what ``walk_all(game,
    seq)`` ends in), without replaying the game: from this process's cache of heads, else the
    latest snapshot at or before ``seq`` and the events after it.  The state after an event
    never changes (events are append-only), so it is kept in the cache too."""
    with _cache_lock:
        state = _heads.get((*_identity(game), seq))
    if state is None:
        at = copy.copy(game)  # the game as it was at ``seq`` (seats unknown there)
        at.head_seq, at.known_seats = seq, None
        state = _load_head(at)
        _remember(at, state)
    return state


def _load_head(game: Game) -> State:
    """The state after ``game.head_seq`` exactly (later events, committed meanwhile by
    others, are not read), from the latest snapshot at or before it."""
    head = game.head_seq
    snap = usable_snapshot(game)
    if snap is None:
        return state_at(game, head)
    rules = rules_of(game)
    state = rules.state_from_dict(snap.state, config_of(game))
    tail = effective(game.events.filter(seq__gt=snap.seq, seq__lte=head).order_by("seq"))
    return _replay(rules, state, tail)


def usable_snapshot(game: Game) -> Snapshot | None:
    """The latest snapshot at or before the head that this code may load: written under the
    rules version the game was created under, which is the one this service runs (a snapshot
    of another version is the state as other code built it: the events are replayed instead)."""
    snap = game.snapshots.filter(seq__lte=game.head_seq).order_by("-seq").first()
    if snap is None or snap.engine_version != game.engine_version:
        return None
    # a state from before the start was set up from the server's seed alone, not from the
    # seed its draws are made with (the contributions are mixed in at the start): never load it
    started = game.events.filter(kind=Event.Kind.STARTED).order_by("seq").values_list("seq", flat=True)
    first = started.first()
    if first is None or snap.seq <= first:
        return None
    if snap.engine_version != rules_of(game).VERSION:
        return None
    return snap


def version_mismatch(game: Game) -> Message | None:
    """Why this service cannot be trusted to play ``game`` on: it was created under another
    version of its rules (``Game.engine_version``) than the code runs (``rules.VERSION``), so
    its events may replay to another game.  None when they are the same."""
    running = rules_of(game).VERSION
    if game.engine_version == running:
        return None
    return Message(
        "Game {game} was created under rules {created}; this service runs {running}. Its moves "
        "may not replay the same under this version, so no move is accepted: a moderator must "
        "settle the game.",
        game=game.pk,
        created=game.engine_version,
        running=running,
    )


def _check_version(game: Game) -> None:
    mismatch = version_mismatch(game)
    if mismatch is not None:
        raise GameError(mismatch)


# --- creating and starting ---------------------------------------------------------------------


class _Unset:
    """No value given (``first_seat`` left to ``first_emperor``, both to the game's
    ``default_first_seat``)."""


UNSET: Any = _Unset()


# the longest ready window: two weeks (a longer one only delays the game, and a huge one
# overflows the clock)
MAX_READY_HOURS = 336


def create_game(
    players: Sequence[Player],
    *,
    rules: str = registry.DEFAULT,
    edition: str | None = None,
    options: Mapping[str, Any] | None = None,
    board_name: str | None = None,
    seed: str | None = None,
    first_emperor: int | None = UNSET,
    first_seat: int | None = UNSET,
    name: str = "",
    time_controls: TimeControls | Mapping[str, Any] | None = None,
    by: User | None = None,
    ready_hours: float = 0,
    press: str | None = None,
    outcomes: Sequence[Chance] = (),
    record: Mapping[str, Any] | None = None,
    about: Mapping[str, str] | None = None,
    collection: Collection | None = None,
) -> Game:
    """A new game of the game ``rules`` (not started): seats in the given order, colours in
    the game's order.  ``edition`` defaults to the game's first, ``options`` are merged over
    the game's defaults (an unknown one is refused), ``board_name`` defaults to the game's
    board.  ``first_seat`` is who begins (None: by lot); White Lotus calls it
    ``first_emperor``, which is used when ``first_seat`` is not given; neither given: the
    game's ``default_first_seat`` (White Lotus 0, Die Verbotene Stadt by lot).  ``time_controls``: a
    :class:`TimeControls` as it is, or fields merged over the game's suitable clock
    (``rules.time_controls``) and the service's defaults.

    The draws: the server's seed is made here and only its hash is published; the first event
    names the generator and says the draws are mixed (``games.rules.rng``).  ``ready_hours``
    > 0 opens a ready window: every seat is mailed (``seated``) and asked to answer ``ready``,
    whose text becomes its contribution (:func:`contribute`); the game starts when every seat
    has answered, or at the window's end with what arrived (:func:`start_waiting_games`).
    0: nobody contributes, the game is started by its creator (:func:`start_game`) as before.

    ``press`` is its table talk (``Game.Press``; None: ``default_press``).

    A game played elsewhere (issue 17) comes with its record's words: ``seed`` ``""`` (none:
    its chance is written down), ``outcomes`` those of its setup's draws, ``record`` what its
    record says that belongs to no move (``header``: its header lines as written; ``notes``,
    ``setup``, ``end``: its comments in the header, on the setup's outcomes, after its last
    line; games.cli.import_record), ``about`` where, when and by whom it was played and
    where the record came from, ``collection`` what it was imported with."""
    try:
        game_rules = registry.get(rules)
    except registry.UnknownRules as error:
        raise GameError(f"Cannot create this game: {error}") from None
    title = game_rules.title
    counts = tuple(sorted(game_rules.player_counts))
    if len(players) not in counts:
        raise GameError(f"{title} is for {_counts_text(counts)} players.")
    if len({p.pk for p in players}) != len(players):
        raise GameError("A player can hold only one seat in a game.")
    edition = edition if edition is not None else game_rules.editions[0]
    if edition not in game_rules.editions:
        raise GameError(
            f"Cannot create this game: {title} has no edition '{edition}' "
            f"(its editions: {', '.join(game_rules.editions)})."
        )
    chosen = game_options(game_rules, options)
    press = press or default_press(rules, chosen)
    if press not in Game.Press.values:
        raise GameError(
            f"Cannot create this game: press is one of {', '.join(Game.Press.values)}, not '{press}'."
        )
    board_name = board_name if board_name is not None else game_rules.default_board
    first = first_seat if first_seat is not UNSET else first_emperor
    if first is UNSET:
        first = game_rules.default_first_seat
    seed = seed if seed is not None else secrets.token_hex(16)
    if not 0 <= ready_hours <= MAX_READY_HOURS:  # (NaN is neither)
        raise GameError(
            f"Cannot create this game: the ready window is {ready_hours:g} hours; it can be 0 "
            f"(the game starts at once) up to {MAX_READY_HOURS} hours (two weeks)."
        )
    ready_until = timezone.now() + timedelta(hours=ready_hours) if ready_hours > 0 else None
    try:
        b = board(board_name, rules)  # an unknown board, or a file that is not one: OSError, ValueError
        config = game_rules.make_config(b, len(players), edition, chosen, first)
        game_rules.setup(config, seed, outcomes)  # refuses a board that does not fit the rules
    except (OSError, TypeError, ValueError, IllegalCommand) as error:
        raise GameError(f"Cannot create this game: {error}") from None
    config_data = game_rules.config_to_data(config)
    clock = _time_controls(game_rules, time_controls)
    with transaction.atomic():
        game = Game.objects.create(
            name=name,
            rules=rules,
            engine_version=game_rules.VERSION,
            edition=edition,
            options=config_data.get("options", chosen),
            board=board_name,
            board_digest=b.digest,
            seed_hash=rng.seed_digest(seed),
            time_controls=clock.to_dict(),
            ready_until=ready_until,
            press=press,
            about=dict(about or {}),
            collection=collection,
        )
        colours = game_rules.seat_colours
        for position, player in enumerate(players):
            Seat.objects.create(game=game, position=position, colour=colours[position], player=player)
        payload: dict[str, Any] = {
            "config": config_data,
            "seed": seed,
            "players": [{"position": i, "email": p.email} for i, p in enumerate(players)],
        }
        if presented(game_rules, "FIRST_SEAT_KEY") == DEFAULTS["FIRST_SEAT_KEY"]:
            # the seat that begins, as the service calls it (a game with its own name for it
            # says it in its config, and its created event stays as it always was)
            payload["first_seat"] = first
        payload["rng"], payload["draws"] = rng.RNG, rng.MIXED
        if outcomes:  # a game played elsewhere: the outcomes of its setup's draws, as its record gives
            payload["chance"] = chance.to_data(outcomes)
        if record:
            payload["record"] = dict(record)
        if ready_until is not None:
            payload["ready_until"] = ready_until.isoformat()
        created = _append(game, Event.Kind.CREATED, payload, source=Event.Source.SYSTEM, actor=by)
        game.save(update_fields=["head_seq"])
        if ready_until is not None:  # the seats are asked for their entropy (notifications: "seated")
            state = game_rules.setup(config, seed, outcomes)
            events_appended.send(sender=Game, game=game, events=[created], state=state, log=[], before=None)
    return game


def default_press(rules: str, options: Mapping[str, Any] | None) -> str:
    """The table talk a new game gets when none is chosen: full (private messages too) with
    an option of the game's whose point is dealing (its ``FULL_PRESS_OPTIONS``); public (only
    to all) else."""
    dealing = presented(registry.get(rules), "FULL_PRESS_OPTIONS")
    if any((options or {}).get(name) for name in dealing):
        return str(Game.Press.FULL)
    return str(Game.Press.PUBLIC)


def game_options(rules: GameRules, given: Mapping[str, Any] | None) -> dict[str, Any]:
    """The game's options (``rules.OPTIONS``) with the given ones over them; an option the
    game does not have, or a value not of its default's type (:func:`option_refusal`), is
    refused."""
    given = dict(given or {})
    unknown = sorted(set(given) - set(rules.OPTIONS))
    if unknown:
        known = ", ".join(rules.OPTIONS) or "none"
        names = ", ".join(unknown)
        raise GameError(
            f"Cannot create this game: {rules.title} has no option {names} (its options: {known})."
        )
    for key, value in given.items():
        refusal = option_refusal(rules, key, value)
        if refusal:
            raise GameError(f"Cannot create this game: {refusal}")
    return {**rules.OPTIONS, **given}


OPTION_WORDS = {"yes": True, "no": False, "true": True, "false": False, "on": True, "off": False}


def option_refusal(rules: GameRules, key: str, value: Any) -> str:
    """Why ``value`` cannot be the option ``key`` of the game (it is not of the type of the
    option's default in ``rules.OPTIONS``: a switch takes only a real boolean), or ""."""
    default = rules.OPTIONS[key]
    if isinstance(default, bool):
        fits = isinstance(value, bool)
        kind = "yes or no (true or false)"
    elif isinstance(default, int):
        fits = isinstance(value, int) and not isinstance(value, bool)
        kind = "a whole number"
    elif isinstance(default, float):
        fits = isinstance(value, int | float) and not isinstance(value, bool)
        kind = "a number"
    elif isinstance(default, str):
        fits = isinstance(value, str)
        kind = "a word"
    else:
        return ""
    return "" if fits else f"the option {key} of {rules.title} is {kind}, not {value!r}."


def option_from_words(rules: GameRules, key: str, value: Any) -> Any:
    """An option's value as a person typed it (the command line, a form): a switch (a boolean
    default) reads yes/no, true/false, on/off; a number reads digits.  Anything else is left
    as it is, for :func:`game_options` to refuse with its reason."""
    default = rules.OPTIONS.get(key)
    if not isinstance(value, str):
        return value
    text = value.strip()
    if isinstance(default, bool):
        return OPTION_WORDS.get(text.lower(), value)
    if isinstance(default, int | float):
        try:
            return type(default)(text)
        except ValueError:
            return value
    return value


def _time_controls(rules: GameRules, given: TimeControls | Mapping[str, Any] | None) -> TimeControls:
    if isinstance(given, TimeControls):
        return given
    if not given and not rules.time_controls:
        return TimeControls()
    return TimeControls.from_dict({**TimeControls().to_dict(), **rules.time_controls, **(given or {})})


def _counts_text(counts: Sequence[int]) -> str:
    if len(counts) > 1 and list(counts) == list(range(counts[0], counts[-1] + 1)):
        return f"{counts[0]} to {counts[-1]}"
    return " or ".join(", ".join(str(n) for n in counts).rsplit(", ", 1))


def start_game(
    game: Game, *, by: User | None = None, contributions: Iterable[tuple[int, str]] | None = None
) -> Result:
    """Start a new game.  A game whose draws are mixed lists in its ``started`` event the
    contributions its draws are made with: the seats' ``entropy`` events (the first of each
    seat), or ``contributions`` where given (a record imported with its entropy)."""
    with transaction.atomic():
        game = _lock(game, 1)
        if game.status != Game.Status.NEW:
            raise GameError("This game has already started.")
        return _start(game, by, contributions)


def _start(game: Game, by: User | None, contributions: Iterable[tuple[int, str]] | None) -> Result:
    created = game.events.get(seq=1)
    payload: dict[str, Any] = {}
    if created.payload.get("draws") is not None:
        given = dict(contributions) if contributions is not None else entropy_of(game)
        try:
            rng.mixed_seed(created.payload["seed"], given)  # refuses what is no contribution
        except ValueError as error:
            raise GameError(f"Cannot start this game: {error}") from None
        if any(seat >= seats_of(game) for seat in given):
            raise GameError("Cannot start this game: a contribution names a seat it does not have.")
        payload["contributions"] = [[seat, value] for seat, value in sorted(given.items())]
    game.status = Game.Status.RUNNING
    event = _append(game, Event.Kind.STARTED, payload, source=Event.Source.SYSTEM, actor=by)
    state = _head(game)
    result = Result(game, state, [event], changed=("status",), resync=True)
    _finish(result)
    return result


def entropy_of(game: Game) -> dict[int, str]:
    """Each seat's contribution so far, by seat: the first ``entropy`` event of each counts."""
    out: dict[int, str] = {}
    for event in game.events.filter(kind=Event.Kind.ENTROPY).order_by("seq"):
        if event.seat is not None:
            out.setdefault(event.seat, event.payload["value"])
    return out


@dataclass
class Contributed:
    """A seat's ``ready``: its contribution's event and value, and the start it completed."""

    event: Event
    value: str
    started: Result | None


def contribute(
    game: Game, seat: int, text: str, *, message_id: str, source: str = Event.Source.MAIL
) -> Contributed:
    """A seat's ``ready`` during the game's ready window: its contribution to the draws
    (``rng.contribution`` of what it wrote after the word and of its mail's Message-ID) is
    appended as an ``entropy`` event; when every seat has contributed, the game starts in the
    same transaction.  The first contribution of a seat counts: a second is refused, so
    nobody (the server included) can swap one for another that suits it better."""
    with transaction.atomic():
        game = _lock(game, 1)
        if game.status != Game.Status.NEW:
            raise GameError(Message("Game {game} has started: its draws are fixed.", game=game.pk))
        if game.ready_until is None:
            raise GameError(
                Message("Game {game} does not wait for ready: its moderator starts it.", game=game.pk)
            )
        if not 0 <= seat < seats_of(game):
            raise GameError(f"There is no seat {seat} in this game.")
        if seat in entropy_of(game):
            raise GameError(
                Message(
                    "Your ready for game {game} was already counted (the first one counts); "
                    "the game starts when every seat has answered.",
                    game=game.pk,
                )
            )
        value = rng.contribution(text, message_id)
        event = _append(
            game,
            Event.Kind.ENTROPY,
            {"value": value},
            seat=seat,
            source=source,
            command_text=text,
            inbound_message_id=message_id,
        )
        started = None
        if len(entropy_of(game)) == seats_of(game):
            game = _lock(game, 1)  # the start's own sequence number, under the lock we hold
            started = _start(game, None, None)
    return Contributed(event, value, started)


def start_waiting_games(now: datetime) -> list[int]:
    """Start every new game whose ready window ended, with the contributions that arrived
    (the deadline sweep); the ids of the games started.  Idempotent: a game another worker
    started meanwhile is skipped."""
    due = Game.objects.filter(status=Game.Status.NEW, ready_until__isnull=False, ready_until__lte=now)
    started = []
    for pk in due.order_by("pk").values_list("pk", flat=True):
        try:
            start_game(Game(pk=pk))
        except GameError:
            continue
        except Exception:  # one broken game must not stop the minute's sweep (reminders, defaults)
            logger.exception("game %s: its ready window is over but it could not start", pk)
            continue
        started.append(pk)
    return started


# --- moves ----------------------------------------------------------------------------------


def submit(
    game: Game,
    seat: int,
    command: str | Command,
    *,
    expected_seq: int | None = None,
    source: str = Event.Source.WEB,
    actor: User | None = None,
    inbound_message_id: str = "",
    outcomes: Sequence[Chance] = (),
    notes: Sequence[Any] = (),
) -> Result:
    """Apply a command (or several: one per line of ``command``), all or nothing.

    A move of a game played elsewhere (issue 17) comes with the ``outcomes`` of chance it
    drew, as its record gives them, and the record's comments on it (``notes``:
    ``games.rules.records.Note.to_data`` lists); both are kept with its event (one command)."""
    rules = rules_of(game)
    lines = _lines(rules, command)
    if (outcomes or notes) and len(lines) != 1:
        raise GameError("Outcomes of chance and comments go with one command at a time.")
    with transaction.atomic():
        game = _lock(game, len(lines))
        _check_running(game, expected_seq)
        state = _head(game)
        if not 0 <= seat < seats_of(game):
            raise GameError(f"There is no seat {seat} in this game.")
        result = Result(game, state, before=state, resync=True)
        for text, cmd in lines:
            try:
                parsed = cmd if cmd is not None else parse_command(rules, result.state, text, seat)
                new, log = rules.apply(result.state, seat, parsed, outcomes)
            except IllegalCommand as error:
                raise IllegalMove(
                    error.message, error.legal or rules.describe(result.state, seat), text, text=error.text
                ) from None
            payload: dict[str, Any] = {"command": rules.command_to_dict(parsed)}
            if outcomes:
                payload["chance"] = chance.to_data(outcomes)
            if notes:
                payload["notes"] = [list(n) for n in notes]
            event = _append(
                game,
                Event.Kind.COMMAND,
                payload,
                seat=seat,
                source=source,
                actor=actor,
                command_text=text or rules.format_command(result.state, parsed),
                inbound_message_id=inbound_message_id,
                deferred=True,
            )
            result.told.append(narration.Told(event, result.state, new, log))
            result.state, result.events, result.log = new, [*result.events, event], result.log + log
        _finish(result)
    return result


def apply_default(
    game: Game,
    seat: int,
    *,
    expected_seq: int | None = None,
    since_seq: int | None = None,
    now: datetime | None = None,
) -> Result:
    """The rules module's default move for a seat whose deadline passed.

    With ``since_seq`` (the deadline sweep), it is played only if that very decision is
    still pending and due under the game's row lock: a real move that came first, or
    another worker that defaulted it first, makes this a :class:`NotDue` refusal."""
    with transaction.atomic():
        game = _lock(game, 1)
        _check_running(game, expected_seq)
        if since_seq is not None:
            _check_due(game, seat, since_seq, now or timezone.now())
        state = _head(game)
        rules = rules_of(game)
        try:
            command = rules.default(state, seat)
            new, log = rules.apply(state, seat, command)
        except IllegalCommand as error:
            raise GameError(f"No default to play for this seat: {error.message}") from None
        event = _append(
            game,
            Event.Kind.DEFAULT,
            {"command": rules.command_to_dict(command)},
            seat=seat,
            source=Event.Source.DEADLINE,
            command_text=rules.format_command(state, command),
            deferred=True,
        )
        result = Result(game, new, [event], log, before=state, resync=True)
        result.told.append(narration.Told(event, state, new, log))
        _finish(result)
    return result


class NotDue(GameError):
    """The decision a deadline default was meant for is no longer pending or due."""


def _check_due(game: Game, seat: int, since_seq: int, now: datetime) -> None:
    if game.clock_stopped_at is not None:
        raise NotDue("The game's clock is stopped (paused, or a player is away).")
    row = PendingDecision.objects.owed().filter(game=game, seat=seat, since_seq=since_seq).first()
    if row is None:
        raise NotDue("That decision was taken meanwhile.")
    grace = timing.controls(game).grace
    if row.deadline_at is None or row.deadline_at + grace > now:
        raise NotDue("That decision is not due yet.")


# --- moderation -------------------------------------------------------------------------------


def rollback(game: Game, to_seq: int, *, by: User | None, reason: str) -> Result:
    """Undo every event after ``to_seq`` (they stay in the log, marked undone)."""
    _need_reason(reason)
    with transaction.atomic():
        game = _lock_moderated(game, by)
        kept = effective(game.events.order_by("seq"))
        seqs = {e.seq for e in kept}
        started = next((e.seq for e in kept if e.kind == Event.Kind.STARTED), None)
        if started is None or to_seq not in seqs or to_seq < started:
            raise GameError(
                f"Cannot roll back to #{to_seq}: choose an event in effect, at or after "
                "the start of the game."
            )
        if to_seq == game.head_seq:
            raise GameError(f"#{to_seq} is already the latest event: nothing to roll back.")
        Snapshot.objects.filter(game=game, seq__gt=to_seq).delete()
        narration.withdraw(game, to_seq)
        if game.status == Game.Status.FINISHED:
            game.status = Game.Status.RUNNING
            game.finished_at = None
        kind, payload = Event.Kind.ROLLED_BACK, {"to_seq": to_seq}
        return _moderated(game, kind, payload, by, reason, changed=("status", "finished_at"), resync=True)


def pause(game: Game, *, by: User | None, reason: str) -> Result:
    return _set_status(game, Game.Status.RUNNING, Game.Status.PAUSED, Event.Kind.PAUSED, by, reason)


def resume(game: Game, *, by: User | None, reason: str) -> Result:
    return _set_status(game, Game.Status.PAUSED, Game.Status.RUNNING, Event.Kind.RESUMED, by, reason)


def extend_deadline(
    game: Game, until: datetime, *, by: User | None, reason: str, seat: int | None = None
) -> Result:
    """Give the pending decisions (of one seat, or all) a new deadline."""
    _need_reason(reason)
    with transaction.atomic():
        game = _lock_moderated(game, by)
        if game.status not in (Game.Status.RUNNING, Game.Status.PAUSED):
            raise GameError("Only a running or paused game has a deadline.")
        now = timezone.now()
        if until <= now:
            raise GameError("The new deadline must lie in the future.")
        owed = PendingDecision.objects.owed().filter(game=game)
        rows = list(owed if seat is None else owed.filter(seat=seat))
        if not rows:
            raise GameError("Nobody owes a decision now, so there is no deadline to extend.")
        refusal = shortening_refusal(until, [r.deadline_at for r in rows])
        if refusal:
            raise GameError(refusal)
        previous = min((r.deadline_at for r in rows if r.deadline_at), default=None)
        tc = timing.controls(game)
        for row in rows:
            row.deadline_at = until
            row.reminders_sent, row.remind_at = tc.reminders_from(until, now)
            if game.clock_stopped_at is not None:
                row.remind_at = None
        PendingDecision.objects.bulk_update(rows, ["deadline_at", "remind_at", "reminders_sent"])
        payload = {
            "deadline_at": until.isoformat(),
            "previous": previous.isoformat() if previous else None,
            "seats": sorted(r.seat for r in rows),
        }
        return _moderated(game, Event.Kind.DEADLINE_EXTENDED, payload, by, reason, seat=seat)


def shortening_refusal(until: datetime, current: Iterable[datetime | None]) -> str:
    """Why ``until`` is no extension of these deadlines ("" if it is one): it must lie after
    every one of them, or it would take time away from a player while announcing more.  A
    decision without a deadline has all the time there is: any deadline would shorten it."""
    current = list(current)
    if any(d is None for d in current):
        return (
            "A decision owed now has no deadline, so there is none to extend; to give the game "
            "deadlines, change its time controls."
        )
    latest = max((d for d in current if d is not None), default=None)
    if latest is None or until > latest:
        return ""
    return (
        f"{until.astimezone(UTC):%Y-%m-%d %H:%M} UTC is not later than the current deadline "
        f"({latest.astimezone(UTC):%Y-%m-%d %H:%M} UTC): an extension can only move a deadline later."
    )


def replace_seat(game: Game, position: int, player: Player, *, by: User | None, reason: str) -> Result:
    """Hand a seat to another player; the game and its state go on unchanged."""
    _need_reason(reason)
    with transaction.atomic():
        game = _lock_moderated(game, by)
        if game.status == Game.Status.FINISHED:
            raise GameError("The game is over: its seats can no longer change hands.")
        seat = game.seats.select_for_update().filter(position=position).first()
        if seat is None:
            raise GameError(f"There is no seat {position} in this game.")
        if game.seats.filter(player=player).exists():
            raise GameError(f"{player} already holds a seat in this game.")
        refusal = permissions.seating_refusal(game, player)
        if refusal:  # whoever acts (the admin, the operator's shell): never a game's moderator
            raise GameError(refusal)
        old = seat.player
        seat.player = player
        payload = {"position": position, "colour": seat.colour, "old": old.email, "new": player.email}
        if seat.bot_since is not None:  # a person takes the seat over from the bot
            payload["from_bot"] = True
            seat.bot_since = None
        seat.save(update_fields=["player", "bot_since"])
        return _moderated(game, Event.Kind.SEAT_REPLACED, payload, by, reason, seat=position)


def replay_game(game: Game) -> tuple[State, bool]:
    """Rebuild from zero; True when it matches the head as loaded from the latest snapshot
    and the events after it (not from any in-memory cache)."""
    full = state_at(game)
    current = Game.objects.get(pk=game.pk)
    rules = rules_of(game)
    return full, rules.state_to_dict(full) == rules.state_to_dict(_load_head(current))


def parse_command(rules: GameRules, state: State, text: str, seat: int | None = None) -> Command:
    """``rules.parse_command`` for the seat that sends it (a game whose notation reads a
    line the same for every seat takes no seat)."""
    if _takes_seat(rules.parse_command):
        return rules.parse_command(state, text, seat)  # type: ignore[call-arg]
    return rules.parse_command(state, text)


@lru_cache(maxsize=16)
def _takes_seat(parse: Callable[..., Any]) -> bool:
    try:
        return len(inspect.signature(parse).parameters) >= 3
    except (TypeError, ValueError):
        return False


# --- internals --------------------------------------------------------------------------------


def _lock(game: Game, appending: int) -> Game:
    """Lock the game's row and reserve the sequence numbers of the ``appending`` events this
    transaction will add, in one statement (every move pays for its round trips).  Returns
    the game as it was before them; if the transaction fails, the reservation is undone
    with it.  The seats this process knew at that head come along (``seat_rows``)."""
    with connection.cursor() as cursor:
        cursor.execute(
            "UPDATE games_game SET head_seq = head_seq + %s WHERE id = %s RETURNING *", [appending, game.pk]
        )
        row = cursor.fetchone()
        if row is None:
            raise GameError(f"There is no game {game.pk}.")
        columns = dict(zip((column[0] for column in cursor.description), row, strict=True))
    readers = _game_columns(connection.vendor)
    locked = Game.from_db(
        connection.alias, [c for c, _ in readers], [read(columns[c]) for c, read in readers]
    )
    locked.head_seq -= appending
    with _cache_lock:
        locked.known_seats = _seats.get((*_identity(locked), locked.head_seq))
    return locked


@lru_cache(maxsize=2)
def _game_columns(vendor: str = "") -> list[tuple[str, Callable[..., Any]]]:
    """Each column of ``games_game`` in the order of the model's fields, with what turns its
    value into the field's as the ORM reads it (JSON, and on SQLite datetimes and booleans)."""
    out = []
    for f in Game._meta.concrete_fields:
        col = f.get_col(Game._meta.db_table)  # as the query compiler does
        converters = connection.ops.get_db_converters(col) + col.get_db_converters(connection)

        def read(value: Any, col: Any = col, converters: list[Any] = converters) -> Any:
            for convert in converters:
                value = convert(value, col, connection)
            return value

        out.append((f.column, read))
    return out


def _lock_moderated(game: Game, by: User | None) -> Game:
    """Lock the game for one moderator's act, refusing at once a user who does not moderate
    it (``games.permissions``: a league's moderator only its games), before anything about
    the game is checked: whoever may not see a game learns nothing of its state from the
    refusal.  ``by=None`` is the operator at the command line or the system, and may."""
    game = _lock(game, 1)
    if by is not None and not permissions.can_moderate(by, game):
        raise GameError(f"{by.get_username()} does not moderate {game}.")
    return game


def _check_running(game: Game, expected_seq: int | None) -> None:
    _check_version(game)
    if game.status == Game.Status.NEW:
        raise GameError(Message("This game has not started yet."))
    if game.status == Game.Status.PAUSED:
        raise GameError(
            Message("This game is paused by a moderator; moves are not accepted until it resumes.")
        )
    if game.status == Game.Status.FINISHED:
        raise GameError(Message("This game is over."))
    if expected_seq is not None and expected_seq != game.head_seq:
        raise GameError(
            Message(
                "This answers an outdated decision: the game has moved on since #{expected} "
                "(it is now at #{head}).",
                expected=expected_seq,
                head=game.head_seq,
            )
        )


def _lines(rules: GameRules, command: str | Command) -> list[tuple[str, Command | None]]:
    if not isinstance(command, str):
        return [("", command)]
    lines = [line.strip() for line in command.splitlines()]
    # a line of invisible characters only (a zero-width space, a BOM) is no command either
    lines = [line for line in lines if rules.clean(line).strip() and not line.startswith("#")]
    if not lines:
        raise IllegalMove(Message("There is no command in this message."))
    return [(line, None) for line in lines]


def _need_reason(reason: str) -> None:
    if not reason.strip():
        raise GameError("Say why: moderator actions are recorded with their reason.")


def _set_status(game: Game, before: str, after: str, kind: str, by: User | None, reason: str) -> Result:
    _need_reason(reason)
    with transaction.atomic():
        game = _lock_moderated(game, by)
        if game.status != before:
            raise GameError(f"The game is {game.get_status_display()}, so it cannot be {kind}.")
        game.status = after
        timing.keep_clock(game, timezone.now())
        return _moderated(game, kind, {}, by, reason, changed=("status", "clock_stopped_at"))


def _moderated(
    game: Game,
    kind: str,
    payload: dict[str, Any],
    by: User | None,
    reason: str,
    *,
    seat: int | None = None,
    changed: tuple[str, ...] = (),
    resync: bool = False,
) -> Result:
    """Append a moderator's act (who and why) and finish, inside the caller's transaction,
    which locked the game with ``_lock_moderated`` (so ``by`` was checked before anything)."""
    event = _append(game, kind, payload, seat=seat, source=Event.Source.MODERATOR, actor=by, reason=reason)
    result = Result(game, _head(game), [event], changed=changed, resync=resync)
    _finish(result)
    return result


def _append(
    game: Game,
    kind: str,
    payload: dict[str, Any],
    *,
    source: str,
    seat: int | None = None,
    actor: User | None = None,
    reason: str = "",
    command_text: str = "",
    inbound_message_id: str = "",
    deferred: bool = False,
) -> Event:
    """The next event of the game, written now, or with ``deferred`` by ``_finish`` (a move's
    events go out in one statement with the pending decisions they change)."""
    game.head_seq += 1
    event = Event(
        game=game,
        seq=game.head_seq,
        kind=kind,
        payload=payload,
        seat=seat,
        source=source,
        actor=actor,
        reason=reason,
        command_text=command_text,
        inbound_message_id=inbound_message_id,
    )
    if not deferred:
        rows.insert([event])
    return event


def _finish(result: Result) -> None:
    """Save the game's projections, snapshot now and then, and announce the events.

    ``head_seq`` was already advanced by ``_lock``; the row is written again only when the
    status or the clock changed.  The pending decisions are rewritten when who must decide
    may have changed (``games.timing.sync_decisions``)."""
    game, state = result.game, result.state
    rules = rules_of(game)
    if any(e.kind not in MOVE_KINDS for e in result.events):
        game.known_seats = None  # a seat may have changed hands: read again (``seat_rows``)
    changed = [f for f in ("status", "finished_at", "clock_stopped_at") if f in result.changed]
    if game.status == Game.Status.RUNNING and rules.outcome(state) is not None:
        game.status = Game.Status.FINISHED
        game.finished_at = timezone.now()
        changed += ["status", "finished_at"]
    unsaved = [e for e in result.events if e._state.adding]  # a move's, written with its decisions
    decisions: list[tuple[str, list[Any]]] = []
    if game.status == Game.Status.FINISHED:
        if result.resync:
            PendingDecision.objects.filter(game=game).delete()
    elif result.resync:
        movers = [e.seat for e in result.events if e.seat is not None]
        decisions = timing.sync_decisions(
            game,
            state,
            result.before,
            movers,
            game.head_seq,
            timezone.now(),
            players=seats_of(game),
            run=not unsaved,
        )
    # the finished game's result, inline: written with the event that ends it, withdrawn
    # with a rollback past the end (``games.results``), before the receivers read it
    results.project(game, state, result.events)
    # players' commands: their events, decisions and mails go out together at the end (a
    # default is counted from the log by the receivers, so it is written before them)
    commands = unsaved and all(e.kind == Event.Kind.COMMAND for e in result.events)
    # the narration projection's rows of the moves, inline: in the statement of their events
    told = narration.rows_of(game, rules, result.told)
    with rows.together() if commands else nullcontext():
        rows.insert([*unsaved, *told], decisions)
        if changed:
            game.save(update_fields=sorted(set(changed)))
        # no snapshot of a game that has not started: its state is set up from the server's
        # seed alone until the start mixes in the contributions (``usable_snapshot`` skips one)
        if game.status != Game.Status.NEW and game.head_seq % settings.GAMES_SNAPSHOT_EVERY == 0:
            Snapshot.objects.create(
                game=game, seq=game.head_seq, engine_version=rules.VERSION, state=rules.state_to_dict(state)
            )
        events_appended.send(
            sender=Game, game=game, events=result.events, state=state, log=result.log, before=result.before
        )
    # only once committed: a rolled-back transaction must leave nothing in the cache
    transaction.on_commit(lambda: _remember(game, state))
