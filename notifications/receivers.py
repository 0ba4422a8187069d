"""Signal receivers: the games app announces appended events; mail follows from them."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.dispatch import receiver

from games.models import Event, Game
from games.rules import whitelotus as wl
from games.rules.base import LogEntry
from games.signals import events_appended

from . import outbox, tokens


@receiver(events_appended, dispatch_uid="notifications.outbox")
def write_outbox(
    sender: Any,
    *,
    game: Game,
    events: Sequence[Event],
    state: wl.State,
    log: Sequence[LogEntry],
    before: wl.State | None = None,
    **kwargs: Any,
) -> None:
    """Inside the transaction that appended ``events``: rotate the reply token of a seat that
    changed hands, and write the outbox rows the events cause."""
    for event in events:
        if event.kind == Event.Kind.SEAT_REPLACED:
            tokens.rotate(game.seats.get(position=event.payload["position"]))
    if events:
        outbox.write(game, events[-1].seq, outbox.plan(events, state, log, before))
