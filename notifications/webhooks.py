"""django-anymail's webhooks: inbound mail, and delivery tracking for the outbox.

Anymail checks the request (HTTP basic auth with ``WEBHOOK_SECRET``, and the ESP's signature
where it signs, e.g. Mailgun's signing key) before sending these signals.  The URLs answer
503 while ``WEBHOOK_SECRET`` is not set (see ``notifications/urls.py``): anymail itself would
accept unauthenticated calls with a mere warning.  The envelope the ESP names is passed on:
its recipient decides the seat, and a null sender (``""`` or ``<>``) is never answered.
"""

from __future__ import annotations

from typing import Any

from anymail.signals import AnymailInboundEvent, AnymailTrackingEvent, inbound, tracking
from django.conf import settings
from django.db import transaction
from django.dispatch import receiver
from django.utils import timezone

from games.models import Player

from . import outbox
from .inbound import store
from .models import InboundMail, OutboundMail

HARD_BOUNCES = {"bounced", "rejected", "complained"}


@receiver(inbound, dispatch_uid="notifications.inbound")
def on_inbound(sender: Any, event: AnymailInboundEvent, esp_name: str, **kwargs: Any) -> None:
    message = event.message
    assert message is not None
    recipient = getattr(message, "envelope_recipient", None) or ""
    # None: the ESP did not say; "" or "<>": the null sender (stored, never answered)
    sender_address = getattr(message, "envelope_sender", None)
    store(
        message.as_bytes(),
        InboundMail.Via.WEBHOOK,
        envelope_from=sender_address,
        envelope_to=[r for r in recipient.split(",") if r.strip()],
    )


@receiver(tracking, dispatch_uid="notifications.tracking")
def on_tracking(sender: Any, event: AnymailTrackingEvent, esp_name: str, **kwargs: Any) -> None:
    """Delivered: mark the row.  A hard bounce: mark the row and the player's address bad,
    and tell the moderators."""
    esp_id = (event.message_id or "").strip().strip("<>")  # some ESPs bracket it, some do not
    if not esp_id:
        return
    with transaction.atomic():
        mail = OutboundMail.objects.select_for_update().filter(esp_message_id=esp_id).first()
        if mail is None:
            return
        if event.event_type == "delivered" and mail.status == OutboundMail.Status.SENT:
            mail.status = OutboundMail.Status.DELIVERED
            mail.save(update_fields=["status", "updated_at"])
        elif event.event_type in HARD_BOUNCES:
            mail.status = OutboundMail.Status.BOUNCED
            mail.last_error = f"{event.event_type}: {event.reject_reason or ''} {event.description or ''}"[
                :2000
            ]
            mail.save(update_fields=["status", "last_error", "updated_at"])
            if mail.player is not None:
                bounced(mail.player, event.event_type, event.description or event.mta_response or "")


def bounced(player: Player, kind: str, description: str) -> None:
    """Mark the address bad (once) and tell every moderator address configured."""
    if player.email_bounced_at is not None:
        return
    player.email_bounced_at = timezone.now()
    player.save(update_fields=["email_bounced_at"])
    games = [str(seat.game) for seat in player.seats.select_related("game").exclude(game__status="finished")]
    context = {"context_email": player.email, "bounce_kind": kind, "description": description, "games": games}
    for address in settings.MODERATOR_EMAILS:
        outbox.notify(
            f"bounce:{player.pk}:{player.email_bounced_at.isoformat()}:{address}", "bounce", address, context
        )
