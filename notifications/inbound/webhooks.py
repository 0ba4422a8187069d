"""django-anymail's webhooks: inbound mail, and delivery tracking for the outbox.

Anymail checks the request (HTTP basic auth with ``WEBHOOK_SECRET``, and the ESP's signature
where it signs, e.g. Mailgun's signing key) before sending these signals.  The URLs answer
503 while ``WEBHOOK_SECRET`` is not set (see ``notifications/urls.py``): anymail itself would
accept unauthenticated calls with a mere warning.  The envelope the ESP names is passed on:
its recipients decide the seats (one stored row, and one move, per reply address), and a null
sender (``""`` or ``<>``) is never answered.

Anymail's ``envelope_recipient`` is one address: the first of the list for SendGrid and Amazon
SES, so their full lists are read from the ESP's own event.  The ESPs that name a single
recipient per call (Mailgun, Postmark, Mailjet, SparkPost, Brevo; Resend names none) may post a
mail to two games' reply addresses once only, so the reply addresses in its To and Cc headers
are added: a row is unique by Message-ID and recipient, so an ESP that posts once per recipient
still moves each game once.
"""

from __future__ import annotations

import json
from typing import Any

from anymail.signals import AnymailInboundEvent, AnymailTrackingEvent, inbound, tracking
from django.conf import settings
from django.db import transaction
from django.dispatch import receiver
from django.utils import timezone

from games.models import Player
from notifications.inbound.routing import store
from notifications.models import InboundMail, OutboundMail
from notifications.outbound import outbox

HARD_BOUNCES = {"bounced", "rejected", "complained"}


@receiver(inbound, dispatch_uid="notifications.inbound.routing")
def on_inbound(sender: Any, event: AnymailInboundEvent, esp_name: str, **kwargs: Any) -> None:
    message = event.message
    assert message is not None
    # None: the ESP did not say; "" or "<>": the null sender (stored, never answered)
    sender_address = getattr(message, "envelope_sender", None)
    store(
        message.as_bytes(),
        InboundMail.Via.WEBHOOK,
        envelope_from=sender_address,
        envelope_to=envelope_recipients(esp_name, event),
    )


def envelope_recipients(esp_name: str, event: AnymailInboundEvent) -> list[str]:
    """Every recipient the ESP delivered this mail to (see the module's docstring)."""
    listed = _listed_recipients(esp_name, event.esp_event)
    if listed:
        return listed
    message = event.message
    assert message is not None
    recipient = getattr(message, "envelope_recipient", None) or ""
    named = [r.strip() for r in recipient.split(",") if r.strip()]
    addressed = _reply_addresses(message)
    if not addressed:
        return named
    # a recipient outside the reply domain (an ESP's own inbound address the mail was forwarded
    # to) would be read by its headers, i.e. as one of these seats a second time: left out
    domain = settings.REPLY_DOMAIN.lower()
    ours = [n for n in named if n.lower().rpartition("@")[2] == domain]
    return ours + [a for a in addressed if a.lower() not in {n.lower() for n in ours}]


def _listed_recipients(esp_name: str, esp_event: Any) -> list[str]:
    try:
        if esp_name == "Amazon SES":  # the recipients matched by the receipt rule
            listed = esp_event["receipt"]["recipients"]
        elif esp_name == "SendGrid":  # the whole Django request: the envelope is a JSON field
            listed = json.loads(esp_event.POST["envelope"])["to"]
        else:
            return []
    except (KeyError, TypeError, ValueError, AttributeError):
        return []
    if isinstance(listed, str):
        listed = [listed]
    return [str(r).strip() for r in listed if str(r).strip()] if isinstance(listed, list) else []


def _reply_addresses(message: Any) -> list[str]:
    """The seats' reply addresses (``prefix+token@REPLY_DOMAIN``) in the To and Cc headers."""
    domain = settings.REPLY_DOMAIN.lower()
    prefix = settings.REPLY_PREFIX.lower() + (settings.REPLY_SEPARATOR or "+")
    found = []
    for address in [*message.to, *message.cc]:
        spec = (address.addr_spec or "").strip()
        local, _, host = spec.lower().rpartition("@")
        if host == domain and local.startswith(prefix) and len(local) > len(prefix):
            found.append(spec)
    return list(dict.fromkeys(found))


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
