"""Sending at the pace an ordinary mailbox's provider allows.

A provider's account sends so many mails a minute and a day (``MAIL_SEND_PER_MINUTE``,
``MAIL_SEND_PER_DAY``; 0 is no limit, and with neither set only the pause below is used).
While the limits are on, each send first locks the one ``SendingPace`` row, so the count of
mails sent in the last minute and day (``OutboundMail.sent_at``) and the send itself are one
step, and sends the row only if the free slots reach it in the drain order: decision mails and the
answers a player waits for first (``queues.goes_first``), then the rest, oldest first.  A row
that has to wait stays pending: nothing is lost, and ``drain`` (beat, every 10 s) sends the
held rows in that order as slots free up.

A refusal for rate (SMTP 421, 450, 451, 452, 454: "too many mails", "try again later"),
with the limits on or off, pauses the whole outbox, ``MAIL_RATE_PAUSE_SECONDS`` (a minute),
then twice, four times as long… up to an hour while the refusals go on; it is not a failed
attempt of the mail (those end in ``failed`` after ``MAX_ATTEMPTS``), so however long the
provider says no, the mail goes once it says yes.
"""

from __future__ import annotations

import smtplib
from datetime import datetime, timedelta

from django.conf import settings
from django.utils import timezone

from notifications.models import OutboundMail, SendingPace
from notifications.outbound import queues
from notifications.services.redact import one_line

#: the tries a mail gets before it is ``failed`` (``sending`` counts them; the drain skips the
#: rows past them); here, below ``sending``, so both read it without a circle
MAX_ATTEMPTS = 8

#: the SMTP replies that mean "not now" for an account's volume (RFC 5321 4xx; providers use
#: 421 and 454 for "too many connections / messages", 450-452 for "try again later")
RATE_CODES = frozenset({421, 450, 451, 452, 454})
LONGEST_PAUSE = timedelta(hours=1)


class RateRefused(Exception):
    """The provider refused a mail for rate: the outbox pauses, the mail stays pending."""


def limited() -> bool:
    return bool(settings.MAIL_SEND_PER_MINUTE or settings.MAIL_SEND_PER_DAY)


def refused_for_rate(error: BaseException) -> bool:
    codes: list[int] = []
    if isinstance(error, smtplib.SMTPRecipientsRefused):
        codes = [int(code) for code, _ in error.recipients.values()]
    elif isinstance(error, smtplib.SMTPResponseException):
        codes = [int(error.smtp_code)]
    return any(code in RATE_CODES for code in codes)


def free_slots() -> int:
    """How many mails may go now under the limits (counted from the outbox's ``sent_at``)."""
    now = timezone.now()
    sent = OutboundMail.objects.filter(sent_at__gte=now - timedelta(days=1))
    free = []
    if settings.MAIL_SEND_PER_MINUTE:
        free.append(
            settings.MAIL_SEND_PER_MINUTE - sent.filter(sent_at__gte=now - timedelta(minutes=1)).count()
        )
    if settings.MAIL_SEND_PER_DAY:
        free.append(settings.MAIL_SEND_PER_DAY - sent.count())
    return max(0, min(free)) if free else 1 << 30


def _place(kind: str, context: dict[str, object] | None, created: object, pk: int) -> tuple[bool, str, int]:
    return (not queues.goes_first(kind, context), str(created), pk)


def drain_order(limit: int = 500) -> list[int]:
    """The pending rows in the order the held outbox is sent: what players wait for first."""
    rows = OutboundMail.objects.filter(
        status=OutboundMail.Status.PENDING, attempts__lt=MAX_ATTEMPTS
    ).values_list("pk", "kind", "context", "created_at")
    ordered = sorted(rows, key=lambda r: _place(r[1], r[2], r[3].isoformat(), r[0]))
    return [r[0] for r in ordered[:limit]]


def hold(mail: OutboundMail) -> str:
    """Why ``mail`` must wait ('' when it may go now).  Locks the pace row until the caller's
    transaction ends: call it inside the transaction that sends and marks the row sent."""
    SendingPace.objects.get_or_create(pk=1)
    pace = SendingPace.objects.select_for_update().get(pk=1)
    now = timezone.now()
    if pace.paused_until is not None and pace.paused_until > now:
        return f"the provider refused for rate; sending again after {pace.paused_until:%H:%M:%S} UTC"
    free = free_slots()
    if free == 0:
        return "the sending limit is reached (MAIL_SEND_PER_MINUTE, MAIL_SEND_PER_DAY)"
    mine = _place(mail.kind, mail.context, mail.created_at.isoformat(), mail.pk)
    ahead = 0
    for pk, kind, context, created in (
        OutboundMail.objects.filter(status=OutboundMail.Status.PENDING, attempts__lt=MAX_ATTEMPTS)
        .exclude(pk=mail.pk)
        .values_list("pk", "kind", "context", "created_at")
    ):
        if _place(kind, context, created.isoformat(), pk) < mine:
            ahead += 1
            if ahead >= free:
                return f"{free} free slot(s) go to mails players wait for, or older ones"
    return ""


def paused() -> tuple[str, bool]:
    """Why every mail waits after a refusal for rate ('' when none does): ``hold`` without the
    limits, and without its lock (sends without limits do not queue on the pace row); and
    whether a refusal is still counted (then ``went`` clears it once a mail goes).  One read."""
    found = SendingPace.objects.filter(pk=1).values_list("paused_until", "refusals").first()
    until, refusals = found if found is not None else (None, 0)
    if until is not None and until > timezone.now():
        return f"the provider refused for rate; sending again after {until:%H:%M:%S} UTC", True
    return "", bool(refusals)


def recovering() -> bool:
    """Whether mails refused for rate may be waiting: a refusal, and no mail sent since."""
    return SendingPace.objects.filter(pk=1, refusals__gt=0).exists()


def went() -> None:
    """A mail went: the provider takes mail again, the next refusal pauses a minute again."""
    SendingPace.objects.filter(pk=1, refusals__gt=0).update(refusals=0, paused_until=None)


def pause(error: BaseException) -> datetime:
    """The provider refused for rate: hold every mail a while (longer at each refusal in a row)."""
    SendingPace.objects.get_or_create(pk=1)
    pace = SendingPace.objects.get(pk=1)
    pause = min(timedelta(seconds=settings.MAIL_RATE_PAUSE_SECONDS) * 2**pace.refusals, LONGEST_PAUSE)
    pace.paused_until = timezone.now() + pause
    pace.refusals += 1
    pace.last_refusal = one_line(error)
    pace.save()
    return pace.paused_until
