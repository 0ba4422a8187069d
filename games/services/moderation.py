"""Moderation: rollback, pause and resume, a longer deadline, a seat handed on, a full replay
compared with the head."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import UTC, datetime

from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone

from games.models import (
    Event,
    Game,
    PendingDecision,
    Player,
    Snapshot,
)
from games.projections import narration
from games.services import permissions, timing
from games.services.appending import Result, _lock_moderated, _moderated, _need_reason, _set_status
from games.store.heads import GameError, State, _load_head, effective, rules_of, state_at

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


def replace_seat_by_address(
    game: Game,
    position: int,
    email: str,
    *,
    name: str = "",
    language: str = Player.Language.EN,
    by: User | None,
    reason: str,
) -> Result:
    """Hand a seat to the player with this address (compared case-insensitively), or to a new
    player named ``name`` who is added in the same transaction: a refused replacement adds
    nobody."""
    with transaction.atomic():
        player = Player.objects.filter(email__iexact=email.strip()).first()
        if player is None:
            if not name.strip():
                raise GameError(f"{email} is new to the service: give the new player's name.")
            player = Player.objects.create(email=email.strip(), name=name.strip()[:100], language=language)
        return replace_seat(game, position, player, by=by, reason=reason)


def replay_game(game: Game) -> tuple[State, bool]:
    """Rebuild from zero; True when it matches the head as loaded from the latest snapshot
    and the events after it (not from any in-memory cache)."""
    full = state_at(game)
    current = Game.objects.get(pk=game.pk)
    rules = rules_of(game)
    return full, rules.serial.state_to_dict(full) == rules.serial.state_to_dict(_load_head(current))
