"""Bots for dropped seats: a seat handed to the service's bot, and the bot playing it.

The seat keeps its player throughout: the bot plays *for* them, their reply address stays
valid, and the standings count the seat as theirs (marked as partly played by a bot).

* Handing over (``hand_to_bot``): a moderator's act or a season's rule after N defaults in a
  row; an event ``bot_seated``, and ``Seat.bot_since`` set in the same transaction.
* Taking back: the player's ``back`` (``zurück``, ``retour``) by mail, or a moderator's
  ``take_back`` (an event ``bot_unseated``), or ``services.replace_seat`` to someone else.
* Playing (``play``): a bot-held seat that owes a decision has its bot's command applied
  through ``services.submit`` (source ``bot``).  A receiver of ``events_appended`` enqueues
  ``play_bots`` when the transaction commits; the minute sweep plays a due bot seat in case
  that task was lost.
* What the bot sees: ``Bot(key).choose(state, seat)`` reads only the seat's own side (its
  menu, its sealed choice and hand, the public board); the key is
  ``"<game>:<seat>:<head seq>"``, never the game's secret seed.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any

from celery import shared_task
from django.contrib.auth.models import User
from django.db import transaction
from django.dispatch import receiver
from django.utils import timezone

from games import services
from games.models import Event, Game, PendingDecision, Seat
from games.rules.base import Message
from games.services import GameError, Result, appending
from games.store import heads
from games.store.signals import events_appended

log = logging.getLogger(__name__)

MOST_PER_RUN = 1000  # commands one run of ``play`` makes at most (a game is far shorter)

_local = threading.local()  # the games this thread's ``play`` is playing now


def hand_to_bot(
    game: Game,
    position: int,
    *,
    by: User | None,
    reason: str,
    source: str = Event.Source.MODERATOR,
) -> Result:
    """The bot plays the seat from now on, for its player (who keeps the seat)."""
    appending._need_reason(reason)
    with transaction.atomic():
        game = appending._lock_moderated(game, by)
        if game.status not in (Game.Status.RUNNING, Game.Status.PAUSED):
            raise GameError("Only a running or paused game's seat can be handed to a bot.")
        seat = _seat(game, position)
        if seat.bot_since is not None:
            raise GameError(f"The {seat.colour} seat is already played by a bot.")
        seat.bot_since = timezone.now()
        seat.save(update_fields=["bot_since"])
        payload = {"position": position, "colour": seat.colour, "player": seat.player.email}
        return _act(game, Event.Kind.BOT_SEATED, payload, position, source, by, reason)


def take_back(
    game: Game,
    position: int,
    *,
    by: User | None = None,
    reason: str = "",
    source: str = Event.Source.MAIL,
    inbound_message_id: str = "",
) -> Result:
    """The seat's player plays it again (their ``back`` by mail, or a moderator for them)."""
    with transaction.atomic():
        game = appending._lock_moderated(game, by)
        if game.status == Game.Status.FINISHED:
            raise GameError(Message("This game is over."))
        seat = _seat(game, position)
        if seat.bot_since is None:
            raise GameError(Message("Your seat is not played by a bot: there is nothing to take back."))
        seat.bot_since = None
        seat.save(update_fields=["bot_since"])
        payload = {"position": position, "colour": seat.colour, "player": seat.player.email}
        return _act(game, Event.Kind.BOT_UNSEATED, payload, position, source, by, reason, inbound_message_id)


def _seat(game: Game, position: int) -> Seat:
    seat = game.seats.select_for_update().select_related("player").filter(position=position).first()
    if seat is None:
        raise GameError(f"There is no seat {position} in this game.")
    return seat


def _act(
    game: Game,
    kind: str,
    payload: dict[str, Any],
    position: int,
    source: str,
    by: User | None,
    reason: str,
    inbound_message_id: str = "",
) -> Result:
    event = appending._append(
        game,
        kind,
        payload,
        seat=position,
        source=source,
        actor=by,
        reason=reason,
        inbound_message_id=inbound_message_id,
    )
    result = Result(game, heads._head(game), [event])
    appending._finish(result)
    return result


def bot_seats(game: Game | int) -> set[int]:
    game_id = game if isinstance(game, int) else game.pk
    return set(
        Seat.objects.filter(game_id=game_id, bot_since__isnull=False).values_list("position", flat=True)
    )


def owed_by_bots(game_id: int) -> list[PendingDecision]:
    """The decisions bot-held seats of the game owe now, oldest first (one query)."""
    held = Seat.objects.filter(game_id=game_id, bot_since__isnull=False).values("position")
    return list(
        PendingDecision.objects.owed().filter(game_id=game_id, seat__in=held).order_by("since_seq", "seat")
    )


def bot_key(game: Game, seat: int) -> str:
    """The bot's draws for one decision: per game, seat and head (never the game's seed)."""
    return f"{game.pk}:{seat}:{game.head_seq}"


def play(game_id: int, *, most: int = MOST_PER_RUN) -> int:
    """Play every decision the game's bot-held seats owe, one ``submit`` (one event) per
    command, until they owe nothing, the game stops running, or ``most`` commands.  Returns
    how many were played.  Idempotent: a run that finds nothing owed does nothing, and a
    human (or another run) moving first only makes this one look again."""
    played = 0
    stale = 0
    with _playing(game_id):
        while played < most and stale < 10:
            owed = owed_by_bots(game_id)
            if not owed:
                break
            game = Game.objects.get(pk=game_id)
            if game.status != Game.Status.RUNNING or services.version_mismatch(game) is not None:
                break
            rules = services.rules_of(game)
            state = heads._head(game)
            owing = {d.seat for d in rules.pending(state)}
            row = next((r for r in owed if r.seat in owing), None)
            if row is None:  # the rows are behind the state: read again
                stale += 1
                continue
            try:
                command = rules.about.Bot(bot_key(game, row.seat)).choose(state, row.seat)
                services.submit(game, row.seat, command, expected_seq=game.head_seq, source=Event.Source.BOT)
            except services.IllegalMove as error:  # a bug in the bot: the deadline default will do
                log.error("bot of game %s seat %s chose an illegal move: %s", game_id, row.seat, error)
                break
            except GameError:  # somebody moved first: look again
                stale += 1
                continue
            except Exception:  # a bug in the bot: the deadline sweep plays the default instead
                log.exception("bot of game %s seat %s failed", game_id, row.seat)
                break
            played += 1
    return played


# the task the receiver below enqueues lives beside ``play``; its name is the one routes, beat
# and queued messages know it by (the app's ready() imports this module, so a worker has it)
@shared_task(name="games.tasks.play_bots", acks_late=True)
def play_bots(game_id: int) -> str:
    """The decisions a game's bot-held seats owe, played (``play``)."""
    return f"{play(game_id)} bot moves played in game {game_id}"


@contextmanager
def _playing(game_id: int) -> Iterator[None]:
    games: set[int] = getattr(_local, "games", set())
    _local.games = games
    games.add(game_id)
    try:
        yield
    finally:
        games.discard(game_id)


def _no_bot_owes(game: Game, state: Any) -> bool:
    """No seat the bot holds owes a decision in ``state`` (``services.seat_rows``: after a
    move by this process, known without asking the database)."""
    held = {row.position for row in services.seat_rows(game) if row.by_bot}
    return not any(d.seat in held for d in services.rules_of(game).pending(state))


@receiver(events_appended, dispatch_uid="games.services.bots")
def wake_bots(sender: Any, *, game: Game, events: Sequence[Event], **kwargs: Any) -> None:
    """After events that leave a bot-held seat owing a decision, the bots play once the
    transaction commits (not inside it: each bot move is its own transaction and event).
    The run that is playing the game now needs no new one: it loops."""
    if game.pk in getattr(_local, "games", set()) or game.status != Game.Status.RUNNING:
        return
    state = kwargs.get("state")
    if state is None:
        if not owed_by_bots(game.pk):
            return
    elif _no_bot_owes(game, state):  # the state says it (the rows may not be written yet)
        return
    game_id = game.pk

    def enqueue() -> None:
        try:
            play_bots.delay(game_id)
        except Exception as error:  # broker unreachable: the deadline sweep lets the bot play
            log.warning("could not enqueue the bots of game %s (%s)", game_id, error)

    transaction.on_commit(enqueue)
