"""A Django email backend that delivers into the local mailbox instead of the internet.

Every message is stored as the SMTP backend would put it on the wire (the full raw MIME,
with its Message-ID, Reply-To and inline parts), once per recipient, and one short line per
mail goes to the console (subject and mailbox link) so the serve terminal stays readable.
"""

from __future__ import annotations

import sys
import threading
from collections.abc import Sequence
from typing import Any, TextIO
from urllib.parse import quote

from django.conf import settings
from django.core.mail.backends.base import BaseEmailBackend
from django.core.mail.message import EmailMessage

from notifications.localmail.models import LocalMail
from notifications.services.redact import redact


def mailbox_url(address: str) -> str:
    """The mailbox page of one address, as a full link for terminals and mails."""
    return f"{settings.SITE_URL.rstrip('/')}/mailbox/{quote(address.lower(), safe='@')}/"


def store_message(message: EmailMessage) -> list[LocalMail]:
    """Keep one message for each of its recipients; returns the rows written."""
    mime = message.message()
    raw = mime.as_bytes(linesep="\r\n")
    sender = message.from_email or settings.DEFAULT_FROM_EMAIL
    message_id = str(mime["Message-ID"] or "").strip().strip("<>")
    rows = [
        LocalMail(
            to_address=address.lower()[:320],
            sender=sender[:320],
            subject=str(message.subject)[:300],
            message_id=message_id[:255],
            raw=raw,
        )
        for address in dict.fromkeys(a.strip() for a in message.recipients())
        if address
    ]
    return LocalMail.objects.bulk_create(rows)


class EmailBackend(BaseEmailBackend):
    """``EMAIL_BACKEND = "notifications.localmail.backend.EmailBackend"``."""

    def __init__(self, *args: Any, stream: TextIO | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.stream = stream or sys.stdout
        self._lock = threading.RLock()

    def send_messages(self, email_messages: Sequence[EmailMessage]) -> int:
        sent = 0
        with self._lock:
            for message in email_messages:
                rows = store_message(message)
                for row in rows:
                    line = f'mail to {row.to_address}: "{row.subject}"  {mailbox_url(row.to_address)}'
                    self.stream.write(redact(line) + "\n")
                self.stream.flush()
                sent += bool(rows)
        return sent
