"""The minute sweep (Celery beat): new games whose ready window ended (started with the
entropy that arrived), vacations that are over, reminders, deadline defaults.

The database is the source of truth for time: every due thing is found by an indexed
query over ``PendingDecision`` (``deadline_at``, ``remind_at``) or ``Seat.away_until``, so
a sweep costs what is due, not what is stored, and a sweep that was missed (worker down,
Redis down) catches up at the next one.  No long countdowns are left with the broker.

* A reminder is claimed with ``select_for_update(skip_locked=True)`` and marked sent in the
  same transaction as its outbox row: two workers never send it twice.
* A bot-held seat's due decision is played by the bot (``games.services.bots.play``), not defaulted.
* A default goes through ``services.apply_default`` with the decision's ``since_seq``: under
  the game's row lock it is played only if that very decision is still pending and due, so
  a real move that came first, or another worker, wins cleanly.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import datetime

from django.db import transaction
from django.utils import timezone

from games import services
from games.models import Event, Game, Heartbeat, PendingDecision, Seat
from games.services import bots, deadlines, timing
from notifications.outbound import outbox

log = logging.getLogger(__name__)

BATCH = 1000  # at most this many of each per sweep; the next sweep takes the rest
HEARTBEAT = "sweep"


@dataclass
class Report:
    vacations_ended: int = 0
    reminders: int = 0
    defaults: int = 0
    skipped: int = 0  # due defaults that a real move (or another worker) made moot
    started: int = 0  # new games whose ready window ended

    def __str__(self) -> str:
        started = f"{self.started} games started, " if self.started else ""
        return (
            f"{started}{self.vacations_ended} vacations ended, {self.reminders} reminders, "
            f"{self.defaults} defaults played, {self.skipped} skipped"
        )


def sweep(now: datetime | None = None) -> Report:
    now = now or timezone.now()
    report = Report()
    report.started = len(services.start_waiting_games(now))
    report.vacations_ended = end_vacations(now)
    report.reminders = send_reminders(now)
    report.defaults, report.skipped = play_defaults(now)
    Heartbeat.objects.update_or_create(name=HEARTBEAT, defaults={"at": now, "detail": str(report)[:200]})
    return report


def end_vacations(now: datetime) -> int:
    ended = 0
    for seat in Seat.objects.filter(away_until__lte=now).select_related("game")[:BATCH]:
        try:
            deadlines.end_vacation(seat.game, seat.position, source=Event.Source.SYSTEM, now=now)
            ended += 1
        except services.GameError:  # ended meanwhile by the player
            pass
    return ended


def send_reminders(now: datetime) -> int:
    sent = 0
    with transaction.atomic():
        due = list(
            PendingDecision.objects.select_for_update(skip_locked=True, of=("self",))
            .select_related("game")
            .filter(remind_at__lte=now, game__status=Game.Status.RUNNING, game__clock_stopped_at__isnull=True)
            .order_by("remind_at")[:BATCH]
        )
        for row in due:
            tc = timing.controls(row.game)
            planned = outbox.Planned(
                "reminder", row.seat, {"decision": row.kind, "reminder": row.reminders_sent + 1}
            )
            outbox.write(row.game, row.since_seq, [planned], tag=f"r{row.reminders_sent + 1}")
            row.reminders_sent += 1
            row.remind_at = tc.reminder_at(row.deadline_at, row.reminders_sent)
            sent += 1
        PendingDecision.objects.bulk_update(due, ["reminders_sent", "remind_at"])
    return sent


def play_defaults(now: datetime) -> tuple[int, int]:
    due = list(
        PendingDecision.objects.filter(
            deadline_at__lte=now, game__status=Game.Status.RUNNING, game__clock_stopped_at__isnull=True
        )
        .order_by("deadline_at")
        .values_list("game_id", "seat", "since_seq", "deadline_at")[:BATCH]
    )
    played = skipped = 0
    games = {g.pk: g for g in Game.objects.filter(pk__in={g for g, *_ in due})}
    held = set(
        Seat.objects.filter(game_id__in=games, bot_since__isnull=False).values_list("game_id", "position")
    )
    for game_id, seat, since_seq, deadline in due:
        if deadline is None or deadline + timing.controls(games[game_id]).grace > now:
            continue  # in its grace period
        if (game_id, seat) in held:  # the bot plays it (its task, enqueued on commit, was lost)
            try:
                bot_moves = bots.play(game_id)
            except Exception:  # one broken bot must not stop the sweep of every other game
                log.exception("the bots of game %s failed; the deadline default plays instead", game_id)
                bot_moves = 0
            if bot_moves:
                played += 1
                continue
            # the bot could not play it: the default does, as for any seat past its deadline
        try:
            services.apply_default(games[game_id], seat, since_seq=since_seq, now=now)
            played += 1
        except services.NotDue:
            skipped += 1  # taken meanwhile, or within the grace period
        except services.GameError as error:
            log.warning("no default for game %s seat %s: %s", game_id, seat, error)
            skipped += 1
    return played, skipped


def health(now: datetime | None = None, stale_after: int = 180) -> tuple[bool, str]:
    """Is the sweep running?  ``(ok, what to say)``: it must have run in the last few
    minutes."""
    now = now or timezone.now()
    beat = Heartbeat.objects.filter(name=HEARTBEAT).first()
    if beat is None:
        return False, "the sweep has never run (is celery beat running?)"
    age = (now - beat.at).total_seconds()
    ok = age <= stale_after
    return ok, f"last sweep {int(age)} s ago at {beat.at:%Y-%m-%d %H:%M:%S} UTC: {beat.detail}"
