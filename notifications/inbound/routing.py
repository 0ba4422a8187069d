"""Mail in: three ways in (ESP webhook, MTA pipe, SMTP listener), one pipeline.

1. ``store(raw, via)`` keeps the raw message first, once per envelope recipient in the reply
   domain (once when there is none), unique by Message-ID and recipient (a duplicate
   delivery is stored once and processed once; a mail to two games' reply addresses is one
   row, and one move, per address), and enqueues its processing after commit.
2. ``process(pk)`` claims the row, parses it, finds the seat by the reply token in the
   envelope recipient the row was delivered to (the headers' addresses only when the
   transport named none in the reply domain), checks the sender is the seat's registered
   address, and applies the commands through ``games.services.submit`` (``commands``) — the
   events, the mails they cause, the answer to this mail and the row's new status commit
   together or not at all.

What is answered and what is not:

* no valid token, unreadable bytes, automatic mail (auto-replies, bounces, anything from the
  null envelope sender ``MAIL FROM:<>``): stored, never answered (answering strangers and
  robots makes spam and mail loops) — except a mail to the service address that a handler
  registered by an app built on mail takes as its own (the leagues' ``join <league>``, perhaps
  with prose around it: the sender is signed up and answered, in or why not);
* the right token from another address: nothing applied, the seat's registered address is
  told (never the sender);
* a reply to the old address of a seat that was handed over, from its former player:
  nothing applied, they are told (from the service address) that they no longer play it;
  if the seat has come back to them, the mail is taken as sent to its live address;
* mail settings (``mail all``, ``bild aus``…, ``notifications.services.preferences``): stored with the
  rest of the mail, and answered with the settings as they now stand;
* a reply to a game that has not started: its ``ready`` counted, or why not (``readiness``);
* commands that fail: nothing applied (a mail is atomic), the sender gets the failing line,
  why, and what is legal now; likewise a reply to a decision that is no longer current.
"""

from __future__ import annotations

import hashlib
import logging
import re
from collections.abc import Callable, Sequence
from email.parser import BytesHeaderParser
from email.policy import default as default_policy
from email.utils import parseaddr
from typing import Any, BinaryIO

from celery import shared_task
from django.conf import settings
from django.db import transaction
from django.utils import timezone

from games.models import Event, Game, Player
from notifications.inbound import account, commands, readiness
from notifications.inbound.parsing import MailParseError, ParsedMail, parse_message
from notifications.models import InboundMail
from notifications.outbound import outbox, queues
from notifications.services import tokens

log = logging.getLogger(__name__)

MAX_BYTES = 10 * 1024 * 1024  # larger messages are refused at the door (SMTP 552, pipe exit 1)


# What an app built on mail answers at the service address before it is read as a player's
# account mail (a league's ``join``): each takes the stored mail and its parsed form and returns
# (status, note) when the mail is its own, else None.  Registered in the app's ``ready()``.
ServiceHandler = Callable[[InboundMail, ParsedMail], "tuple[str, str] | None"]
SERVICE_HANDLERS: list[ServiceHandler] = []


def register_service_handler(handler: ServiceHandler) -> None:
    """Let ``handler`` answer mail to the service address (once per handler)."""
    if handler not in SERVICE_HANDLERS:
        SERVICE_HANDLERS.append(handler)


def message_id_of(raw: bytes) -> str:
    """The Message-ID (without brackets), or a digest of the mail when there is none.

    The digest leaves out the trace headers relays add on the way (``TRACE_HEADERS``) and the
    line endings, so a copy retried by a relay, or delivered once more through another hop,
    is known as the same mail."""
    try:
        headers = BytesHeaderParser(policy=default_policy).parsebytes(raw[:65536], headersonly=True)
        value = str(headers.get("Message-ID", "") or "").strip().strip("<>").strip()
    except Exception:  # any bytes at all may arrive; a bad header is no reason to lose them
        value = ""
    if value and len(value) <= 250 and " " not in value:
        return value
    return f"sha256-{_digest_without_trace(raw)}@no-message-id"


# header fields added in transit (RFC 5321 trace fields, delivery and authentication results,
# signatures of the hops): not part of what the sender wrote
TRACE_HEADERS = frozenset(
    {
        "received",
        "return-path",
        "delivered-to",
        "x-original-to",
        "envelope-to",
        "x-envelope-from",
        "x-envelope-to",
        "dkim-signature",
        "x-google-dkim-signature",
        "domainkey-signature",
        "authentication-results",
        "received-spf",
        "x-received",
        "x-originating-ip",
    }
)
TRACE_PREFIXES = ("arc-", "x-ms-exchange-", "x-spam", "x-virus", "x-forwarded-", "x-gm-", "x-google-")
_FIELD_START = re.compile(rb"\n(?![ \t])")


def _digest_without_trace(raw: bytes) -> str:
    text = raw.replace(b"\r\n", b"\n")
    head, blank, body = text.partition(b"\n\n")
    if not blank:
        head, body = text, b""
    digest = hashlib.sha256()
    for field in _FIELD_START.split(head):
        name = field.partition(b":")[0].strip().lower().decode("latin-1")
        if field.startswith(b"From ") or name in TRACE_HEADERS or name.startswith(TRACE_PREFIXES):
            continue  # an mbox separator line, or a field a relay added
        digest.update(b" ".join(field.split()) + b"\n")
    digest.update(b"\n" + body)
    return digest.hexdigest()


def null_sender(envelope_from: str | None) -> bool:
    """``MAIL FROM:<>``: a bounce or an auto-reply by the rules of SMTP, never to be answered
    (Postfix's pipe writes it as ``MAILER-DAEMON`` unless told ``null_sender=``)."""
    if envelope_from is None:
        return False  # the transport did not say
    address = envelope_from.strip().strip("<>").strip()
    return not address or address.lower() == "mailer-daemon"


def _in_reply_domain(address: str) -> bool:
    return address.rpartition("@")[2].lower() == settings.REPLY_DOMAIN.lower()


def _recipient_keys(envelope_to: Sequence[str]) -> list[str]:
    """The envelope recipients in the reply domain, one row each; else one row with none.

    Another domain's recipient gets no row of its own: such a row would find its seat in the
    envelope list or the headers, that is in the other rows' reply addresses, and apply the
    same mail twice."""
    keys = (r.strip().strip("<>").strip().lower() for r in envelope_to)
    return list(dict.fromkeys(k for k in keys if k and _in_reply_domain(k))) or [""]


def store(
    raw: bytes, via: str, *, envelope_from: str | None = None, envelope_to: Sequence[str] = ()
) -> tuple[InboundMail, bool]:
    """Keep the raw message and enqueue its processing; ``(row, False)`` for a duplicate.

    One row per envelope recipient (``store_each``): this returns the first, and whether any
    was new."""
    rows = store_each(raw, via, envelope_from=envelope_from, envelope_to=envelope_to)
    return rows[0][0], any(created for _, created in rows)


#: the exit statuses of an MTA pipe (sysexits(3)) that ``receive`` gives; 75 (try again) is
#: ``notifications.inbound.pipe``'s, for what fails before the mail is stored
EX_OK = 0
EX_DATAERR = 65


def receive(stdin: BinaryIO, sender: str | None, recipients: list[str]) -> tuple[int, str]:
    """Store what ``stdin`` holds (an MTA pipe: ``notifications.inbound.pipe``, ``manage.py
    receive_email``); ``(exit status, one line for stderr or '')``."""
    raw = stdin.read(MAX_BYTES + 1)
    if len(raw) > MAX_BYTES:
        return EX_DATAERR, f"message larger than {MAX_BYTES} bytes: refused"
    rows = store_each(raw, InboundMail.Via.PIPE, envelope_from=sender, envelope_to=recipients)
    new = sum(created for _, created in rows)
    return EX_OK, f"stored as inbound mail {', '.join(str(m.pk) for m, _ in rows)} ({new} new)"


def store_each(
    raw: bytes, via: str, *, envelope_from: str | None = None, envelope_to: Sequence[str] = ()
) -> list[tuple[InboundMail, bool]]:
    """Keep the raw message once per envelope recipient in the reply domain (once, with no
    recipient, when none is), unique by (Message-ID, recipient):
    a second delivery to the same address is a duplicate, one to another address (another
    game's reply address) is processed for that address.  ``envelope_from`` is ``None`` when
    the transport did not say; a null sender is kept as ``<>``."""
    message_id = message_id_of(raw)
    sender = "<>" if null_sender(envelope_from) else (envelope_from or "").strip()[:320]
    rows = []
    with transaction.atomic():
        for recipient in _recipient_keys(envelope_to):
            mail, created = InboundMail.objects.get_or_create(
                message_id=message_id,
                recipient=recipient[:320],
                defaults={
                    "raw": raw,
                    "size": len(raw),
                    "via": via,
                    "envelope_from": sender,
                    "envelope_to": "\n".join(envelope_to),
                },
            )
            if created:
                pk = mail.pk
                transaction.on_commit(lambda pk=pk: _enqueue(pk))  # type: ignore[misc]
            else:
                log.info("duplicate delivery of inbound mail %s ignored", mail.pk)
            rows.append((mail, created))
    return rows


def _enqueue(pk: int) -> None:
    """Its task; a broker that refuses it is tried again (``queues.publish``), and the sweep
    takes up a row left new in the end."""
    queues.publish(process_inbound, [pk])


# The task lives here, beside what it runs, so storing a mail enqueues it without importing the
# task module (which imports this one); its name stays ``notifications.tasks.process_inbound``,
# which the routes and queued messages know.
@shared_task(name="notifications.tasks.process_inbound", acks_late=True)
def process_inbound(pk: int) -> str:
    return process(pk)


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
    if mail.envelope_from == "<>":
        return InboundMail.Status.IGNORED, "null envelope sender (a bounce or auto-reply): not answered"
    if parsed.auto_submitted:
        return InboundMail.Status.IGNORED, "automatic mail (auto-reply or bounce): not answered"
    recipients = _addressed(mail, parsed)
    token = tokens.find(recipients)
    if token is None:
        former = _former_seat(mail, parsed, recipients)
        if former is not None:
            return former
        if _to_the_service(recipients):
            for handler in SERVICE_HANDLERS:
                handled = handler(mail, parsed)
                if handled is not None:
                    return handled
            player = Player.objects.filter(email__iexact=parsed.from_address).first()
            # a reply to the digest, a welcome…: never dropped; but a copy (Bcc) of a mail to
            # a game's address is that address's row's to apply and answer
            if player is not None and tokens.find(parsed.recipients) is None:
                return account.answer(mail, parsed, player)
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
    if game.status == Game.Status.NEW and game.ready_until is not None:  # its ready window: ``ready``
        return readiness.answer_ready(mail, parsed, game, seat)
    if game.ready_until is not None and readiness.begins_with_ready(parsed.lines):
        return readiness.answer_ready(mail, parsed, game, seat)  # late: "has started"
    return commands.apply(mail, parsed, game, seat)


def _to_the_service(recipients: list[str]) -> bool:
    """Whether the mail went to an address of the service that names no game: the service
    address (the Reply-To of the digest, the welcome, a former player's notice) or the
    address the mails come from.  (A reply address with a token that never was is no
    address of the service: it stays unanswered.)"""
    own = {tokens.service_address().lower(), parseaddr(settings.DEFAULT_FROM_EMAIL)[1].lower()}
    return any(address.strip().strip("<>").lower() in own for address in recipients)


def _addressed(mail: InboundMail, parsed: ParsedMail) -> list[str]:
    """Where the mail was delivered: the envelope recipient of this row when it is in the
    reply domain (the MTA's word, and one seat per row: only that one), else the headers'
    addresses, but only when no envelope recipient was in the reply domain (a transport that
    named no recipient, or one that rewrote it to another domain); a row stored for another
    domain's recipient beside reply addresses (as rows were once stored) addresses nothing:
    the rows of those reply addresses apply the mail."""
    if mail.recipient and _in_reply_domain(mail.recipient):
        return [mail.recipient]
    envelope = mail.envelope_to.split()
    if any(_in_reply_domain(r.strip("<>")) for r in envelope):
        return []
    return [*envelope, *parsed.recipients]


def _former_seat(mail: InboundMail, parsed: ParsedMail, recipients: list[str]) -> tuple[str, str] | None:
    """A reply to an old (revoked) address of a seat, from the player the token was issued to
    (checked against their address as it is now: the token, not the From, proves who held
    the seat, so a player who changed address since is still known).

    * The seat is someone else's now: nothing is applied, and they are told from the service
      address (never with the seat's token or page: those are its new holder's) when and that
      they no longer play it; the hand-over told is the seat's last one at or before the
      token's revocation.
    * The seat came back to them: the mail is theirs to send, so it is taken as sent to the
      seat's live address (``commands.apply``: applied or refused, as any reply); the answers
      carry only their live token, never the revoked one, so they write there next.

    None for anything else (a stranger, or a token that never was, stays unanswered)."""
    token = tokens.find(recipients, revoked=True)
    if token is None or parsed.from_address != token.player.email.lower():
        return None
    seat = token.seat
    game = seat.game
    if seat.player_id == token.player_id:  # the seat came back to them: their live seat
        mail.game, mail.seat = game, seat.position
        return commands.apply(mail, parsed, game, seat)
    handed = (
        game.events.filter(
            kind=Event.Kind.SEAT_REPLACED, seat=seat.position, created_at__lte=token.revoked_at
        )
        .order_by("seq")
        .last()
    )
    if handed is None:
        return None
    mail.game, mail.seat = game, seat.position
    context = {"event": handed.seq}
    where: dict[str, Any] = {"game": game, "seat": seat.position, "in_reply_to": parsed.message_id}
    # to the player who wrote, not the seat's holder: ``player`` keeps the holder's token out
    outbox.answer(mail, "former_seat", token.player.email, context, player=token.player, **where)
    when = f"{handed.created_at:%Y-%m-%d %H:%M} UTC"
    return (
        InboundMail.Status.FORMER_SEAT,
        f"to {seat.colour}, handed over on {when}; its former player was told",
    )
