"""Per finished game, its result: a projection of the event log (``SeatResult`` rows).

What it holds: one row per seat of a finished game: who held the seat at the end (the
player), the engine's final rank and score, every holder of the seat in order with the
default moves played while they held it and whether the bot played for them, when the game
ended and the game's last event then.  Standings and ratings (``leagues``), the archive's
winners and a player's page read these rows; none of them replays a game.

Who writes it: ``project`` alone, called by ``games.services.appending._finish`` (the one place that
appends events) and by ``manage.py rebuild_projections``.

Inline, not caught up: the rows are written in the transaction that appends the event ending
the game, and deleted in the one that appends a rollback past the end.  A game ends once,
after hundreds of moves, so the few queries cost nothing on the move path, and every reader
sees a finished game with its result or not at all: the standings mail written in that same
transaction (``leagues.receivers``) and the league's own projection updated there too can
rely on it, with no position to store and no lag to explain.  The rows are disposable:
``rebuild`` writes them again from the log.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from django.db.models import Q

from games.models import Event, Game, SeatResult
from games.store import heads

# the events that say who held a seat and what they missed (and the rollbacks that undo them)
COUNTED = (Event.Kind.SEAT_REPLACED, Event.Kind.DEFAULT, Event.Kind.ROLLED_BACK, Event.Kind.BOT_SEATED)

Holder = dict[str, Any]  # {"email": str, "from_seq": int, "defaults": int, "bot": bool}


def holders_from(events: Sequence[Event]) -> list[list[Holder]]:
    """Per seat, who held it from which event on and their default moves while they did,
    from the game's created event and its ``COUNTED`` events in order.

    Replacements and hand-overs to the bot count from every event (a rollback does not give
    a seat back: ``Seat.player`` stays changed, so neither does this); defaults only from
    the moves in effect (a default a rollback undid was not missed)."""
    created = events[0].payload
    seats: list[list[Holder]] = [
        [{"email": p["email"], "from_seq": 1, "defaults": 0, "bot": False}] for p in created["players"]
    ]
    defaults = {e.seq for e in heads.effective(events) if e.kind == Event.Kind.DEFAULT}
    for event in events:
        if event.kind == Event.Kind.SEAT_REPLACED:
            seats[event.payload["position"]].append(
                {"email": event.payload["new"], "from_seq": event.seq, "defaults": 0, "bot": False}
            )
        elif event.kind == Event.Kind.BOT_SEATED and event.seat is not None:
            seats[event.seat][-1]["bot"] = True
        elif event.seq in defaults and event.seat is not None:
            seats[event.seat][-1]["defaults"] += 1
    return seats


def counted_events(game: Game, appended: Iterable[Event] = ()) -> list[Event]:
    """The created event and the ``COUNTED`` ones, read from the log, with those of
    ``appended`` that a move's batch has not written yet (``games.store.rows.together``)."""
    events = list(game.events.filter(Q(seq=1) | Q(kind__in=COUNTED)).order_by("seq"))
    known = {e.seq for e in events}
    events += [e for e in appended if e.seq not in known and (e.seq == 1 or e.kind in COUNTED)]
    return sorted(events, key=lambda e: e.seq)


def project(game: Game, state: Any, appended: Sequence[Event] = ()) -> bool:
    """Make the game's result rows what its log says at its head (``state``): written when
    it is finished, none otherwise.  True when the rows changed."""
    if game.status != Game.Status.FINISHED or game.finished_at is None:
        if any(e.kind == Event.Kind.ROLLED_BACK for e in appended) or not appended:
            return SeatResult.objects.filter(game=game).delete()[0] > 0
        return False  # a move of a running game: it has no rows to withdraw
    outcome = heads.rules_of(game).outcome(state)
    SeatResult.objects.filter(game=game).delete()
    if outcome is None:
        return True
    holders = holders_from(counted_events(game, appended))
    players = dict(game.seats.values_list("position", "player_id"))
    SeatResult.objects.bulk_create(
        SeatResult(
            game=game,
            position=seat,
            player_id=players[seat],
            rank=outcome.rank[seat],
            score=outcome.breakdown[seat].get("total", outcome.scores[seat]),
            holders=held,
            finished_at=game.finished_at,
            end_seq=game.head_seq,
        )
        for seat, held in enumerate(holders)
    )
    return True


def rebuild(game: Game) -> bool:
    """The game's rows again, from its log (``manage.py rebuild_projections``)."""
    return project(game, heads.head_state(game) if game.status == Game.Status.FINISHED else None)
