"""When a league game ends, every seat gets the season's standings (a mail per seat,
written in the transaction of the last move, rendered when sent)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.dispatch import receiver

from games import services
from games.models import Event, Game
from games.signals import events_appended
from notifications import outbox

from .models import LeagueGame


@receiver(events_appended, dispatch_uid="leagues.standings_mail")
def mail_standings(sender: Any, *, game: Game, events: Sequence[Event], state: Any, **kwargs: Any) -> None:
    if not events or game.status != Game.Status.FINISHED or services.rules_of(game).outcome(state) is None:
        return
    if not any(e.kind in (Event.Kind.COMMAND, Event.Kind.DEFAULT) for e in events):
        return  # the game ended with a move; anything else is a later act on a finished game
    if not LeagueGame.objects.filter(game=game).exists():
        return
    seq = events[-1].seq
    outbox.write(game, seq, [outbox.Planned("standings", seat) for seat in range(services.seats_of(game))])
