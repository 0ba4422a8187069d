"""When a league game ends, every seat gets the season's standings (a mail per seat,
written in the transaction of the last move, rendered when sent).  After the season's
number of defaults in a row (``Season.bot_after_defaults``), the seat goes to the bot, in
the transaction of the default that reached it."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.dispatch import receiver

from games import services
from games.models import Event, Game
from games.services import bots
from games.services.deadlines import defaults_in_a_row
from games.store.signals import events_appended
from leagues import projection
from leagues.models import LeagueGame
from notifications.outbound import outbox


@receiver(events_appended, dispatch_uid="leagues.projection")
def follow_results(sender: Any, *, game: Game, events: Sequence[Event], **kwargs: Any) -> None:
    """The season's standings and the league's ratings follow a game's result rows, in the
    transaction that wrote or withdrew them (``leagues.projection``)."""
    ended = game.status == Game.Status.FINISHED and any(e.kind in services.MOVE_KINDS for e in events)
    if ended or any(e.kind == Event.Kind.ROLLED_BACK for e in events):
        projection.game_changed(game)


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


@receiver(events_appended, dispatch_uid="leagues.bot_after_defaults")
def hand_dropped_seats_to_the_bot(sender: Any, *, game: Game, events: Sequence[Event], **kwargs: Any) -> None:
    """A seat whose moves were played by default ``bot_after_defaults`` times in a row (no
    move of its own between them) is handed to the bot by the system, with the reason."""
    defaulted = {e.seat for e in events if e.kind == Event.Kind.DEFAULT and e.seat is not None}
    if not defaulted or game.status != Game.Status.RUNNING:
        return
    link = LeagueGame.objects.select_related("season").filter(game=game).first()
    most = link.season.bot_after_defaults if link is not None else 0
    if not most:
        return
    in_a_row = defaults_in_a_row(game)
    for seat in sorted(defaulted - bots.bot_seats(game)):
        if in_a_row.get(seat, 0) >= most:
            bots.hand_to_bot(
                game,
                seat,
                by=None,
                source=Event.Source.SYSTEM,
                reason=f"{most} moves in a row were played by default at their deadlines "
                "(the season's rule for dropped seats).",
            )
