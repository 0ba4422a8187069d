"""A game's state at its head: the rules and config it was created with, the events that
count, replay from the latest snapshot, the per-process caches, the draws (the server's seed and
the players' entropy), and the errors every service function shares."""

from __future__ import annotations

import copy
import logging
import threading
from collections import OrderedDict
from collections.abc import Iterable, Iterator, Sequence
from datetime import datetime
from functools import lru_cache
from typing import Any

from games.models import (
    PLACEHOLDER_DOMAIN,
    Event,
    Game,
    SeatRow,
    Snapshot,
)
from games.rules import chance, registry, rng
from games.rules.base import LogEntry, Message, Rules

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
logger = logging.getLogger("games.services")  # the name it logged under before the split
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


# --- configuration and state ---------------------------------------------------------------


def rules_of(game: Game) -> Rules:
    """The rules package of the game ``game`` is a game of (``Game.rules``)."""
    return game.engine


@lru_cache(maxsize=16)
def board(name: str, rules: str) -> Any:
    """Boards are files; each process reads one once (per game and board name)."""
    return registry.get(rules).serial.load_board(name)


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
    config = rules_of(game).serial.config_from_data(created.payload["config"], b)
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


def _replay(rules: Rules, state: State, events: Iterable[Event]) -> State:
    """The state after the move events from ``state``: the rules' fold (one working copy,
    the log unread), ``state`` left as it is."""
    return rules.serial.fold(state, (_move(rules, event) for event in events if event.kind in MOVE_KINDS))


def _move(rules: Rules, event: Event) -> tuple[int, Command, Sequence[Any]]:
    """A move event as the rules play it: its seat, its command and the outcomes of chance
    it keeps (a game played elsewhere: games.rules.chance)."""
    assert event.seat is not None
    command = rules.serial.command_from_dict(event.payload["command"])
    return event.seat, command, chance.from_data(event.payload.get("chance"))


def apply_event(rules: Rules, state: State, event: Event) -> tuple[State, list[LogEntry]]:
    """The state after a move event, and what the engine said of it (:func:`_move`)."""
    return rules.apply(state, *_move(rules, event))


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


def _setup(game: Game, rules: Rules, created: Event, log: Sequence[Event] | None = None) -> State:
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
    state = rules.serial.state_from_dict(snap.state, config_of(game))
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
    if snap.engine_version != rules_of(game).about.VERSION:
        return None
    return snap


def version_mismatch(game: Game) -> Message | None:
    """Why this service cannot be trusted to play ``game`` on: it was created under another
    version of its rules (``Game.engine_version``) than the code runs (``rules.about.VERSION``), so
    its events may replay to another game.  None when they are the same."""
    running = rules_of(game).about.VERSION
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
