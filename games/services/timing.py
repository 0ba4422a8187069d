"""Time in a game: time controls, deadlines, and the pending-decision rows.

* ``TimeControls`` are set per game at creation and changed by moderators (an event).
* ``sync_decisions`` keeps ``PendingDecision`` in step with ``pending(state)``: it runs in the
  transaction of every event, under the game's row lock (see ``games.services.appending._finish``).
  A decision that begins gets a deadline: now + the time per decision, moved out of the
  night or the weekend in the seat's time zone when the game asks for it; sealed decisions
  that begin together share one deadline (the latest of their seats').  A decision kind the
  game gives a short window (``rules.about.short_windows``, in hours) gets the shorter of that and
  the time per decision.
* The clock stops while the game is paused or a player is on vacation; when it restarts,
  every deadline moves on by the time it stood still (``restart_clock``).
"""

from __future__ import annotations

import zoneinfo
from collections.abc import Iterable, Mapping
from dataclasses import asdict, dataclass, field
from datetime import datetime, time, timedelta
from typing import Any

from django.db import connection

from games.models import Game, PendingDecision, Seat
from games.rules.base import Decision, Rules

NIGHT_ENDS = time(8, 0)  # a deadline that would fall at night moves to 08:00
NIGHT_STARTS = time(22, 0)


@dataclass(frozen=True)
class TimeControls:
    """A game's clock.  The defaults are a league's: two days per decision, reminders a day
    and four hours before, warnings after three missed moves, 14 days of vacation."""

    hours_per_decision: float | None = 48  # None: no deadlines at all
    reminder_hours: tuple[float, ...] = (24, 4)  # before the deadline
    grace_hours: float = 0  # after the deadline, before the default is played
    quiet_nights: bool = False  # no deadline falls 22:00-08:00 in the player's time zone
    quiet_weekends: bool = False  # ... nor on a Saturday or Sunday
    warn_after_defaults: int = 3  # consecutive defaults before the moderators are told
    vacation_days: int = 14  # per player and game
    extra: Mapping[str, Any] = field(default_factory=dict)  # keys this version does not know

    @classmethod
    def from_dict(cls, data: Mapping[str, Any] | None) -> TimeControls:
        data = dict(data or {})
        known = {k: data.pop(k) for k in list(data) if k in cls.__dataclass_fields__ and k != "extra"}
        if "reminder_hours" in known:
            known["reminder_hours"] = tuple(sorted((float(h) for h in known["reminder_hours"]), reverse=True))
        return cls(**known, extra=data)

    def to_dict(self) -> dict[str, Any]:
        out = asdict(self)
        out["reminder_hours"] = list(self.reminder_hours)
        return {**out.pop("extra"), **out}

    @property
    def per_decision(self) -> timedelta | None:
        return None if self.hours_per_decision is None else timedelta(hours=self.hours_per_decision)

    @property
    def grace(self) -> timedelta:
        return timedelta(hours=self.grace_hours)

    def reminder_at(self, deadline: datetime | None, sent: int) -> datetime | None:
        """When the next reminder is due, after ``sent`` of them (None: none left)."""
        if deadline is None or sent >= len(self.reminder_hours):
            return None
        return deadline - timedelta(hours=self.reminder_hours[sent])

    def reminders_from(
        self, deadline: datetime | None, now: datetime, sent: int = 0
    ) -> tuple[int, datetime | None]:
        """``(sent, next reminder)`` for a deadline seen at ``now``: reminders whose time has
        already passed are skipped (a decision with six hours left gets only the 4 h one)."""
        while (at := self.reminder_at(deadline, sent)) is not None and at <= now:
            sent += 1
        return sent, at


def controls(game: Game) -> TimeControls:
    return TimeControls.from_dict(game.time_controls)


def zone(name: str) -> zoneinfo.ZoneInfo:
    try:
        return zoneinfo.ZoneInfo(name)
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):
        return zoneinfo.ZoneInfo("UTC")


def quiet(moment: datetime, tc: TimeControls, tz: zoneinfo.ZoneInfo) -> datetime:
    """``moment`` moved out of the night and the weekend of ``tz``, as ``tc`` asks."""
    local = moment.astimezone(tz)
    for _ in range(4):  # a night may end on a Saturday: move at most a few times
        moved = local
        if tc.quiet_nights and local.time() >= NIGHT_STARTS:
            moved = datetime.combine(local.date() + timedelta(days=1), NIGHT_ENDS, tz)
        elif tc.quiet_nights and local.time() < NIGHT_ENDS:
            moved = datetime.combine(local.date(), NIGHT_ENDS, tz)
        if tc.quiet_weekends and moved.weekday() >= 5:
            monday = moved.date() + timedelta(days=7 - moved.weekday())
            moved = datetime.combine(monday, NIGHT_ENDS if tc.quiet_nights else time(0, 0), tz)
        if moved == local:
            break
        local = moved
    return local.astimezone(moment.tzinfo)


def deadline(
    start: datetime, tc: TimeControls, zones: Iterable[zoneinfo.ZoneInfo], *, most_hours: float | None = None
) -> datetime | None:
    """The deadline of a decision that begins at ``start`` for seats in ``zones`` (sealed
    decisions share one: the latest any of their seats needs).  ``most_hours`` is the
    decision's short window (``rules.about.short_windows``): the time per decision, but no more
    than that (and a short window even where the clock gives no deadline)."""
    span = window(tc, most_hours)
    if span is None:
        return None
    plain = start + span
    if not (tc.quiet_nights or tc.quiet_weekends):
        return plain
    return max((quiet(plain, tc, z) for z in zones), default=plain)


def window(tc: TimeControls, most_hours: float | None = None) -> timedelta | None:
    """The time a decision gets: the clock's time per decision, or the decision's short
    window where that is shorter (None: no deadline)."""
    span = tc.per_decision
    if most_hours is None:
        return span
    short = timedelta(hours=most_hours)
    return short if span is None else min(span, short)


def beginning(before: Any | None, after: Any, movers: Iterable[int], *, rules: Rules) -> dict[int, str]:
    """Seats whose decision begins with these events: pending now and not before, pending
    in another way, or the seat that just moved and must decide again."""
    was = rules.pending(before) if before is not None else ()
    return _beginning(was, rules.pending(after), movers)


def _beginning(was: Iterable[Decision], now: Iterable[Decision], movers: Iterable[int]) -> dict[int, str]:
    before = {d.seat: d.kind for d in was}
    moved = set(movers)
    return {d.seat: d.kind for d in now if d.seat in moved or before.get(d.seat) != d.kind}


def sync_decisions(
    game: Game,
    state: Any,
    before: Any | None,
    movers: Iterable[int],
    seq: int,
    now: datetime,
    *,
    players: int | None = None,
    run: bool = True,
) -> list[tuple[str, list[Any]]]:
    """Rewrite the game's pending-decision rows after event ``seq`` (under the row lock).

    With ``before`` (a move): only the seats whose decision ended or began are rewritten, one
    ``UPDATE`` each; with ``run=False`` they are returned, not run, for the caller to send
    with the event in one statement (``games.store.rows.insert``: every move pays for its
    round trips).  Without ``before`` (start, rollback): the rows are made anew from
    ``state``; ``players`` is the number of seats (counted if not given)."""
    rules = game.engine
    now_pending = rules.pending(state)
    pending = {d.seat: d for d in now_pending}
    if before is None:
        begun = {s: d.kind for s, d in pending.items()}
        seats = players if players is not None else Seat.objects.filter(game=game).count()
        ended = [s for s in range(seats) if s not in pending]
    else:
        was = rules.pending(before)
        begun = _beginning(was, now_pending, movers)
        ended = [d.seat for d in was if d.seat not in pending]
    values: dict[int, dict[str, Any]] = {s: dict(NOTHING_OWED, since_seq=seq) for s in ended}
    if begun:
        values.update(_begun(game, pending, begun, seq, now))
    if before is None:
        PendingDecision.objects.filter(game=game).delete()
        PendingDecision.objects.bulk_create(
            PendingDecision(game=game, seat=s, **v) for s, v in values.items()
        )
        return []
    # raw SQL on purpose: building this UPDATE through the ORM cost more than the move
    statements = [(UPDATE_SQL, [*(v[name] for name in COLUMNS), game.pk, s]) for s, v in values.items()]
    if run and statements:
        with connection.cursor() as cursor:
            cursor.executemany(UPDATE_SQL, [params for _, params in statements])
        return []
    return statements


NOTHING_OWED: dict[str, Any] = {
    "kind": "",
    "sealed": False,
    "deadline_at": None,
    "remind_at": None,
    "reminders_sent": 0,
}
COLUMNS = ("kind", "sealed", "since_seq", "deadline_at", "remind_at", "reminders_sent")
UPDATE_SQL = (
    f"UPDATE {PendingDecision._meta.db_table} SET {', '.join(f'{name} = %s' for name in COLUMNS)} "
    "WHERE game_id = %s AND seat = %s"
)


def _begun(
    game: Game, pending: Mapping[int, Any], begun: Mapping[int, str], seq: int, now: datetime
) -> dict[int, dict[str, Any]]:
    """The rows of the decisions that begin at event ``seq``: deadlines and reminders."""
    tc = controls(game)
    short = game.engine.about.short_windows
    zones: dict[int, zoneinfo.ZoneInfo] = {}
    if tc.quiet_nights or tc.quiet_weekends:
        for seat in Seat.objects.filter(game=game).select_related("player"):
            zones[seat.position] = zone(seat.player.time_zone)
    stopped = game.clock_stopped_at is not None
    sealed = [s for s in begun if pending[s].sealed]
    # sealed decisions that begin together share a deadline (one per window: a kind with a
    # short window has its own)
    shared: dict[float | None, datetime | None] = {}
    for most in {short.get(pending[s].kind) for s in sealed}:
        seats = [s for s in sealed if short.get(pending[s].kind) == most]
        shared[most] = deadline(now, tc, [zones[s] for s in seats if s in zones], most_hours=most)
    out = {}
    for s in begun:
        kind = pending[s].kind
        if pending[s].sealed:
            due = shared[short.get(kind)]
        else:
            due = deadline(now, tc, [zones[s]] if s in zones else [], most_hours=short.get(kind))
        sent, remind = tc.reminders_from(due, now)
        out[s] = {
            "kind": pending[s].kind,
            "sealed": pending[s].sealed,
            "since_seq": seq,
            "deadline_at": due,
            "reminders_sent": sent,
            # while the clock stands still nothing is reminded (restart_clock sets it)
            "remind_at": None if stopped else remind,
        }
    return out


def stop_clock(game: Game, now: datetime) -> bool:
    """Stop the game's clock (pause, vacation); False if it was stopped already."""
    if game.clock_stopped_at is not None:
        return False
    game.clock_stopped_at = now
    PendingDecision.objects.filter(game=game).update(remind_at=None)
    return True


def restart_clock(game: Game, now: datetime) -> timedelta:
    """Restart the clock: every deadline moves on by the time it stood still; the
    reminders not yet sent are due again relative to the new deadline."""
    if game.clock_stopped_at is None:
        return timedelta(0)
    stood = max(now - game.clock_stopped_at, timedelta(0))
    game.clock_stopped_at = None
    tc = controls(game)
    rows = list(PendingDecision.objects.filter(game=game, deadline_at__isnull=False))  # owed ones
    for row in rows:
        assert row.deadline_at is not None
        row.deadline_at += stood
        row.reminders_sent, row.remind_at = tc.reminders_from(row.deadline_at, now, row.reminders_sent)
    PendingDecision.objects.bulk_update(rows, ["deadline_at", "remind_at", "reminders_sent"])
    return stood


def next_deadline(game: Game) -> datetime | None:
    row = game.decisions.filter(deadline_at__isnull=False).order_by("deadline_at").first()
    return row.deadline_at if row else None


def keep_clock(game: Game, now: datetime) -> None:
    """Stop or restart the clock as the game's state asks: it stands still while the game
    is paused or any of its players is on vacation."""
    away = Seat.objects.filter(game=game, away_until__gt=now).exists()
    if game.status == Game.Status.PAUSED or away:
        stop_clock(game, now)
    else:
        restart_clock(game, now)
