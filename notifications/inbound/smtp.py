"""The SMTP listener (aiosmtpd) behind ``manage.py smtpd``: self-hosting and local play.

It accepts mail for the reply domain only (it is not a relay), stores each message raw
through the same pipeline as the webhook and the MTA pipe, and answers 250 once the message
is committed to the database — so a 250 means the mail cannot be lost.
"""

from __future__ import annotations

import logging
from typing import Any

from aiosmtpd.controller import Controller
from aiosmtpd.smtp import SMTP, Envelope, Session
from asgiref.sync import sync_to_async
from django.conf import settings
from django.db import close_old_connections

from notifications.inbound.routing import MAX_BYTES, store
from notifications.models import InboundMail
from notifications.services.tokens import redact

log = logging.getLogger(__name__)


class InboundHandler:
    async def handle_RCPT(
        self, server: SMTP, session: Session, envelope: Envelope, address: str, rcpt_options: list[str]
    ) -> str:
        if address.rpartition("@")[2].lower() != settings.REPLY_DOMAIN.lower():
            return "550 5.7.1 Relaying denied: this server takes mail for its own domain only"
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server: SMTP, session: Session, envelope: Envelope) -> str:
        raw = envelope.original_content or b""
        if isinstance(raw, str):  # aiosmtpd gives bytes unless decode_data is set
            raw = raw.encode("utf-8", "surrogateescape")
        mail_from = envelope.mail_from or ""  # "" for MAIL FROM:<> (a bounce: stored, never answered)
        try:
            await sync_to_async(_store)(raw, mail_from, list(envelope.rcpt_tos))
        except Exception:  # the sender's server will try again later: nothing is lost
            log.exception("could not store a mail for %s", redact(", ".join(envelope.rcpt_tos)))
            return "451 4.3.0 Temporary failure, please try again later"
        return "250 2.0.0 Message accepted"


def _store(raw: bytes, mail_from: str, rcpt_tos: list[str]) -> None:
    """Store one message, and give the database connection back like a request does."""
    try:
        store(raw, InboundMail.Via.SMTP, envelope_from=mail_from, envelope_to=rcpt_tos)
    finally:
        close_old_connections()


def controller(host: str | None = None, port: int | None = None, **kwargs: Any) -> Controller:
    """A started-on-demand aiosmtpd controller around :class:`InboundHandler`."""
    return Controller(
        InboundHandler(),
        hostname=host or settings.SMTPD_HOST,
        port=port if port is not None else settings.SMTPD_PORT,
        data_size_limit=MAX_BYTES,
        **kwargs,
    )
