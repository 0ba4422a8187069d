"""Every mail the service sends: one function per kind, three templates each
(``notifications/mail/<kind>-subject.txt``, ``-body.txt``, ``-body.html``).

A function takes an outbox row and returns ``(subject, text, html)`` in the recipient's
language and time zone.  Game mails are rendered from ``view(state, seat)`` at the event the
row speaks of — never from the raw state — so a mail can only show what its seat may see
(``gamemail``, from ``seatview``); the templates are rendered in ``mailrender``.
"""

from __future__ import annotations

import zoneinfo
from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.utils import timezone, translation
from django.utils.translation import gettext

from games import services
from games.models import Event, Game, PendingDecision, Player, Seat
from games.presentation import seatview, words
from games.rules.base import Message
from games.services.links import game_page_url, seat_page_url
from notifications.models import OutboundMail
from notifications.outbound import press as pressmail
from notifications.outbound.gamemail import game_mail
from notifications.outbound.mailrender import (
    Rendered,
    cleared_lines,
    game_name,
    local_time,
    render_template,
    short_far_time,
)
from notifications.outbound.moderation import actor_name
from notifications.outbound.moderation import context as moderation_context
from notifications.services import preferences
from notifications.services.tokens import service_address


def render(mail: OutboundMail) -> Rendered:
    """The mail in its recipient's language and time zone."""
    if mail.player is None and mail.game is not None and mail.seat is not None:
        # a row is written without its player (it goes to whoever holds the seat when it is
        # sent, see ``sending``): rendered before that, it is still that player's mail
        holder = mail.game.seats.select_related("player").filter(position=mail.seat).first()
        if holder is not None:
            mail.player = holder.player
    player = mail.player
    language = player.language if player else settings.LANGUAGE_CODE
    zone = _zone(player)
    with translation.override(language), timezone.override(zone):
        return KINDS[mail.kind](mail)


# --- game mails ---------------------------------------------------------------------------------


def invitation(mail: OutboundMail) -> Rendered:
    return game_mail(mail, "invitation")


def decision(mail: OutboundMail) -> Rendered:
    return game_mail(mail, "decision")


def sealed(mail: OutboundMail) -> Rendered:
    return game_mail(mail, "sealed")


def reveal(mail: OutboundMail) -> Rendered:
    return game_mail(mail, "reveal")


def year(mail: OutboundMail) -> Rendered:
    return game_mail(mail, "year")


def game_over(mail: OutboundMail) -> Rendered:
    return game_mail(mail, "game_over")


def moderation(mail: OutboundMail) -> Rendered:
    """Paused, resumed, rolled back, deadline extended, seat replaced: one notice kind, told
    in full (who acted, the new time controls, the undone moves: ``.moderation``)."""
    return game_mail(mail, "moderation", told=moderation_context)


def handed_over(mail: OutboundMail) -> Rendered:
    """To the player who lost a seat: handed over, by whom, when and why."""
    return render_template("handed_over", _handed_over_context(mail))


def seated(mail: OutboundMail) -> Rendered:
    """A new game's ready window opened: the seat, the table, the server's commitment (the
    seed's hash) and how to answer ``ready`` with some entropy of one's own, by when.  Nothing
    of the state: until the game starts, its draws are not made."""
    return render_template("seated", _ready_context(mail))


def ready(mail: OutboundMail) -> Rendered:
    """The answer to ``ready``: the contribution counted (and the start it completed), or
    why not."""
    context = _ready_context(mail)
    reason = Message.from_data(mail.context.get("refusal"))
    context["refusal"] = reason.render(gettext) if reason is not None else ""
    return render_template("ready", context)


READY_WORDS = {"en": "ready", "de": "bereit", "fr": "prêt"}


def _ready_context(mail: OutboundMail) -> dict[str, Any]:
    assert mail.game is not None and mail.seat is not None
    game = mail.game
    language = mail.player.language if mail.player else "en"
    seats = list(game.seats.select_related("player").order_by("position"))
    return {
        **mail.context,
        "mail": mail,
        "game": game,
        "player": mail.player,
        "title": game.name or gettext("Game %(id)s") % {"id": game.pk},
        "game_title": words.game_name(services.rules_of(game)),
        "edition": gettext(game.get_edition_display()),  # the catalogue says it in the reader's language
        "colour": words.colour(seats[mail.seat].colour),
        "seats": [
            {"colour": words.colour(s.colour), "name": s.player.name, "you": s.position == mail.seat}
            for s in seats
        ],
        "seed_hash": game.seed_hash,
        "ready_word": READY_WORDS.get(language, "ready"),
        "until": local_time(game.ready_until),
        "until_short": short_far_time(game.ready_until),
        "waiting": game.status == Game.Status.NEW and game.ready_until is not None,
        "game_page": game_page_url(game),
    }


def to_bot(mail: OutboundMail) -> Rendered:
    """To a seat's player: the bot plays their seat now, and how to take it back."""
    context = _handed_over_context(mail)
    event = mail.game.events.get(seq=mail.context["event"]) if mail.game is not None else None
    if event is not None and event.source != Event.Source.MODERATOR:
        context["moderator"] = ""  # the season's rule: the service did it, the reason says why
    return render_template("to_bot", context)


# --- answers to inbound mails ----------------------------------------------------------------


def former_seat(mail: OutboundMail) -> Rendered:
    """To a player who wrote to the old address of a seat handed over since: they no
    longer play it (from the service address; nothing of the seat's new holder)."""
    return render_template("former_seat", _handed_over_context(mail))


def error(mail: OutboundMail) -> Rendered:
    """A mail whose commands were refused: the failing line, why (said in the reader's
    language: the row keeps the reason as a message, see ``commands.apply``), and what is
    legal now."""
    return game_mail(mail, "error")


def answer(mail: OutboundMail) -> Rendered:
    """The answer to ``help``, ``status`` (the board and hand) or ``log`` (recent events)."""
    return game_mail(mail, "answer")


def press(mail: OutboundMail) -> Rendered:
    """Table talk to one of its addressees: who said what to whom, and how to answer."""
    return game_mail(mail, "press", told=pressmail.told)


def press_sent(mail: OutboundMail) -> Rendered:
    """To a sender whose mail held only table talk: it was passed on (``said_lines``)."""
    return game_mail(mail, "press_sent")


def wrong_sender(mail: OutboundMail) -> Rendered:
    """To a seat's registered address, when a mail with its token came from elsewhere."""
    return game_mail(mail, "wrong_sender")


def digest(mail: OutboundMail) -> Rendered:
    """Once a day, to a player who asked for it: the news of each game where they owe nothing
    (its parts say which games, and from which event to which)."""
    games = []
    for part in mail.digest_parts.select_related("game").order_by("game_id"):
        seen, news = seatview.seen(part.game, part.seat, part.seq, part.since)
        seat = part.game.seats.get(position=part.seat)
        games.append(
            {
                "title": part.game.name or gettext("Game %(id)s") % {"id": part.game.pk},
                "colour": words.colour(seen.colour),
                "news": seatview.recent(news),
                "seat_page": seat_page_url(seat) if mail.player_id == seat.player_id else "",
                "game_page": game_page_url(part.game),
            }
        )
    return render_template("digest", {"mail": mail, "player": mail.player, "games": games})


def bounce(mail: OutboundMail) -> Rendered:
    """To the moderators: a player's address bounced."""
    return render_template("bounce", {**mail.context, "mail": mail})


def defaulted(mail: OutboundMail) -> Rendered:
    """To the table: a deadline passed and the default move was played."""
    return game_mail(mail, "defaulted")


def reminder(mail: OutboundMail) -> Rendered:
    """Before a deadline: the decision is still open."""
    return game_mail(mail, "reminder")


def missed(mail: OutboundMail) -> Rendered:
    """To a player whose moves were played by default several times in a row."""
    return game_mail(mail, "missed")


def missed_moderators(mail: OutboundMail) -> Rendered:
    """To the moderators: a seat keeps missing its deadlines."""
    colour = words.colour(str(mail.context.get("colour", "")))
    return render_template("missed_moderators", {**mail.context, "colour": colour, "mail": mail})


def account(mail: OutboundMail) -> Rendered:
    """The answer to a registered player's mail to the service address (``account``): their
    settings for all games as they now stand and the games whose own setting was cleared,
    their games (``status``), what the address reads (``help``), their page (``link``), or
    why a line was not for this address."""
    player = mail.player
    language = player.language if player else "en"
    context: dict[str, Any] = {**mail.context, "mail": mail, "player": player}
    context["service_address"] = service_address()
    context["cleared_lines"] = cleared_lines(mail.context.get("cleared") or [], language)
    if player is not None and mail.context.get("settings"):
        context["prefs"] = preferences.of(player.pk, None)
        context["apart"] = [
            {"title": game_name(game), "lines": preferences.of(player.pk, game.pk).own_lines(language)}
            for game in Game.objects.filter(pk__in=preferences.set_apart(player)).order_by("pk")
        ]
    if player is not None and "status" in (mail.context.get("topics") or []):
        context["games"] = _players_games(player)
    return render_template("account", context)


def _players_games(player: Player) -> list[dict[str, Any]]:
    """The player's games not over yet: whether they owe a decision there and by when, and
    their seat's page."""
    seats = (
        Seat.objects.filter(player=player)
        .exclude(game__status=Game.Status.FINISHED)
        .select_related("game")
        .order_by("game_id")
    )
    owed = {
        (d.game_id, d.seat): d.deadline_at
        for d in PendingDecision.objects.owed().filter(game_id__in={s.game_id for s in seats})
    }
    return [
        {
            "title": game_name(seat.game),
            "colour": words.colour(seat.colour),
            "owes": (seat.game_id, seat.position) in owed,
            "deadline": local_time(owed.get((seat.game_id, seat.position))),
            "seat_page": seat_page_url(seat),
        }
        for seat in seats
    ]


def register_kind(kind: str, render: Callable[[OutboundMail], Rendered]) -> None:
    """Let an app built on mail render its own kind of mail (a league's standings and welcome),
    from its ``ready()``."""
    KINDS[kind] = render


KINDS: dict[str, Callable[[OutboundMail], Rendered]] = {
    "seated": seated,
    "ready": ready,
    "invitation": invitation,
    "decision": decision,
    "sealed": sealed,
    "reveal": reveal,
    "year": year,
    "game_over": game_over,
    "paused": moderation,
    "resumed": moderation,
    "rolled_back": moderation,
    "deadline_extended": moderation,
    "seat_replaced": moderation,
    "vacation": moderation,
    "back": moderation,
    "time_controls": moderation,
    "defaulted": defaulted,
    "reminder": reminder,
    "missed": missed,
    "missed_moderators": missed_moderators,
    "error": error,
    "help": answer,
    "status": answer,
    "log": answer,
    "preferences": answer,
    "digest": digest,
    "wrong_sender": wrong_sender,
    "press": press,
    "press_sent": press_sent,
    "handed_over": handed_over,
    "to_bot": to_bot,
    "bot_seated": moderation,
    "bot_unseated": moderation,
    "former_seat": former_seat,
    "bounce": bounce,
    "account": account,
}


# --- building blocks ------------------------------------------------------------------------------


def _zone(player: Player | None) -> zoneinfo.ZoneInfo:
    try:
        return zoneinfo.ZoneInfo(player.time_zone if player else "UTC")
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):
        return zoneinfo.ZoneInfo("UTC")


def _handed_over_context(mail: OutboundMail) -> dict[str, Any]:
    """The hand-over a mail to a seat's former player speaks of (the ``seat_replaced``
    event), with nothing of the seat's state or its new holder."""
    assert mail.game is not None
    game = mail.game
    event = game.events.select_related("actor").get(seq=mail.context["event"])
    return {
        "mail": mail,
        "player": mail.player,
        "title": game.name or gettext("Game %(id)s") % {"id": game.pk},
        "colour": words.colour(event.payload.get("colour", "")),
        "moderator": actor_name(event.actor),
        "reason": event.reason,
        "when": local_time(event.created_at),
        "game_page": game_page_url(game),
    }
