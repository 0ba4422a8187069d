"""Celery tasks: thin shells around ``sending`` and ``inbound`` (which tests call directly)."""

from __future__ import annotations

import logging
from datetime import timedelta

from celery import shared_task
from django.conf import settings
from django.utils import timezone

from notifications import sweep
from notifications.imap.fetch import Account
from notifications.imap.watching import watch
from notifications.inbound.routing import process_inbound
from notifications.models import InboundMail
from notifications.outbound import digests, pictures, queues, sending, throttle
from notifications.outbound.sending import TRANSIENT, send_mail, send_mails

# the tasks that run a send or a stored mail live beside their code (``sending``, ``inbound``:
# the layers below enqueue them without coming back up here); imported here, they are this
# module's names too, and the worker registers them when it loads this module
__all__ = ["process_inbound", "send_mail", "send_mails"]

log = logging.getLogger(__name__)


@shared_task
def sweep_deadlines() -> str:
    """Every minute (beat): vacations that are over, reminders, defaults at deadlines."""
    return str(sweep.sweep())


@shared_task
def send_digests() -> str:
    """Once a day (beat): the news of the day to players who asked for a digest."""
    return f"{digests.send_digests()} digests written"


#: how many lost rows (and replies) one sweep takes up, and how many rows one send task is given:
#: a broker's restart can leave thousands without a task, and a sweep that sent 500 a minute,
#: one task each, took six minutes over them while the workers stood idle
SWEEP_LIMIT = 5000
SWEEP_BATCH = 50


@shared_task
def sweep_mail() -> str:
    """Every minute (beat): re-enqueue outbox rows and inbound mails whose task was lost, what
    a player waits for first (``sending.stale_rows``), in batches of ``SWEEP_BATCH`` rows
    per task on each row's own queue."""
    stale = sending.stale_rows(limit=SWEEP_LIMIT)
    by_queue: dict[str, list[int]] = {}
    for pk, kind, context in stale:  # in the order they come: what players wait for first
        by_queue.setdefault(queues.queue_of(kind, context), []).append(pk)
    for queue in queues.ORDER:
        ids = by_queue.get(queue, [])
        for start in range(0, len(ids), SWEEP_BATCH):
            # straight to the broker: one that refuses ends this sweep, and the next one tries again
            send_mails.apply_async((ids[start : start + SWEEP_BATCH],), queue=queue)
    cutoff = timezone.now() - timedelta(minutes=1)  # younger rows still have their own task coming
    new = list(
        InboundMail.objects.filter(status=InboundMail.Status.NEW, received_at__lt=cutoff)
        .order_by("received_at", "pk")
        .values_list("pk", flat=True)[:SWEEP_LIMIT]
    )
    for pk in new:
        process_inbound.delay(pk)
    pruned = pictures.prune()  # board pictures whose mails are long sent
    return f"re-enqueued {len(stale)} outbound and {len(new)} inbound; {pruned} old pictures dropped"


# --- an ordinary mailbox (notifications.imap, notifications.outbound.throttle) ---------------

#: a beat task watches the mailbox this long (beat starts it every minute), then lets go
FETCH_SECONDS = 50.0


@shared_task
def fetch_mail() -> str:
    """Every minute (beat, when IMAP_HOST is set): fetch new replies for 50 s, by IDLE or by
    polling; nothing when ``manage.py fetch_mail`` holds the mailbox."""
    if not settings.IMAP_HOST:
        return "no IMAP_HOST: no mailbox to fetch"
    return str(watch(Account.from_settings(), seconds=FETCH_SECONDS))


@shared_task
def drain_outbox() -> str:
    """Every 10 s (beat): the held outbox, decision mails first, as far as the free slots go;
    without sending limits only after a refusal for rate (else the send tasks have every row)."""
    if not throttle.limited() and not throttle.recovering():
        return "nothing held"
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
