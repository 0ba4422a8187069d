"""The services of time: vacations, time controls, and the missed-move count.

Like everything in ``games.services`` (whose transaction helpers these use), each runs in
one transaction under the game's row lock and appends an event with who and why.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone

from games import services
from games.models import Event, Game, Seat
from games.rules.base import Message
from games.services import GameError, Result, appending, timing
from games.services.timing import TimeControls
from games.store import heads


def start_vacation(
    game: Game, seat: int, days: float, *, source: str = Event.Source.MAIL, inbound_message_id: str = ""
) -> Result:
    """A player is away for ``days``: the game's clock stops until they are back (at the
    latest when the days are over).  Each player has ``vacation_days`` per game."""
    with transaction.atomic():
        game = appending._lock(game, 1)
        if game.status not in (Game.Status.RUNNING, Game.Status.PAUSED):
            raise GameError(Message("Only a running game has deadlines to pause."))
        now = timezone.now()
        holder = Seat.objects.select_for_update().get(game=game, position=seat)
        allowance = timedelta(days=timing.controls(game).vacation_days)
        left = allowance - holder.vacation_used
        if holder.away_until is not None and holder.away_until > now:
            raise GameError(
                Message(
                    "You are already away until {until} UTC; write 'back' first.",
                    until=f"{holder.away_until:%Y-%m-%d %H:%M}",
                )
            )
        wanted = timedelta(days=days)
        if wanted <= timedelta(0):
            raise GameError(Message("Give the number of days you will be away, e.g. 'vacation 5 days'."))
        if wanted > left:
            raise GameError(
                Message(
                    "You have {left} of vacation left in this game (of {allowance}); "
                    "ask for at most that, e.g. 'vacation {whole} days'.",
                    left=_days(left),
                    allowance=_days(allowance),
                    whole=max(int(left.total_seconds() // 86400), 1),
                )
                if left > timedelta(0)
                else Message(
                    "You have used all {allowance} of vacation in this game.", allowance=_days(allowance)
                )
            )
        holder.away_until = now + wanted
        holder.vacation_used += wanted  # given back in part by an early 'back'
        holder.save(update_fields=["away_until", "vacation_used"])
        payload = {"until": holder.away_until.isoformat(), "days": days}
        return _away_event(
            game, holder, Event.Kind.VACATION_STARTED, payload, source, inbound_message_id, now
        )


def end_vacation(
    game: Game,
    seat: int,
    *,
    source: str = Event.Source.MAIL,
    now: datetime | None = None,
    inbound_message_id: str = "",
) -> Result:
    """Back from vacation (early, by mail, or because the days are over): the unused days
    are kept for later, and the clock restarts unless something else keeps it stopped."""
    with transaction.atomic():
        game = appending._lock(game, 1)
        now = now or timezone.now()
        holder = Seat.objects.select_for_update().get(game=game, position=seat)
        if holder.away_until is None:
            raise GameError(Message("You are not on vacation in this game."))
        unused = max(holder.away_until - now, timedelta(0))
        holder.vacation_used -= unused
        holder.away_until = None
        holder.save(update_fields=["away_until", "vacation_used"])
        payload = {"unused_days": round(unused.total_seconds() / 86400, 2)}
        return _away_event(game, holder, Event.Kind.VACATION_ENDED, payload, source, inbound_message_id, now)


def _away_event(
    game: Game, holder: Seat, kind: str, payload: dict[str, Any], source: str, message_id: str, now: datetime
) -> Result:
    """Append a vacation event, stop or restart the clock, and finish (under the lock)."""
    event = appending._append(
        game, kind, payload, seat=holder.position, source=source, inbound_message_id=message_id
    )
    timing.keep_clock(game, now)
    result = Result(game, heads._head(game), [event], changed=("clock_stopped_at",))
    appending._finish(result)
    return result


def set_time_controls(game: Game, controls: TimeControls, *, by: User | None, reason: str) -> Result:
    """New time controls; they apply to the decisions that begin from now on."""
    appending._need_reason(reason)
    with transaction.atomic():
        game = appending._lock_moderated(game, by)
        previous = game.time_controls
        game.time_controls = controls.to_dict()
        game.save(update_fields=["time_controls"])
        payload = {"time_controls": game.time_controls, "previous": previous}
        return appending._moderated(game, Event.Kind.TIME_CONTROLS, payload, by, reason)


def consecutive_defaults(game: Game, seat: int) -> int:
    """How many of the latest moves in effect of the seat's current player were deadline
    defaults, in a row (a replacement starts afresh: the streak was the previous player's)."""
    return defaults_in_a_row(game).get(seat, 0)


def defaults_in_a_row(game: Game) -> dict[int, int]:
    """``consecutive_defaults`` of every seat that has moved, from one read of the log."""
    events = list(game.events.order_by("seq"))
    # a rollback does not give a seat back (``Seat.player`` stays), so every replacement counts
    handed = {e.seat: e.seq for e in events if e.kind == Event.Kind.SEAT_REPLACED and e.seat is not None}
    counts: dict[int, int] = {}
    ended: set[int] = set()  # seats whose streak met a move of their own, or its player's start
    moves = [e for e in services.effective(events) if e.kind in services.MOVE_KINDS]
    for event in reversed(moves):
        if event.seat is None or event.seat in ended:
            continue
        if event.seq < handed.get(event.seat, 0):
            ended.add(event.seat)
            counts.setdefault(event.seat, 0)
            continue
        if event.kind != Event.Kind.DEFAULT:
            ended.add(event.seat)
            counts.setdefault(event.seat, 0)
            continue
        counts[event.seat] = counts.get(event.seat, 0) + 1
    return counts


def _days(span: timedelta) -> Message:
    days = span.total_seconds() / 86400
    return Message("1 day") if days == 1 else Message("{days} days", days=f"{days:g}")
