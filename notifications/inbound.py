"""Mail in: three ways in (ESP webhook, MTA pipe, SMTP listener), one pipeline.

1. ``store(raw, via)`` keeps the raw message first, unique by Message-ID (a duplicate delivery
   is stored once and processed once), and enqueues its processing after commit.
2. ``process(pk)`` claims the row, parses it, finds the seat by the reply token in a
   recipient address, checks the sender is the seat's registered address, and applies the
   commands through ``games.services.submit`` — the events, the mails they cause, the answer
   to this mail and the row's new status commit together or not at all.

What is answered and what is not:

* no valid token, unreadable bytes, automatic mail (auto-replies, bounces): stored, never
  answered (answering strangers and robots makes spam and mail loops) — except a mail to the
  service address that is exactly ``join <league>``: the sender is signed up (a new address
  becomes a player) and answered, in or why not (``leagues.signup``);
* the right token from another address: nothing applied, the seat's registered address is
  told (never the sender);
* mail settings (``mail all``, ``bild aus``…, ``notifications.preferences``): stored with the
  rest of the mail, and answered with the settings as they now stand;
* commands that fail: nothing applied (a mail is atomic), the sender gets the failing line,
  why, and what is legal now; likewise a reply to a decision that is no longer current.
"""

from __future__ import annotations

import hashlib
import logging
import re
from collections.abc import Sequence
from email.parser import BytesHeaderParser
from email.policy import default as default_policy
from typing import Any

from django.db import transaction
from django.utils import timezone

from games import deadlines, services
from games.models import Event, Game, Seat
from games.rules import whitelotus as wl

from . import outbox, preferences, tokens
from .models import InboundMail, OutboundMail
from .parsing import MailParseError, ParsedMail, parse_message

log = logging.getLogger(__name__)

MAX_BYTES = 10 * 1024 * 1024  # larger messages are refused at the door (SMTP 552, pipe exit 1)
MAX_COMMAND_LINES = 30  # a mail with more is refused whole: nobody plays 30 moves at once
# status commands, in English, German and French
TOPICS = {
    "help": "help",
    "hilfe": "help",
    "aide": "help",
    "status": "status",
    "stand": "status",
    "etat": "status",
    "état": "status",
    "log": "log",
    "protokoll": "log",
    "journal": "log",
}
# time away, in English, German and French
AWAY = {
    "vacation": "vacation",
    "urlaub": "vacation",
    "vacances": "vacation",
    "back": "back",
    "zurück": "back",
    "zurueck": "back",
    "retour": "back",
}
_VACATION = re.compile(r"^\S+\s+(\d+(?:[.,]\d+)?)(?:\s+(?:days?|tage?n?|jours?|d))?\s*$", re.IGNORECASE)
# mails that put a new decision to a seat (a rollback puts the game back: older prompts are moot)
PROMPTS = ("invitation", "decision", "rolled_back")
# mails about one decision: a reply to one of them is checked against the newest prompt
ABOUT_A_DECISION = (*PROMPTS, "reminder")


def message_id_of(raw: bytes) -> str:
    """The Message-ID (without brackets), or a digest of the bytes when there is none."""
    try:
        headers = BytesHeaderParser(policy=default_policy).parsebytes(raw[:65536], headersonly=True)
        value = str(headers.get("Message-ID", "") or "").strip().strip("<>").strip()
    except Exception:  # any bytes at all may arrive; a bad header is no reason to lose them
        value = ""
    if value and len(value) <= 250 and " " not in value:
        return value
    return f"sha256-{hashlib.sha256(raw).hexdigest()}@no-message-id"


def store(
    raw: bytes, via: str, *, envelope_from: str = "", envelope_to: Sequence[str] = ()
) -> tuple[InboundMail, bool]:
    """Keep the raw message and enqueue its processing; ``(row, False)`` for a duplicate."""
    with transaction.atomic():
        mail, created = InboundMail.objects.get_or_create(
            message_id=message_id_of(raw),
            defaults={
                "raw": raw,
                "size": len(raw),
                "via": via,
                "envelope_from": envelope_from[:320],
                "envelope_to": "\n".join(envelope_to),
            },
        )
        if created:
            pk = mail.pk
            transaction.on_commit(lambda: _enqueue(pk))
    if not created:
        log.info("duplicate delivery of inbound mail %s ignored", mail.pk)
    return mail, created


def _enqueue(pk: int) -> None:
    from .tasks import process_inbound

    try:
        process_inbound.delay(pk)
    except Exception as error:  # broker down: the sweep processes rows left new
        log.warning("could not enqueue inbound mail %s (%s); the sweep will", pk, tokens.redact(str(error)))


def process(pk: int) -> str:
    """Process one stored mail if it is still new; returns its status."""
    with transaction.atomic():
        mail = InboundMail.objects.select_for_update(skip_locked=True).filter(pk=pk, status="new").first()
        if mail is None:
            return "not new"
        status, outcome = _process(mail)
        mail.status, mail.outcome, mail.processed_at = status, outcome[:4000], timezone.now()
        mail.save()
    log.info("inbound mail %s: %s", pk, status)
    return status


def _process(mail: InboundMail) -> tuple[str, str]:
    try:
        parsed = parse_message(bytes(mail.raw))
    except MailParseError as error:
        return InboundMail.Status.UNREADABLE, str(error)
    mail.from_address, mail.subject = parsed.from_address[:320], parsed.subject[:300]
    if parsed.auto_submitted:
        return InboundMail.Status.IGNORED, "automatic mail (auto-reply or bounce): not answered"
    recipients = [*parsed.recipients, *mail.envelope_to.split()]
    token = tokens.find(recipients)
    if token is None:
        if tokens.service_address().lower() in {r.lower() for r in recipients}:
            joined = _join(mail, parsed)
            if joined is not None:
                return joined
        return InboundMail.Status.UNKNOWN, "no valid reply token: stored, not answered"
    seat = token.seat
    game = seat.game
    mail.game, mail.seat = game, seat.position
    if parsed.from_address != seat.player.email.lower():
        outbox.answer(
            mail,
            "wrong_sender",
            seat.player.email,
            {"sender": parsed.from_address},
            game=game,
            seat=seat.position,
        )
        return InboundMail.Status.WRONG_SENDER, f"sent from {parsed.from_address}; the seat's player was told"
    return _commands(mail, parsed, game, seat)


def _join(mail: InboundMail, parsed: ParsedMail) -> tuple[str, str] | None:
    """A mail to the service address that is exactly ``join <league>``: sign the sender up
    (a new address becomes a player) and answer (leagues.signup); None for anything else."""
    from leagues import signup  # the leagues app builds on this one, not the other way round

    slug = signup.join_command(parsed.lines)
    if slug is None:
        return None
    result = signup.join_by_mail(parsed.from_address, parsed.from_name, slug)
    outbox.answer(mail, "welcome", parsed.from_address, result.context(), in_reply_to=parsed.message_id)
    status = InboundMail.Status.APPLIED if result.joined else InboundMail.Status.REFUSED
    return status, f"join {slug}: {result.message}"


def _commands(mail: InboundMail, parsed: ParsedMail, game: Game, seat: Seat) -> tuple[str, str]:
    def refuse(message: str, line: str = "") -> tuple[str, str]:
        context = {"failing_line": line, "message": message}
        outbox.answer(mail, "error", seat.player.email, context, **where)
        return InboundMail.Status.REFUSED, message

    where: dict[str, Any] = {"game": game, "seat": seat.position, "in_reply_to": parsed.message_id}
    lines = list(parsed.lines)
    if not lines:
        return refuse("I found no command in your mail. Write one command per line, above the quoted text.")
    if len(lines) > MAX_COMMAND_LINES:
        return refuse(
            f"Your mail has {len(lines)} command lines; I take at most {MAX_COMMAND_LINES} at once, "
            "so none was applied."
        )
    topics = [TOPICS[_word(line)] for line in lines if _word(line) in TOPICS]
    away = [line for line in lines if _word(line) in AWAY]
    wishes = [line for line in lines if preferences.is_setting(line)]
    moves = [
        line
        for line in lines
        if _word(line) not in TOPICS and _word(line) not in AWAY and not preferences.is_setting(line)
    ]
    settings: list[preferences.Setting] = []
    for line in wishes:
        try:
            settings.append(preferences.parse(line))
        except preferences.BadSetting as error:
            return refuse(str(error), line)
    if moves:
        stale = _outdated(game, seat.position, parsed)
        if stale:
            return refuse(stale)
    try:
        with transaction.atomic():  # the whole mail or nothing
            for setting in settings:  # first: "mail all" beside a move already holds for its mails
                preferences.apply(seat.player, game, setting)
            if moves:
                services.submit(
                    game,
                    seat.position,
                    "\n".join(moves),
                    source=Event.Source.MAIL,
                    inbound_message_id=parsed.message_id,
                )
            for line in away:
                _away(game, seat.position, line, parsed.message_id)
    except services.IllegalMove as error:
        return refuse(str(error).partition("\nWhat you can do now:")[0], error.line)
    except services.GameError as error:
        return refuse(str(error), away[0] if away and not moves else "")
    for topic in dict.fromkeys(topics):
        outbox.answer(mail, topic, seat.player.email, {"topic": topic}, **where)
    if settings:  # the answer confirms the setting as it now stands
        outbox.answer(mail, "preferences", seat.player.email, {"topic": "preferences"}, **where)
    if moves or away or settings:
        return InboundMail.Status.APPLIED, f"applied: {' | '.join(moves + away + wishes)}"
    return InboundMail.Status.ANSWERED, f"answered: {', '.join(topics)}"


def _word(line: str) -> str:
    return line.split()[0].lower()


def _away(game: Game, seat: int, line: str, message_id: str) -> None:
    """``vacation 5 days`` (``urlaub 5 tage``, ``vacances 5 jours``) or ``back``."""
    if AWAY[_word(line)] == "back":
        deadlines.end_vacation(game, seat, inbound_message_id=message_id)
        return
    match = _VACATION.match(line.strip())
    if match is None:
        raise services.IllegalMove("Write the days you will be away, e.g.: vacation 5 days", line=line)
    days = float(match.group(1).replace(",", "."))
    deadlines.start_vacation(game, seat, days, inbound_message_id=message_id)


def _outdated(game: Game, seat: int, parsed: ParsedMail) -> str:
    """Why a reply answers a decision that is no longer current ('' if it does not): the
    mail it answers (its In-Reply-To) asked for a decision, and the seat has been put a
    newer one since.  A reply to anything else (a sealed confirmation, a notice, an error
    answer) is taken as meant for the decision at hand."""
    answered = OutboundMail.objects.filter(
        game=game, seat=seat, message_id=parsed.in_reply_to, kind__in=ABOUT_A_DECISION
    ).first()
    if answered is None:
        return ""
    newer = OutboundMail.objects.filter(game=game, seat=seat, kind__in=PROMPTS, seq__gt=answered.seq).exists()
    if not newer:
        return ""
    state = services.head_state(game)
    waiting = any(d.seat == seat for d in wl.pending(state))
    now = "It is your move now: see the menu below." if waiting else "It is not your move now."
    return (
        f"Your mail answers an earlier decision (event #{answered.seq}); the game has moved on since. {now}"
    )
