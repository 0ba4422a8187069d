"""Every mail the service sends: one function per kind, three templates each
(``notifications/mail/<kind>-subject.txt``, ``-body.txt``, ``-body.html``).

A function takes an outbox row and returns ``(subject, text, html)`` in the recipient's
language and time zone.  Game mails are rendered from ``view(state, seat)`` at the event the
row speaks of — never from the raw state — so a mail can only show what its seat may see.
"""

from __future__ import annotations

import re
import zoneinfo
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta
from functools import cache
from typing import Any, NamedTuple

from django.conf import settings
from django.db import connection
from django.template import Context
from django.template.loader import get_template, render_to_string
from django.utils import dateformat, timezone, translation
from django.utils.translation import gettext, ngettext, pgettext

from games import pages, services, timefmt
from games.links import game_page_url, player_page_url, seat_page_url
from games.models import Event, Game, PendingDecision, Player, Seat
from games.projections import narration
from games.rules import registry
from games.rules.base import GameRules, Message
from games.templatetags import gamewords

from . import gamefacts, plaintext, preferences, pressmail, typography, words
from .models import DigestPart, OutboundMail
from .moderation import actor_name
from .moderation import context as moderation_context
from .pictures import picture_cid, picture_for, shows_picture
from .tokens import reply_address, service_address


class Rendered(NamedTuple):
    subject: str
    text: str
    html: str
    picture: bytes = b""  # the board as PNG, for the mails that show it


# kinds that never carry the menu (their templates leave it out): a seat that must decide is
# told its decision in a sentence instead, as a seat that need not is told whose move it is
WITHOUT_MENU = frozenset(
    {
        "sealed",
        "game_over",
        "wrong_sender",
        "paused",
        "seat_replaced",
        "vacation",
        "time_controls",
        "press",
        "press_sent",
        "bot_seated",
    }
)
LOG_EVENTS = 30  # how far back ``log`` looks
TO_THE_POINT = ("error", "preferences", "press", "press_sent")  # mails that tell no news
NEWS_KINDS = (
    "invitation",
    "decision",
    "sealed",
    "year",
    "reveal",
    "game_over",
    "rolled_back",
    "defaulted",
)


@dataclass
class Seen:
    """What one seat may know at one event, ready for the templates."""

    state: Any  # the game's engine state (its rules: ``rules``)
    view: dict[str, Any]
    colour: str
    names: dict[str, str]
    rules: GameRules
    colours: dict[int, str]  # each seat's colour, by position
    seat: int
    holder: Seat | None = None  # the seat's row, with its player (read with the others)


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
    return _game_mail(mail, "invitation")


def decision(mail: OutboundMail) -> Rendered:
    return _game_mail(mail, "decision")


def sealed(mail: OutboundMail) -> Rendered:
    return _game_mail(mail, "sealed")


def reveal(mail: OutboundMail) -> Rendered:
    return _game_mail(mail, "reveal")


def year(mail: OutboundMail) -> Rendered:
    return _game_mail(mail, "year")


def game_over(mail: OutboundMail) -> Rendered:
    return _game_mail(mail, "game_over")


def moderation(mail: OutboundMail) -> Rendered:
    """Paused, resumed, rolled back, deadline extended, seat replaced: one notice kind, told
    in full (who acted, the new time controls, the undone moves: ``.moderation``)."""
    return _game_mail(mail, "moderation", told=moderation_context)


def handed_over(mail: OutboundMail) -> Rendered:
    """To the player who lost a seat: handed over, by whom, when and why."""
    return _render("handed_over", _handed_over_context(mail))


def seated(mail: OutboundMail) -> Rendered:
    """A new game's ready window opened: the seat, the table, the server's commitment (the
    seed's hash) and how to answer ``ready`` with some entropy of one's own, by when.  Nothing
    of the state: until the game starts, its draws are not made."""
    return _render("seated", _ready_context(mail))


def ready(mail: OutboundMail) -> Rendered:
    """The answer to ``ready``: the contribution counted (and the start it completed), or
    why not."""
    context = _ready_context(mail)
    reason = Message.from_data(mail.context.get("refusal"))
    context["refusal"] = reason.render(gettext) if reason is not None else ""
    return _render("ready", context)


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
        "game_title": game_title(services.rules_of(game)),
        "edition": gettext(game.get_edition_display()),  # the catalogue says it in the reader's language
        "colour": words.colour(seats[mail.seat].colour),
        "seats": [
            {"colour": words.colour(s.colour), "name": s.player.name, "you": s.position == mail.seat}
            for s in seats
        ],
        "seed_hash": game.seed_hash,
        "ready_word": READY_WORDS.get(language, "ready"),
        "until": _local(game.ready_until),
        "until_short": _short_far(game.ready_until),
        "waiting": game.status == Game.Status.NEW and game.ready_until is not None,
        "game_page": game_page_url(game),
    }


def to_bot(mail: OutboundMail) -> Rendered:
    """To a seat's player: the bot plays their seat now, and how to take it back."""
    context = _handed_over_context(mail)
    event = mail.game.events.get(seq=mail.context["event"]) if mail.game is not None else None
    if event is not None and event.source != Event.Source.MODERATOR:
        context["moderator"] = ""  # the season's rule: the service did it, the reason says why
    return _render("to_bot", context)


# --- answers to inbound mails ----------------------------------------------------------------


def former_seat(mail: OutboundMail) -> Rendered:
    """To a player who wrote to the old address of a seat handed over since: they no
    longer play it (from the service address; nothing of the seat's new holder)."""
    return _render("former_seat", _handed_over_context(mail))


def error(mail: OutboundMail) -> Rendered:
    """A mail whose commands were refused: the failing line, why (said in the reader's
    language: the row keeps the reason as a message, see ``commands.apply``), and what is
    legal now."""
    return _game_mail(mail, "error")


def _refusal(context: dict[str, Any]) -> str:
    """The reason of a refusal in the language active now; a row written before reasons were
    kept as messages has its English ``message``."""
    reason = Message.from_data(context.get("refusal"))
    return reason.render(gettext) if reason is not None else str(context.get("message", ""))


def answer(mail: OutboundMail) -> Rendered:
    """The answer to ``help``, ``status`` (the board and hand) or ``log`` (recent events)."""
    return _game_mail(mail, "answer")


def press(mail: OutboundMail) -> Rendered:
    """Table talk to one of its addressees: who said what to whom, and how to answer."""
    return _game_mail(mail, "press", told=pressmail.told)


def press_sent(mail: OutboundMail) -> Rendered:
    """To a sender whose mail held only table talk: it was passed on (``said_lines``)."""
    return _game_mail(mail, "press_sent")


def wrong_sender(mail: OutboundMail) -> Rendered:
    """To a seat's registered address, when a mail with its token came from elsewhere."""
    return _game_mail(mail, "wrong_sender")


def digest(mail: OutboundMail) -> Rendered:
    """Once a day, to a player who asked for it: the news of each game where they owe nothing
    (its parts say which games, and from which event to which)."""
    games = []
    for part in mail.digest_parts.select_related("game").order_by("game_id"):
        seen, news = _seen(part.game, part.seat, part.seq, part.since)
        seat = part.game.seats.get(position=part.seat)
        games.append(
            {
                "title": part.game.name or gettext("Game %(id)s") % {"id": part.game.pk},
                "colour": words.colour(seen.colour),
                "news": _recent(news),
                "seat_page": seat_page_url(seat) if mail.player_id == seat.player_id else "",
                "game_page": game_page_url(part.game),
            }
        )
    return _render("digest", {"mail": mail, "player": mail.player, "games": games})


def bounce(mail: OutboundMail) -> Rendered:
    """To the moderators: a player's address bounced."""
    return _render("bounce", {**mail.context, "mail": mail})


def defaulted(mail: OutboundMail) -> Rendered:
    """To the table: a deadline passed and the default move was played."""
    return _game_mail(mail, "defaulted")


def reminder(mail: OutboundMail) -> Rendered:
    """Before a deadline: the decision is still open."""
    return _game_mail(mail, "reminder")


def missed(mail: OutboundMail) -> Rendered:
    """To a player whose moves were played by default several times in a row."""
    return _game_mail(mail, "missed")


def missed_moderators(mail: OutboundMail) -> Rendered:
    """To the moderators: a seat keeps missing its deadlines."""
    colour = words.colour(str(mail.context.get("colour", "")))
    return _render("missed_moderators", {**mail.context, "colour": colour, "mail": mail})


def standings(mail: OutboundMail) -> Rendered:
    """To each player of a league game that ended: the season's standings after it."""
    from leagues.mail import standings_context  # leagues builds on this app, not the reverse

    return _render("standings", {**standings_context(mail), "mail": mail})


def welcome(mail: OutboundMail) -> Rendered:
    """The answer to ``join <league>``: in, or why not and which leagues are open.  The row
    has no seat, so its language is that of the player with the address (if any)."""
    from leagues.mail import welcome_context

    reader = mail.player or Player.objects.filter(email__iexact=mail.to_email).first()
    with translation.override(reader.language if reader else settings.LANGUAGE_CODE):
        return _render("welcome", {**welcome_context(mail), "mail": mail, "player": reader})


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
            {"title": _game_name(game), "lines": preferences.of(player.pk, game.pk).own_lines(language)}
            for game in Game.objects.filter(pk__in=preferences.set_apart(player)).order_by("pk")
        ]
    if player is not None and "status" in (mail.context.get("topics") or []):
        context["games"] = _players_games(player)
    return _render("account", context)


def cleared_lines(cleared: list[dict[str, Any]], language: str) -> list[dict[str, str]]:
    """The games whose own setting a setting for all games cleared, each with the line that
    sets it apart again (``mail digest here``), in the reader's language."""
    names = {g.pk: _game_name(g) for g in Game.objects.filter(pk__in={c.get("game") for c in cleared})}
    out = []
    for item in cleared:
        if item.get("game") not in names:
            continue
        if "mode" in item:
            line = preferences.line(language, mode=str(item["mode"]), here=True)
        else:
            line = preferences.line(language, picture=bool(item.get("picture")), here=True)
        out.append({"title": names[item["game"]], "line": line})
    return out


def _game_name(game: Game) -> str:
    return game.name or gettext("Game %(id)s") % {"id": game.pk}


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
            "title": _game_name(seat.game),
            "colour": words.colour(seat.colour),
            "owes": (seat.game_id, seat.position) in owed,
            "deadline": _local(owed.get((seat.game_id, seat.position))),
            "seat_page": seat_page_url(seat),
        }
        for seat in seats
    ]


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
    "standings": standings,
    "welcome": welcome,
    "account": account,
}


# --- building blocks ------------------------------------------------------------------------------


def _zone(player: Player | None) -> zoneinfo.ZoneInfo:
    try:
        return zoneinfo.ZoneInfo(player.time_zone if player else "UTC")
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):
        return zoneinfo.ZoneInfo("UTC")


def _game_mail(
    mail: OutboundMail,
    template: str,
    told: Callable[[OutboundMail, Game, Any, dict[str, str]], dict[str, Any]] | None = None,
) -> Rendered:
    assert mail.game is not None and mail.seat is not None
    game = mail.game
    log_topic = mail.kind == "log"
    seen, news = _seen(
        game, mail.seat, mail.seq, max(mail.seq - LOG_EVENTS, 0) if log_topic else _since(mail)
    )
    state, rules = seen.state, seen.rules
    language = mail.player.language if mail.player else "en"
    mine = next((d for d in rules.pending(state) if d.seat == mail.seat), None)
    owes = mine is not None
    menu = rules.describe(state, mail.seat, language) if owes and mail.kind not in WITHOUT_MENU else []
    # the row's context names the decision it was written for; answers, takeovers and notices
    # may carry none, so the engine says what this seat must decide at the row's event
    decision_kind = mail.context.get("decision") or (mine.kind if mine else "")
    decision_text = rules.decision_text(seen.view, decision_kind, gettext) if decision_kind else ""
    legal = rules.legal(state, mail.seat)
    owed = PendingDecision.objects.owed().filter(game=game, seat=mail.seat, since_seq__lte=mail.seq).first()
    deadline = owed.deadline_at if owed is not None else None
    seat = seen.holder if seen.holder is not None else game.seats.get(position=mail.seat)
    context = {
        **mail.context,
        "mail": mail,
        "game": game,
        "title": game.name or gettext("Game %(id)s") % {"id": game.pk},
        "player": mail.player,
        "colour": words.colour(seen.colour),
        "view": seen.view,
        "board": "\n".join(rules.text_board(seen.view, seen.names, gettext)),
        "hand": seen.view.get("hand"),
        # what the game's mails show of it: its name, and the partials of its board and hand
        # (``mail/<rules>/_board.*``; a game without its own shows the text board)
        "rules_name": rules.name,
        "game_title": game_title(rules),
        "board_txt": _partials(rules.name, "_board.txt"),
        "board_html": _partials(rules.name, "_board.html"),
        "sealed_text": words.sealed_choice(rules, seen.view.get("sealed") or {}),
        "news": _recent(news),
        "menu": menu,
        "example": rules.format_command(state, legal[0]) if legal else "",
        "decision_text": decision_text,
        "owes": owes,
        "situation": _situation(seen, owes, decision_text),
        "deadline": _local(deadline),
        "deadline_short": _short(deadline),
        # paused, or a player away: the deadline will move, so the mail must not promise it
        "clock_stopped": game.clock_stopped_at is not None and game.status != Game.Status.FINISHED,
        "year": seen.view.get("year"),
        "phase": seen.view.get("phase"),
        "example_local": (
            rules.format_command_in(state, legal[0], language) if legal and language != "en" else ""
        ),
        "keywords": _keywords(rules, language) if mail.kind == "help" else "",
        "reply_to": reply_address(seat),
        # the link opens the page of the seat's holder NOW: an answer written for a player who
        # has since lost the seat goes to their address, and must not carry their successor's key
        "seat_page": seat_page_url(seat) if mail.player_id in (None, seat.player_id) else "",
        "game_page": game_page_url(game),
        "service_address": service_address(),
        "scores": _scores(seen),
        "commands": [rules.syntax(kind, language) for kind in rules.SYNTAX],
        "log_lines": news if log_topic else [],
    }
    context["sealed_decision"] = bool(mine is not None and mine.sealed)
    outcome = rules.outcome(state)
    context.update(
        gamefacts.facts(
            gamefacts.Asked(
                rules,
                state,
                seen.view,
                mail.seat,
                mine.kind if mine else "",
                legal,
                language,
                seen.names,
                outcome,
            )
        )
    )
    if outcome is not None:  # the seed the view shows at the end, else the game's own
        context["seed"] = seen.view.get("seed") or _created_seed(game)
    about = mail.context.get("about")
    context["about_colour"] = words.colour(seen.colours[about]) if isinstance(about, int) else ""
    context["about_me"] = about == mail.seat
    for key in ("until", "deadline_at"):
        if isinstance(mail.context.get(key), str):
            context[f"{key}_local"] = _local(datetime.fromisoformat(mail.context[key]))
    if told is not None:
        context.update(told(mail, game, state, seen.names))
    if mail.context.get("said"):
        context["said_lines"] = pressmail.said_lines(game, mail.context["said"])
    context["place"] = _place(seen)
    if log_topic or mail.kind in TO_THE_POINT:  # an answer keeps to its point; news waits for the next mail
        context["news"] = []
    if mail.kind == "error":
        context["message"] = _refusal(mail.context)  # in the reader's language
    context["reason_short"] = _short_reason(str(context.get("message", "")))
    # a notice while the game waits for its seats' ready: its state is set up from the
    # server's seed alone, which nobody may see before the start (``outbox.plan``)
    waiting = bool(mail.context.get("waiting"))
    if waiting:
        context.update(
            board_txt="notifications/mail/_no_board.txt",
            board_html="notifications/mail/_no_board.html",
            hand=None,
            menu=[],
            situation="",
            scores=[],
            news=[],
        )
    wants_picture = shows_picture(mail) and not waiting
    # the player's settings: read once, and only by the mails that tell them or may show the board
    settings = (
        preferences.of(mail.player.pk, game.pk)
        if mail.player is not None and (wants_picture or mail.kind in ("preferences", "invitation"))
        else None
    )
    if mail.kind in ("preferences", "invitation") and settings is not None:
        context["settings"] = settings
        context["own_lines"] = settings.own_lines(language)
        context["cleared_lines"] = cleared_lines(mail.context.get("cleared") or [], language)
    picture = b""
    if wants_picture and (settings is None or settings.picture):
        # b"": the seat's last picture shows this very map (then it is not even rasterised)
        picture = picture_for(mail, game, language, state, seen.names)
        if picture:
            context["picture_cid"] = picture_cid(mail)
    return _render(template, context)._replace(picture=picture)


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
        "when": _local(event.created_at),
        "game_page": game_page_url(game),
    }


def _since(mail: OutboundMail) -> int:
    assert mail.game is not None and mail.seat is not None
    return _since_seq(mail.game, mail.seat, mail.seq)


def _since_seq(game: Game, seat: int, seq: int) -> int:
    """The event of the seat's previous mail that told the news (0: none before), a digest's
    part about this game included.  Only mails that go out count: a mail a player's
    preferences held back was never written, and one that failed (a bounced address, given
    up) never arrived, so their news is told again."""
    # one statement: every mail reads it (the ORM compiled two querysets for it)
    kinds = ", ".join("%s" for _ in NEWS_KINDS)
    failed = OutboundMail.Status.FAILED
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT MAX(seq) FROM (SELECT m.seq FROM {_MAILS} m WHERE m.game_id = %s "
            f"AND m.seat = %s AND m.seq < %s AND m.kind IN ({kinds}) AND m.status <> %s "
            f"UNION ALL SELECT p.seq FROM {_PARTS} p JOIN {_MAILS} d ON d.id = p.mail_id "
            "WHERE p.game_id = %s AND p.seat = %s AND p.seq < %s AND d.status <> %s) told",
            [game.pk, seat, seq, *NEWS_KINDS, failed, game.pk, seat, seq, failed],
        )
        row = cursor.fetchone()
    return int(row[0]) if row and row[0] is not None else 0


_MAILS = OutboundMail._meta.db_table
_PARTS = DigestPart._meta.db_table


def told_up_to(game: Game, seat: int, seq: int) -> int:
    """The last event (up to ``seq``) whose news the seat has been told."""
    return _since_seq(game, seat, seq + 1)


def has_news(game: Game, seat: int, seq: int, since: int) -> bool:
    """Is there anything the seat may see after event ``since``, up to event ``seq``?"""
    return since < seq and bool(_seen(game, seat, seq, since)[1])


def _seen(game: Game, seat: int, seq: int, since: int) -> tuple[Seen, list[str]]:
    """The view of ``seat`` after event ``seq`` and the news it has not been told: what was
    told of the moves after event ``since`` that this seat may see.  Both are read, not
    replayed: the news from the narration projection (``games.projections.narration``), the
    state from the service's cache of heads or the latest snapshot."""
    rules = services.rules_of(game)
    holders = list(game.seats.select_related("player"))
    colours = {s.position: s.colour for s in holders}
    state = services.state_after(game, seq)
    news = narration.news(game, seat, since, seq)
    # a seat the bot plays is named so wherever seats are named ("Anna (bot)")
    names = {
        s.colour: gettext("%(name)s (bot)") % {"name": s.player.name} if s.bot_since else s.player.name
        for s in holders
    }
    view = pages.with_commitment(game, rules.view(state, seat))  # the server seed's, at the end
    holder = next((s for s in holders if s.position == seat), None)
    return Seen(state, view, colours[seat], names, rules, colours, seat, holder), news


NEWS_MOST = 60  # lines of news in one mail; the whole game is on its page and in its replay


def _recent(news: list[str]) -> list[str]:
    """The last :data:`NEWS_MOST` lines of ``news``, after a line saying how many earlier ones
    are left out: a player back from a bot's or a long vacation's spell is not mailed the whole
    game line by line."""
    if len(news) <= NEWS_MOST:
        return news
    left_out = len(news) - NEWS_MOST
    first = ngettext(
        "(%(count)d earlier line is left out: the game's page and its replay have all of it.)",
        "(%(count)d earlier lines are left out: the game's page and its replay have all of them.)",
        left_out,
    ) % {"count": left_out}
    return [first, *news[-NEWS_MOST:]]


def _default_news(rules: Any, before: Any, event: Event, colours: dict[int, str], seat: int) -> str:
    """A default played for ``event.seat``, told to ``seat`` (what the narration projection
    keeps of it, said in the active language)."""
    assert event.seat is not None  # a move's event names its seat
    lines = narration.default_lines(rules, before, event, colours[event.seat])
    return " ".join(m.render(gettext) for m in narration.messages(lines, seat))


def _created_seed(game: Game) -> str:
    """The seed the game was created with (revealed once it is over)."""
    created = game.events.filter(kind=Event.Kind.CREATED).values_list("payload", flat=True).first() or {}
    return str(created.get("seed", ""))


def _situation(seen: Seen, owes: bool, decision_text: str) -> str:
    """The seat's situation in one sentence: its decision, or whose move it is."""
    sealed = any(d.seat == seen.seat and d.sealed for d in seen.rules.pending(seen.state))
    if owes and decision_text and sealed:
        # every seat that owes one answers at once: not "your move", unless the game says so
        own = gamewords.own_phrase(seen.rules.name, "sealed_situation")
        values = {"colour": words.colour(seen.colour), "decision_text": decision_text}
        if own is not None:
            return gamewords.say(own, values)
        return gettext("Your sealed answer is asked (%(colour)s): %(decision_text)s.") % values
    if owes and decision_text:
        return gettext("It is your move (%(colour)s): %(decision_text)s.") % {
            "colour": words.colour(seen.colour),
            "decision_text": decision_text,
        }
    return words.waiting(seen.view, seen.names, seen.rules)


def _place(seen: Seen) -> str:
    """The seat's final place ("2nd", "3rd (tied)"), once the game is over (the game's
    ``Outcome``: ``rank`` by seat)."""
    outcome = seen.rules.outcome(seen.state)
    if outcome is None:
        return ""
    rank = outcome.rank[seen.seat]
    place = words.place(rank)
    if list(outcome.rank).count(rank) > 1:
        return gettext("%(place)s (tied)") % {"place": place}
    return place


SHORT_REASON = 48  # characters of a refusal's reason in a subject


def _short_reason(message: str) -> str:
    """The gist of a refusal for its subject: its first clause ("You cannot bid 99")."""
    first = re.split(r"[:;.]\s|\n", message.strip(), maxsplit=1)[0].strip().rstrip(".:;")
    if len(first) <= SHORT_REASON:
        return first
    return first[: SHORT_REASON - 1].rsplit(" ", 1)[0] + "…"


def _scores(seen: Seen) -> list[dict[str, Any]]:
    """The final scores, best first (ties in seat order), from the game's ``Outcome``."""
    outcome = seen.rules.outcome(seen.state)
    if outcome is None:
        return []
    order = sorted(range(len(outcome.rank)), key=lambda s: (outcome.rank[s], s))
    return [
        {
            "rank": outcome.rank[s],
            "colour": words.colour(seen.colours[s]),
            "name": seen.names.get(seen.colours[s], ""),
            "breakdown": words.score_parts(dict(outcome.breakdown[s]), seen.rules),
            "total": outcome.breakdown[s].get("total", outcome.scores[s]),
        }
        for s in order
    ]


def _keywords(rules: GameRules, language: str) -> str:
    if language == "en":
        return ""
    return f"{rules.words.keyword_hint(language)}\n{rules.words.argument_hint(language)}"


@cache
def _partials(rules_name: str, part: str) -> tuple[str, ...]:
    """The template of a part of a game mail for a game (``mail/<rules>/<part>``) and the
    generic one it falls back to: ``{% include %}`` takes the first that exists."""
    if rules_name not in registry.names():  # a name from the database, never a path
        return (f"notifications/mail/{part}",)
    return (f"notifications/mail/{rules_name}/{part}", f"notifications/mail/{part}")


def _local(moment: datetime | None) -> str:
    """A moment as the reader's pages write it (``games.timefmt``: "25.11.2026, 10:00 MEZ")."""
    if moment is None:
        return ""
    return timefmt.reader_time(moment)


def _short(moment: datetime | None) -> str:
    """A deadline for a subject line: weekday and time ("Wed 18:00"); reminders come in the
    last day or two before it, so the week is clear."""
    if moment is None:
        return ""
    return dateformat.format(timezone.localtime(moment), "D H:i")


def _short_far(moment: datetime | None) -> str:
    """A moment for a subject line that may be more than a week off (the end of a ready
    window): weekday and time within six days, else with its date too ("Wed 2026-12-02 18:00")."""
    if moment is None or moment - timezone.now() <= timedelta(days=6):
        return _short(moment)
    return dateformat.format(timezone.localtime(moment), "D Y-m-d H:i")


def game_title(rules: GameRules) -> str:
    """The game's name in the reader's language, the one its mails' footers say ("Der weiße
    Lotus"): one name per game and language in every mail (a title the catalogue does not
    know, such as "Die Verbotene Stadt", stays as it is)."""
    return pgettext("game title", rules.title)


def _plain(name: str, context: dict[str, Any]) -> str:
    """A template rendered without HTML escaping: a subject line is plain text, and a game
    or league named "Tom & Jerry's" must not reach the inbox as "Tom &amp; Jerry&#x27;s"."""
    template = get_template(name).template  # type: ignore[attr-defined]
    return str(template.render(Context(context, autoescape=False)))


def _render(template: str, context: dict[str, Any]) -> Rendered:
    base = f"notifications/mail/{template}"
    reader = context.get("player")
    if isinstance(reader, Player):
        # every mail to a player ends with the link to their own page (``_player_page.*``);
        # the moderators' mails have no player, and no such link
        context = {**context, "player_page": player_page_url(reader)}
    subject = " ".join(_plain(f"{base}-subject.txt", context).split())
    text: str = render_to_string(f"{base}-body.txt", context)
    html: str = render_to_string(f"{base}-body.html", context)
    if typography.is_french():
        subject = typography.french_typography(subject)
        text = typography.french_typography(text)
        html = typography.french_typography_html(html)
    return Rendered(subject, plaintext.wrap(text), html)
