"""Sending one outbox row, and the sweep that finds rows left pending.

A row is claimed with ``select_for_update(skip_locked=True)``: two workers given the same row
cannot both send it.  The row lock is held while the message goes out, so a crash between
sending and committing can send a mail twice (at least once, never lost); the fixed
Message-ID lets mail clients fold such a duplicate.
"""

from __future__ import annotations

import logging
import smtplib
from datetime import timedelta
from email.header import Header
from typing import Any

from anymail.exceptions import AnymailError
from celery import shared_task
from django.conf import settings
from django.core.mail import EmailMultiAlternatives
from django.db import transaction
from django.db.models import Case, Q, When
from django.utils import timezone

from games.models import Seat
from notifications.models import OutboundMail
from notifications.outbound import queues, throttle
from notifications.outbound.emails import render
from notifications.outbound.pictures import attach_picture
from notifications.outbound.throttle import MAX_ATTEMPTS
from notifications.services.tokens import redact, reply_address, service_address

log = logging.getLogger(__name__)

#: what a retry may cure: the connection, the server, the provider's API
TRANSIENT = (smtplib.SMTPException, OSError, AnymailError)


# The two send tasks live here, beside what they run, so the outbox (above) enqueues them
# without importing the task module (which imports the inbound side, above the outbox).  Their
# names stay ``notifications.tasks.…``: routes, beat and queued messages know them by those.
@shared_task(name="notifications.tasks.send_mail", bind=True, max_retries=MAX_ATTEMPTS - 1, acks_late=True)
def send_mail(self: Any, mail_id: int) -> str:
    """Send one outbox row; retry with exponential backoff (10 s, 20 s, 40 s, … up to 1 h)."""
    try:
        return deliver(mail_id)
    except TRANSIENT as error:
        final = self.request.retries >= self.max_retries
        record_failure(mail_id, error, final=final)
        if final:
            return f"gave up: {type(error).__name__}"
        raise self.retry(exc=error, countdown=min(10 * 2**self.request.retries, 3600)) from None


@shared_task(name="notifications.tasks.send_mails", acks_late=True)
def send_mails(mail_ids: list[int]) -> str:
    """The rows one transaction wrote; a row that fails is retried on its own."""
    results = []
    for mail_id in mail_ids:
        try:
            results.append(deliver(mail_id))
        except TRANSIENT as error:
            record_failure(mail_id, error, final=False)
            send_mail.apply_async((mail_id,), countdown=10)
            results.append(f"retrying: {type(error).__name__}")
    return "; ".join(results)


def deliver(mail_id: int) -> str:
    """Render (once) and send the row if it is still pending; say what happened.  Under the
    sending limits (``throttle``) a row may be held: it stays pending, ``held: <why>``."""
    try:
        return _deliver(mail_id)
    except throttle.RateRefused as refused:  # the transaction is rolled back: still pending
        until = throttle.pause(refused.__cause__ or refused)
        log.warning("mail %s held: the provider refused for rate; sending again at %s", mail_id, until)
        return f"held: the provider refused for rate ({refused})"


def _deliver(mail_id: int) -> str:
    with transaction.atomic():
        mail = (
            OutboundMail.objects.select_for_update(skip_locked=True, of=("self",))
            .select_related("game", "player")
            .filter(pk=mail_id, status=OutboundMail.Status.PENDING)
            .first()
        )
        if mail is None:
            return "not pending (sent already, or another worker has it)"
        seat = None
        if mail.game is not None and mail.seat is not None:
            seat = mail.game.seats.select_related("player").get(position=mail.seat)
        if mail.player is None and seat is not None:
            mail.player, mail.to_email = seat.player, seat.player.email  # who holds the seat now
        if mail.player is not None and mail.player.email_bounced_at is not None:
            mail.status = OutboundMail.Status.FAILED
            mail.last_error = "not sent: the address bounced before"
            mail.save(update_fields=["status", "last_error", "updated_at"])
            return mail.last_error
        # the provider's pace, decisions first; without limits only a pause after a refusal for rate
        held, refused = (throttle.hold(mail), True) if throttle.limited() else throttle.paused()
        if held:
            return f"held: {held}"
        picture = b""  # the board as PNG, kept per event (see pictures), fetched again on each attempt
        if not mail.subject:
            mail.subject, mail.text, mail.html, picture = render(mail)
        message = _message(mail, picture, seat)
        try:
            message.send()
        except smtplib.SMTPException as error:
            if throttle.refused_for_rate(error):  # not the mail's failure: the outbox waits
                raise throttle.RateRefused(redact(str(error))) from error
            raise
        if refused:  # a refusal for rate was counted: this mail went, so the provider takes mail again
            throttle.went()
        mail.status = OutboundMail.Status.SENT
        mail.sent_at = timezone.now()
        mail.attempts += 1
        mail.esp_message_id = _esp_id(message)
        mail.save()
    log.info("sent %s mail %s to %s", mail.kind, mail.pk, mail.to_email)
    return "sent"


def record_failure(mail_id: int, error: BaseException, *, final: bool) -> None:
    """Count a failed attempt (outside the failed transaction); give up when ``final``."""
    with transaction.atomic():
        mail = OutboundMail.objects.select_for_update().filter(pk=mail_id).first()
        if mail is None or mail.status != OutboundMail.Status.PENDING:
            return
        mail.attempts += 1
        mail.last_error = redact(f"{type(error).__name__}: {error}")[:2000]
        if final or mail.attempts >= MAX_ATTEMPTS:
            mail.status = OutboundMail.Status.FAILED
        mail.save(update_fields=["attempts", "last_error", "status", "updated_at"])
    log.warning("mail %s failed (attempt %s): %s", mail_id, mail.attempts, mail.last_error)


def stale_pending(older_than: timedelta = timedelta(minutes=2), limit: int = 500) -> list[int]:
    """Rows still pending a while after they were written: their task was lost (broker down,
    worker killed).  The sweep enqueues them again; ``deliver`` makes that harmless."""
    return [pk for pk, _, _ in stale_rows(older_than, limit)]


def stale_rows(
    older_than: timedelta = timedelta(minutes=2), limit: int = 500
) -> list[tuple[int, str, dict[str, Any]]]:
    """``stale_pending``'s rows with the kind and context their queue is chosen by.  The mails
    a player waits for come first (``queues.goes_first``, said in SQL: a move's answer, a first
    mover's invitation), then the rest, oldest first: 3,000 invitations left behind by a
    broker's restart do not hold back the decision mails written after them."""
    cutoff = timezone.now() - older_than
    waited_for = Q(kind__in=queues.FIRST) | (Q(context__has_key="decision") & ~Q(context__decision=""))
    return list(
        OutboundMail.objects.filter(
            status=OutboundMail.Status.PENDING, created_at__lt=cutoff, attempts__lt=MAX_ATTEMPTS
        )
        .order_by(Case(When(waited_for, then=0), default=1), "created_at", "pk")
        .values_list("pk", "kind", "context")[:limit]
    )


class _Mail(EmailMultiAlternatives):
    """Django's mail, with its Subject folded as RFC 2047 means it.

    Django encodes a non-ASCII subject without knowing the field's name, so a long one came
    out as ``Subject:`` and an empty first line, every encoded word below it, which clients
    read with a leading space (``Re:  New game…``).  Encoded knowing its name, the first
    encoded word stands on the Subject line.  Only the MIME message is changed: an ESP's API
    (anymail) reads ``subject`` as it is."""

    def message(self) -> Any:
        message = super().message()
        if not str(self.subject).isascii():
            # in its place, past SafeMIME's __setitem__ (which would encode the Header again)
            headers = message._headers
            at = next(i for i, (name, _) in enumerate(headers) if name.lower() == "subject")
            headers[at] = ("Subject", Header(str(self.subject), "utf-8", header_name="Subject"))
        return message


def _message(mail: OutboundMail, picture: bytes = b"", seat: Seat | None = None) -> EmailMultiAlternatives:
    if mail.game is not None and mail.seat is not None:
        seat = seat or mail.game.seats.get(position=mail.seat)
        # the seat's token is its holder's now: a row written for a player who has since lost
        # the seat (an answer) must not hand it to them
        reply_to = reply_address(seat) if mail.player_id in (None, seat.player_id) else service_address()
    else:
        reply_to = service_address()
    headers = {
        "Message-ID": f"<{mail.message_id}>",
        # our mails expect answers from people, not from their out-of-office robots
        "X-Auto-Response-Suppress": "OOF, AutoReply",
        "Auto-Submitted": "auto-generated",
    }
    if mail.in_reply_to:
        headers["In-Reply-To"] = f"<{mail.in_reply_to}>"
    if mail.references:
        headers["References"] = mail.references
    message = _Mail(
        subject=mail.subject,
        body=mail.text,
        from_email=settings.DEFAULT_FROM_EMAIL,
        to=[mail.to_email],
        reply_to=[reply_to],
        headers=headers,
    )
    message.attach_alternative(mail.html, "text/html")
    if picture:
        attach_picture(message, mail, picture)
    return message


def _esp_id(message: EmailMultiAlternatives) -> str:
    status = getattr(message, "anymail_status", None)  # set by anymail's ESP backends
    return str(getattr(status, "message_id", "") or "").strip().strip("<>")
