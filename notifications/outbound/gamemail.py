"""The game mails: one context for every kind that speaks of a seat of a game (the decision
and its menu, the board, the news, the deadline, the scores, the settings, the picture),
rendered from what that seat may see at the row's event (``seatview``).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import datetime
from functools import cache
from typing import Any

from django.utils.translation import gettext

from games.models import Event, Game, PendingDecision
from games.presentation import gamewords, seatview, typography, words
from games.presentation.seatview import Seen
from games.rules import registry
from games.rules.base import Message, Rules
from games.services.links import game_page_url, seat_page_url
from notifications.models import OutboundMail
from notifications.outbound import gamefacts
from notifications.outbound import press as pressmail
from notifications.outbound.mailrender import Rendered, cleared_lines, local_time, render_template, short_time
from notifications.outbound.pictures import picture_cid, picture_for, shows_picture
from notifications.services import preferences
from notifications.services.tokens import reply_address, service_address

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


def game_mail(
    mail: OutboundMail,
    template: str,
    told: Callable[[OutboundMail, Game, Any, dict[str, str]], dict[str, Any]] | None = None,
) -> Rendered:
    """A mail about one seat of a game: ``template`` with everything that seat may see at the
    row's event; ``told`` adds what a kind tells of its own (a notice, table talk)."""
    assert mail.game is not None and mail.seat is not None
    game = mail.game
    log_topic = mail.kind == "log"
    seen, news = seatview.seen(
        game, mail.seat, mail.seq, max(mail.seq - LOG_EVENTS, 0) if log_topic else seatview.told_before(mail)
    )
    state, rules = seen.state, seen.rules
    language = mail.player.language if mail.player else "en"
    mine = next((d for d in rules.pending(state) if d.seat == mail.seat), None)
    owes = mine is not None
    menu = (
        rules.notation.describe(state, mail.seat, language) if owes and mail.kind not in WITHOUT_MENU else []
    )
    # the row's context names the decision it was written for; answers, takeovers and notices
    # may carry none, so the engine says what this seat must decide at the row's event
    decision_kind = mail.context.get("decision") or (mine.kind if mine else "")
    decision_text = (
        rules.presentation.decision_text(seen.view, decision_kind, gettext) if decision_kind else ""
    )
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
        # the board's lines are left as they are by the French typography (a ":" is a square)
        "board": typography.verbatim("\n".join(rules.text_board(seen.view, seen.names, gettext))),
        "hand": seen.view.get("hand"),
        # what the game's mails show of it: its name, and the partials of its board and hand
        # (``mail/<rules>/_board.*``; a game without its own shows the text board)
        "rules_name": rules.name,
        "game_title": words.game_name(rules),
        "board_txt": _partials(rules.name, "_board.txt"),
        "board_html": _partials(rules.name, "_board.html"),
        "sealed_text": words.sealed_choice(rules, seen.view.get("sealed") or {}),
        "news": seatview.recent(news),
        "menu": menu,
        "example": rules.notation.format_command(state, legal[0]) if legal else "",
        "decision_text": decision_text,
        "owes": owes,
        "situation": _situation(seen, owes, decision_text),
        "deadline": local_time(deadline),
        "deadline_short": short_time(deadline),
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
        "commands": [rules.notation.syntax(kind, language) for kind in rules.notation.SYNTAX],
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
            context[f"{key}_local"] = local_time(datetime.fromisoformat(mail.context[key]))
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
    return render_template(template, context)._replace(picture=picture)


def _refusal(context: dict[str, Any]) -> str:
    """The reason of a refusal in the language active now; a row written before reasons were
    kept as messages has its English ``message``."""
    reason = Message.from_data(context.get("refusal"))
    return reason.render(gettext) if reason is not None else str(context.get("message", ""))


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


def _keywords(rules: Rules, language: str) -> str:
    if language == "en":
        return ""
    return f"{rules.notation.words.keyword_hint(language)}\n{rules.notation.words.argument_hint(language)}"


@cache
def _partials(rules_name: str, part: str) -> tuple[str, ...]:
    """The template of a part of a game mail for a game (``mail/<rules>/<part>``) and the
    generic one it falls back to: ``{% include %}`` takes the first that exists."""
    if rules_name not in registry.names():  # a name from the database, never a path
        return (f"notifications/mail/{part}",)
    return (f"notifications/mail/{rules_name}/{part}", f"notifications/mail/{part}")
