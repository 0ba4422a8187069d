"""Celery tasks: thin shells around ``sending`` and ``inbound`` (which tests call directly)."""

from __future__ import annotations

import logging
import smtplib
from datetime import timedelta
from typing import Any

from anymail.exceptions import AnymailError
from celery import shared_task
from django.conf import settings
from django.utils import timezone

from . import inbound, pictures, preferences, queues, sending, sweep, throttle
from .models import InboundMail, OutboundMail

log = logging.getLogger(__name__)

TRANSIENT = (smtplib.SMTPException, OSError, AnymailError)


@shared_task(bind=True, max_retries=sending.MAX_ATTEMPTS - 1, acks_late=True)
def send_mail(self: Any, mail_id: int) -> str:
    """Send one outbox row; retry with exponential backoff (10 s, 20 s, 40 s, … up to 1 h)."""
    try:
        return sending.deliver(mail_id)
    except TRANSIENT as error:
        final = self.request.retries >= self.max_retries
        sending.record_failure(mail_id, error, final=final)
        if final:
            return f"gave up: {type(error).__name__}"
        raise self.retry(exc=error, countdown=min(10 * 2**self.request.retries, 3600)) from None


@shared_task(acks_late=True)
def send_mails(mail_ids: list[int]) -> str:
    """The rows one transaction wrote; a row that fails is retried on its own."""
    results = []
    for mail_id in mail_ids:
        try:
            results.append(sending.deliver(mail_id))
        except TRANSIENT as error:
            sending.record_failure(mail_id, error, final=False)
            send_mail.apply_async((mail_id,), countdown=10)
            results.append(f"retrying: {type(error).__name__}")
    return "; ".join(results)


@shared_task(acks_late=True)
def process_inbound(pk: int) -> str:
    return inbound.process(pk)


@shared_task
def sweep_deadlines() -> str:
    """Every minute (beat): vacations that are over, reminders, defaults at deadlines."""
    return str(sweep.sweep())


@shared_task
def send_digests() -> str:
    """Once a day (beat): the news of the day to players who asked for a digest."""
    return f"{preferences.send_digests()} digests written"


@shared_task
def sweep_mail() -> str:
    """Every minute (beat): re-enqueue outbox rows and inbound mails whose task was lost."""
    stale = sending.stale_pending()
    found = {
        pk: (kind, context)
        for pk, kind, context in OutboundMail.objects.filter(pk__in=stale).values_list(
            "pk", "kind", "context"
        )
    }
    for pk in stale:
        send_mail.apply_async((pk,), queue=queues.queue_of(*found.get(pk, ("", None))))
    cutoff = timezone.now() - timedelta(minutes=1)  # younger rows still have their own task coming
    new = list(
        InboundMail.objects.filter(status=InboundMail.Status.NEW, received_at__lt=cutoff).values_list(
            "pk", flat=True
        )[:500]
    )
    for pk in new:
        process_inbound.delay(pk)
    pruned = pictures.prune()  # board pictures whose mails are long sent
    return f"re-enqueued {len(stale)} outbound and {len(new)} inbound; {pruned} old pictures dropped"


# --- an ordinary mailbox (issue 31: notifications.imap, notifications.throttle) ---------------

#: a beat task watches the mailbox this long (beat starts it every minute), then lets go
FETCH_SECONDS = 50.0


@shared_task
def fetch_mail() -> str:
    """Every minute (beat, when IMAP_HOST is set): fetch new replies for 50 s, by IDLE or by
    polling; nothing when ``manage.py fetch_mail`` holds the mailbox."""
    from .imap.fetch import Account
    from .imap.watching import watch

    if not settings.IMAP_HOST:
        return "no IMAP_HOST: no mailbox to fetch"
    return str(watch(Account.from_settings(), seconds=FETCH_SECONDS))


@shared_task
def drain_outbox() -> str:
    """Every 10 s (beat, under the sending limits): the held outbox, decision mails first, as
    far as the free slots go."""
    sent = 0
    for mail_id in throttle.drain_order():
        try:
            result = sending.deliver(mail_id)
        except TRANSIENT as error:
            sending.record_failure(mail_id, error, final=False)
            continue
        if result.startswith("held"):
            break
        sent += result == "sent"
    return f"{sent} held mails sent"
