"""What every service function does around its change: lock the game's row and reserve its
sequence numbers, check it may change, append the events, and finish (projections, caches,
``events_appended``, inside the same transaction)."""

from __future__ import annotations

from collections.abc import Callable
from contextlib import nullcontext
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from django.conf import settings
from django.contrib.auth.models import User
from django.db import connection, transaction
from django.utils import timezone

from games.models import (
    Event,
    Game,
    PendingDecision,
    Snapshot,
)
from games.projections import narration, results
from games.rules.base import LogEntry, Message, Rules
from games.services import permissions, timing
from games.store import rows
from games.store.heads import (
    MOVE_KINDS,
    Command,
    GameError,
    IllegalMove,
    State,
    _cache_lock,
    _check_version,
    _head,
    _identity,
    _remember,
    _seats,
    rules_of,
    seats_of,
)
from games.store.signals import events_appended


# what every service function returns (and ``_finish`` completes)
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
    it (``games.services.permissions``: a league's moderator only its games), before anything about
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


def _lines(rules: Rules, command: str | Command) -> list[tuple[str, Command | None]]:
    if not isinstance(command, str):
        return [("", command)]
    lines = [line.strip() for line in command.splitlines()]
    # a line of invisible characters only (a zero-width space, a BOM) is no command either
    lines = [line for line in lines if rules.notation.clean(line).strip() and not line.startswith("#")]
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
            raise GameError(f"The game is {game.status}, so it cannot be {kind}.")
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
    may have changed (``games.services.timing.sync_decisions``)."""
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
    # with a rollback past the end (``games.projections.results``), before the receivers read it
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
                game=game,
                seq=game.head_seq,
                engine_version=rules.about.VERSION,
                state=rules.serial.state_to_dict(state),
            )
        events_appended.send(
            sender=Game, game=game, events=result.events, state=state, log=result.log, before=result.before
        )
    # only once committed: a rolled-back transaction must leave nothing in the cache
    transaction.on_commit(lambda: _remember(game, state))
