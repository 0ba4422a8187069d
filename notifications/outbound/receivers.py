"""Signal receivers: the games app announces appended events; mail follows from them."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.conf import settings
from django.dispatch import receiver

from games import services
from games.models import Event, Game
from games.rules.base import LogEntry
from games.services import timing
from games.services.deadlines import consecutive_defaults
from games.store.signals import events_appended
from notifications.outbound import outbox
from notifications.services import tokens


@receiver(events_appended, dispatch_uid="notifications.outbound.outbox")
def write_outbox(
    sender: Any,
    *,
    game: Game,
    events: Sequence[Event],
    state: Any,
    log: Sequence[LogEntry],
    before: Any = None,
    **kwargs: Any,
) -> None:
    """Inside the transaction that appended ``events``: rotate the reply token of a seat that
    changed hands, and write the outbox rows the events cause."""
    for event in events:
        if event.kind == Event.Kind.SEAT_REPLACED:
            tokens.rotate(game.seats.get(position=event.payload["position"]))
    if not events:
        return
    seq = events[-1].seq
    planned = outbox.plan(
        events,
        state,
        log,
        before,
        rules=services.rules_of(game),
        players=services.seats_of(game),
        waiting=game.status == Game.Status.NEW and game.ready_until is not None,
    )
    outbox.write(game, seq, planned)
    for event in events:
        if event.kind == Event.Kind.SEAT_REPLACED:
            outbox.handed_over(game, event)
        elif event.kind == Event.Kind.BOT_SEATED:
            outbox.to_bot(game, event)
    for event in events:
        if event.kind == Event.Kind.DEFAULT and event.seat is not None:
            _count_missed(game, event.seat, seq)


def _count_missed(game: Game, seat: int, seq: int) -> None:
    """After the configured number of defaults in a row: warn the player, and suggest a
    replacement to the moderators (once per streak: exactly at the threshold)."""
    missed = consecutive_defaults(game, seat)
    if missed != timing.controls(game).warn_after_defaults:
        return
    outbox.write(game, seq, [outbox.Planned("missed", seat, {"missed": missed})])
    holder = game.seats.select_related("player").get(position=seat)
    context = {
        "game_id": game.pk,
        "game_name": game.name or f"Game {game.pk}",  # kept as written now: not the active language
        "colour": holder.colour,
        "player": str(holder.player),
        "missed": missed,
    }
    for address in settings.MODERATOR_EMAILS:
        outbox.notify(
            f"g{game.pk}:{seq}:missed-moderators:{seat}:{address}", "missed_moderators", address, context
        )
