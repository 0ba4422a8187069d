"""Answering a stored mail as its recipient, the way a mail client does, over real SMTP.

The reply goes to the mail's Reply-To, from the recipient's address, threaded by
In-Reply-To/References, with the original quoted below the command lines; it is sent to the
service's own SMTP listener (``SMTPD_HOST``/``SMTPD_PORT``), so it takes the same way in as a
player's mail: ``notifications.inbound.smtp`` -> ``inbound.store`` -> ``inbound.process``.
"""

from __future__ import annotations

import smtplib
from email.message import EmailMessage
from email.utils import format_datetime, make_msgid

from django.conf import settings
from django.utils import timezone

from notifications.localmail.models import LocalMail
from notifications.localmail.reading import read

SMTP_TIMEOUT = 120  # with eager tasks (no worker) the listener answers only after processing


def build_reply(mail: LocalMail, body: str, *, message_id: str | None = None) -> EmailMessage:
    """A reply to ``mail`` from its recipient, with ``body`` above the quoted original."""
    original = read(mail)
    reply = EmailMessage()
    reply["From"] = mail.to_address
    reply["To"] = original.reply_to or original.sender
    subject = " ".join(original.subject.split())  # as a client shows it: folds are no spaces
    reply["Subject"] = subject if subject.lower().startswith("re:") else f"Re: {subject}"
    reply["Date"] = format_datetime(timezone.now())
    reply["Message-ID"] = message_id or make_msgid(domain=mail.to_address.rpartition("@")[2] or "localhost")
    if original.message_id:
        reply["In-Reply-To"] = original.message_id
        reply["References"] = f"{original.references} {original.message_id}".strip()
    when = format_datetime(original.date) if original.date else "an earlier date"
    quoted = "\n".join(f"> {line}" if line else ">" for line in original.text.splitlines())
    reply.set_content(f"{body.strip()}\n\nOn {when}, {original.sender} wrote:\n{quoted}\n")
    return reply


def send_reply(mail: LocalMail, body: str, *, message_id: str | None = None) -> EmailMessage:
    """Build the reply and hand it to the SMTP listener; returns what was sent."""
    reply = build_reply(mail, body, message_id=message_id)
    with smtplib.SMTP(settings.SMTPD_HOST, settings.SMTPD_PORT, timeout=SMTP_TIMEOUT) as smtp:
        smtp.send_message(reply, from_addr=mail.to_address, to_addrs=[str(reply["To"])])
    return reply
