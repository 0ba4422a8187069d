"""Driving the mail pipeline synchronously in tests: deliver the outbox, receive a reply."""

from __future__ import annotations

from email.message import EmailMessage
from email.utils import make_msgid

from django.core import mail as django_mail

from notifications.inbound import routing
from notifications.models import InboundMail, OutboundMail
from notifications.outbound import sending


def deliver_pending() -> list[OutboundMail]:
    """Send every pending outbox row (as the send task would) and return them."""
    rows = list(OutboundMail.objects.filter(status=OutboundMail.Status.PENDING).order_by("pk"))
    for row in rows:
        sending.deliver(row.pk)
    return [OutboundMail.objects.get(pk=row.pk) for row in rows]


def sent_to(address: str) -> list[django_mail.EmailMultiAlternatives]:
    return [m for m in django_mail.outbox if address in m.to]  # type: ignore[misc]


def compose(
    to: str,
    sender: str,
    body: str,
    *,
    in_reply_to: str = "",
    references: str = "",
    subject: str = "Re: your move",
) -> bytes:
    message = EmailMessage()
    message["From"] = sender
    message["To"] = to
    message["Subject"] = subject
    message["Message-ID"] = make_msgid(domain="player.test")
    if in_reply_to:
        message["In-Reply-To"] = in_reply_to
        message["References"] = f"{references} {in_reply_to}".strip()
    message.set_content(body)
    return message.as_bytes()


def receive(raw: bytes, via: str = InboundMail.Via.PIPE) -> InboundMail:
    """Store and process one raw mail, as the pipe and the task would."""
    row, _ = routing.store(raw, via)
    routing.process(row.pk)
    return InboundMail.objects.get(pk=row.pk)
