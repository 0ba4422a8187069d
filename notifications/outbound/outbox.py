"""The transactional outbox: which mails a set of events causes, written as rows in the same
transaction; sent after commit by a task; re-enqueued by a sweep.

Writing is cheap on purpose (it happens under the game's row lock): a row holds only who
gets which kind of mail about which event.  Rendering (the board, the news since the seat's
last mail, the menu) happens when the row is sent, from the event log, which never changes.

Per transaction each seat gets at most one mail, the most useful one:

* the game is over: ``game_over`` to every seat;
* a seat has a new decision: ``decision`` (it tells what happened since its last mail);
* a seat sealed a choice and the others have not all sealed yet: ``sealed`` (confirmation);
* a year began: ``year`` to the others; a sealed choice was revealed: ``reveal`` to the others.

``write`` then keeps only the rows the seats' players want (``preferences``): by default
sealed confirmations, years, reveals and others' defaults are told in the next mail instead.
"""

from __future__ import annotations

import logging
import uuid
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from django.conf import settings
from django.db import transaction

from games import services
from games.models import Event, Game, Player
from games.rules.base import LogEntry, Rules
from games.services.timing import beginning
from games.store import rows as written
from notifications.models import InboundMail, OutboundMail
from notifications.outbound import queues
from notifications.outbound.sending import send_mails
from notifications.services import preferences

log = logging.getLogger(__name__)

# events that are told to every seat as a notice (moderators' acts, vacations)
NOTICES = {
    Event.Kind.PAUSED: "paused",
    Event.Kind.RESUMED: "resumed",
    Event.Kind.ROLLED_BACK: "rolled_back",
    Event.Kind.DEADLINE_EXTENDED: "deadline_extended",
    Event.Kind.SEAT_REPLACED: "seat_replaced",
    Event.Kind.VACATION_STARTED: "vacation",
    Event.Kind.VACATION_ENDED: "back",
    Event.Kind.TIME_CONTROLS: "time_controls",
    Event.Kind.BOT_SEATED: "bot_seated",
    Event.Kind.BOT_UNSEATED: "bot_unseated",
}
# notices after which the seats that must decide get the menu again
PROMPTING = (
    Event.Kind.ROLLED_BACK,
    Event.Kind.RESUMED,
    Event.Kind.VACATION_ENDED,
    Event.Kind.DEADLINE_EXTENDED,
    Event.Kind.BOT_UNSEATED,
)

# the only mails a seat the bot plays still gets: the end of the game, whose result is its
# player's (``games.services.bots``)
TO_BOT_SEATS = frozenset({"game_over", "standings"})


@dataclass(frozen=True)
class Planned:
    kind: str
    seat: int
    context: dict[str, Any] = field(default_factory=dict)


def plan(
    events: Sequence[Event],
    state: Any,
    log_entries: Sequence[LogEntry],
    before: Any,
    *,
    rules: Rules,
    players: int,
    waiting: bool = False,
) -> list[Planned]:
    """The mails these events cause (see the module's docstring), in seat order: ``state``
    (and ``before``, the state before them) are states of the game's ``rules``, played by
    ``players`` seats.  ``waiting``: the game waits for its seats' ``ready``, so its state is
    set up from the server's seed alone and must not be shown: a notice then carries none
    (its context says ``waiting``), and a seat's new player gets the ``seated`` mail asking
    for their ``ready`` rather than an invitation to move."""
    seats = range(players)
    kinds = {e.kind for e in events}
    if Event.Kind.CREATED in kinds:  # a ready window opened (games.services.create_game)
        return [Planned("seated", s) for s in seats]
    if Event.Kind.STARTED in kinds:
        decisions = {d.seat: d.kind for d in rules.pending(state)}
        return [Planned("invitation", s, {"decision": decisions.get(s, "")}) for s in seats]
    for kind, mail in NOTICES.items():
        if kind in kinds:
            event = next(e for e in events if e.kind == kind)
            context = {"event": event.seq, "reason": event.reason, "about": event.seat, **event.payload}
            if waiting:
                context["waiting"] = True
            prompting = kind in PROMPTING and not waiting
            decisions = {d.seat: d.kind for d in rules.pending(state)} if prompting else {}
            out = [Planned(mail, s, {**context, "decision": decisions.get(s, "")}) for s in seats]
            if kind == Event.Kind.SEAT_REPLACED and waiting:
                out.append(Planned("seated", event.payload["position"], {"replacing": event.payload["old"]}))
            elif kind == Event.Kind.SEAT_REPLACED:
                out.append(
                    Planned("invitation", event.payload["position"], {"replacing": event.payload["old"]})
                )
            return out
    if rules.outcome(state) is not None:
        return [Planned("game_over", s) for s in seats]
    movers = [e.seat for e in events if e.seat is not None]
    decisions = beginning(before, state, movers, rules=rules)
    sealed_by = {e.private_to for e in log_entries if e.kind == "sealed"}
    year = any(e.kind == "year" for e in log_entries)
    revealed = any(e.kind in rules.about.REVEALS for e in log_entries)
    defaulted = [e.seat for e in events if e.kind == Event.Kind.DEFAULT]
    out = []
    for s in seats:
        if s in decisions:
            out.append(Planned("decision", s, {"decision": decisions[s]}))
        elif defaulted:
            out.append(Planned("defaulted", s, {"about": defaulted[0], "hit": defaulted}))
        elif s in sealed_by and not revealed:
            out.append(Planned("sealed", s))
        elif year:
            out.append(Planned("year", s))
        elif revealed:
            out.append(Planned("reveal", s))
    return out


def thread_id(game: Game, seat: int) -> str:
    """The Message-ID of a seat's first mail of a game; every later mail refers to it, so
    one game stays one thread in the player's mail client."""
    return f"wl.game{game.pk}.seat{seat}.{game.seed_hash[:12]}@{settings.MESSAGE_ID_DOMAIN}"


def new_message_id(tag: str) -> str:
    return f"wl.{tag}.{uuid.uuid4().hex}@{settings.MESSAGE_ID_DOMAIN}"


def write(game: Game, seq: int, planned: Sequence[Planned], *, tag: str = "") -> list[OutboundMail]:
    """Outbox rows for ``planned`` that their players want (``preferences.wanted``: the one
    place where mails are held back).  A row not wanted is not written at all, rather than
    written as skipped: the outbox stays the list of mails that go out (the sweep, the
    reply checks and ``seatview.told_before`` need no filter), and the news it would have told is
    in the event log, told by the seat's next mail."""
    planned = _wanted(game, planned)
    if not planned:
        return []
    rows = []
    for p in planned:
        # the seat's first mail of the game roots its thread: the seated mail of a game with a
        # ready window, else the invitation
        first = "replacing" not in p.context and (
            p.kind == "seated" or (p.kind == "invitation" and not _was_seated(game))
        )
        root = thread_id(game, p.seat)
        rows.append(
            OutboundMail(
                key=f"g{game.pk}:{seq}:{p.kind}{tag}:{p.seat}",
                message_id=root if first else new_message_id(f"g{game.pk}"),
                kind=p.kind,
                game=game,
                seat=p.seat,  # the seat's player and address are read when it is sent
                seq=seq,
                context=p.context,
                in_reply_to="" if first else root,
                references="" if first else f"<{root}>",
            )
        )
    # keys carry the event's seq, unique under the game's row lock: a conflict is a bug, and
    # failing the whole transaction is the right answer to it
    written.insert(rows)  # with the move's events, in one statement (``games.store.rows.together``)
    enqueue_on_commit(rows)
    return rows


def _was_seated(game: Game) -> bool:
    return game.ready_until is not None


def _wanted(game: Game, planned: Sequence[Planned]) -> list[Planned]:
    """``planned`` less what nobody reads: mails to a seat whose player has only a placeholder
    address (an imported record's: ``games.models.PLACEHOLDER_DOMAIN``), mails to a seat the
    bot plays (``games.services.bots``:
    its player is told once, by ``to_bot``, and again when they take it back; only the end
    of the game still goes to them, since its result is theirs), and mails the seat's
    player chose not to get."""
    if not planned:
        return []
    seats = services.seat_rows(game)
    by_bot = {row.position for row in seats if row.by_bot}
    unmailable = {row.position for row in seats if not row.mailable}  # an imported record's placeholders
    planned = [
        p for p in planned if p.seat not in unmailable and (p.seat not in by_bot or p.kind in TO_BOT_SEATS)
    ]
    if not any(p.kind in preferences.FOLDED for p in planned):
        return planned
    holders = {row.position: row.player_id for row in seats}
    prefs = preferences.for_players(list(set(holders.values())), game.pk)
    return [
        p
        for p in planned
        if preferences.wanted(p.kind, p.seat, p.context.get("hit", ()), prefs[holders[p.seat]])
    ]


def answer(
    inbound: InboundMail,
    kind: str,
    to_email: str,
    context: dict[str, Any],
    *,
    game: Game | None = None,
    seat: int | None = None,
    in_reply_to: str = "",
    player: Player | None = None,
) -> OutboundMail:
    """A mail that answers an inbound one (at most one of each kind per inbound mail), to
    the seat's player, or to ``player`` (one who held the seat before: then the mail goes
    out with the service address as Reply-To, never the seat's token)."""
    references = f"<{thread_id(game, seat)}>" if game is not None and seat is not None else ""
    if in_reply_to:
        references = f"{references} <{in_reply_to}>".strip()
    if player is None and game is not None and seat is not None:
        player = game.seats.get(position=seat).player
    seq = Game.objects.values_list("head_seq", flat=True).get(pk=game.pk) if game is not None else 0
    return _once(
        f"in{inbound.pk}:{kind}",
        message_id=new_message_id(f"in{inbound.pk}"),
        kind=kind,
        game=game,
        seat=seat,
        player=player,
        to_email=to_email,
        seq=seq,  # the head as committed in this transaction (the mail may have just moved it)
        context=context,
        in_reply_to=in_reply_to,
        references=references,
    )


def handed_over(game: Game, event: Event) -> OutboundMail | None:
    """Tell the player who lost a seat (``seat_replaced``) that it was handed over: to their
    address, in their language, with no reply token (the seat's is its new holder's)."""
    return _about_seat(game, event, "handed_over", event.payload["old"])


def to_bot(game: Game, event: Event) -> OutboundMail | None:
    """Tell a seat's player that the bot plays their seat now (``bot_seated``), and how to
    take it back: to their address, in their language.  The seat's own mails stop while the
    bot holds it (``_wanted``), so this one is written apart from them."""
    return _about_seat(game, event, "to_bot", event.payload.get("player", ""))


def _about_seat(game: Game, event: Event, kind: str, email: str) -> OutboundMail | None:
    """One mail about ``event``'s seat to the player of ``email``, in the seat's thread,
    written apart from the seat's own mails (which that player no longer gets)."""
    player = Player.objects.filter(email__iexact=email).first()
    if player is None or event.seat is None:
        return None
    root = thread_id(game, event.seat)
    return _once(
        f"g{game.pk}:{event.seq}:{kind}:{event.seat}",
        message_id=new_message_id(f"g{game.pk}"),
        kind=kind,
        game=game,
        seat=event.seat,
        player=player,
        to_email=player.email,
        seq=event.seq,
        context={"event": event.seq},
        in_reply_to=root,
        references=f"<{root}>",
    )


def notify(
    key: str, kind: str, to_email: str, context: dict[str, Any], *, player: Player | None = None
) -> OutboundMail:
    """A mail outside any game (to the moderators, or a player's digest of their games)."""
    return _once(
        key, message_id=new_message_id("notice"), kind=kind, to_email=to_email, context=context, player=player
    )


def _once(key: str, **fields: Any) -> OutboundMail:
    """The outbox row with this idempotency key, written and enqueued if it is new."""
    mail, created = OutboundMail.objects.get_or_create(key=key, defaults=fields)
    if created:
        enqueue_on_commit([mail])
    return mail


def enqueue_on_commit(rows: Sequence[OutboundMail]) -> None:
    """Hand the rows to the send task once the transaction commits (their ids are read then:
    a move's rows are written at its end).  If the broker is down, the rows stay pending: this
    process tries again a few times (``queues.publish``), and the sweep sends them later."""
    if not rows:
        return

    def enqueue() -> None:
        # what a player waits for (a move's answer, the first mover's invitation) ahead of the
        # bulk: at most one message to the broker per queue and transaction
        by_queue: dict[str, list[int]] = {}
        for row in rows:
            by_queue.setdefault(queues.queue_of(row.kind, row.context), []).append(row.pk)
        for queue, ids in sorted(by_queue.items(), key=lambda item: queues.ORDER.index(item[0])):
            queues.publish(send_mails, [ids], queue)

    transaction.on_commit(enqueue)
