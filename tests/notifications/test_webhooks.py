"""The anymail webhooks: inbound mail and delivery tracking, authenticated."""

from __future__ import annotations

import base64
import hashlib
import hmac
import time

import pytest
from django.core import mail as django_mail

from games.models import Player
from notifications import tokens
from notifications.models import InboundMail, OutboundMail
from tests.games.factories import running_game, whose_turn

from .helpers import compose, deliver_pending

pytestmark = pytest.mark.django_db

SECRET = "hook:s3cret"
SIGNING_KEY = "mailgun-signing-key"


@pytest.fixture(autouse=True)
def anymail_settings(settings):
    settings.ANYMAIL = {"WEBHOOK_SECRET": SECRET, "MAILGUN_WEBHOOK_SIGNING_KEY": SIGNING_KEY}


def auth(secret: str = SECRET) -> dict[str, str]:
    return {"HTTP_AUTHORIZATION": "Basic " + base64.b64encode(secret.encode()).decode()}


def signed(fields: dict[str, str], key: str = SIGNING_KEY) -> dict[str, str]:
    timestamp, token = str(int(time.time())), "t" * 50
    signature = hmac.new(key.encode(), f"{timestamp}{token}".encode(), hashlib.sha256).hexdigest()
    return {**fields, "timestamp": timestamp, "token": token, "signature": signature}


def inbound_post(client, raw: bytes, recipient: str, **headers: str):
    data = signed({"body-mime": raw.decode(), "recipient": recipient, "sender": "ada@example.org"})
    return client.post("/anymail/mailgun/inbound_mime/", data, **headers)


def test_an_authenticated_inbound_webhook_stores_and_applies_the_reply(
    client, django_capture_on_commit_callbacks
):
    game = running_game(3, seed="hook")
    seat = whose_turn(game)
    address = tokens.reply_address(game.seats.get(position=seat))
    raw = compose(address, game.seats.get(position=seat).player.email, "status")
    response = inbound_post(client, raw, address, **auth())
    assert response.status_code == 200
    mail = InboundMail.objects.get()
    assert mail.via == InboundMail.Via.WEBHOOK
    assert address in mail.envelope_to


def test_a_webhook_without_credentials_is_refused_and_stores_nothing(client):
    raw = compose("play+x@lotus.test", "eve@evil.test", "pass")
    assert inbound_post(client, raw, "play+x@lotus.test").status_code in (400, 401, 403)
    assert inbound_post(client, raw, "play+x@lotus.test", **auth("hook:wrong")).status_code in (400, 401, 403)
    assert not InboundMail.objects.exists()


def test_a_webhook_with_a_bad_signature_is_refused(client):
    raw = compose("play+x@lotus.test", "eve@evil.test", "pass")
    data = signed({"body-mime": raw.decode(), "recipient": "play+x@lotus.test"}, key="forged")
    assert client.post("/anymail/mailgun/inbound_mime/", data, **auth()).status_code == 400
    assert not InboundMail.objects.exists()


def test_webhooks_are_off_without_a_secret_and_the_esp_is_told_to_try_again(client, settings, caplog):
    settings.ANYMAIL = {}
    raw = compose("play+x@lotus.test", "eve@evil.test", "pass")
    assert inbound_post(client, raw, "play+x@lotus.test", **auth()).status_code == 503
    assert not InboundMail.objects.exists()  # nothing unauthenticated is kept
    assert [r.getMessage() for r in caplog.records if r.name == "notifications.urls"] == [
        "webhook mailgun_inbound_webhook answered 503: WEBHOOK_SECRET is not set"
    ]


def test_a_hard_bounce_marks_the_address_bad_and_tells_the_moderators(client):
    running_game(3, seed="bounce")
    deliver_pending()
    row = OutboundMail.objects.filter(seat=1).first()
    assert row is not None
    OutboundMail.objects.filter(pk=row.pk).update(esp_message_id="esp-123")
    fields = signed({})
    payload = {
        "signature": {k: fields[k] for k in ("timestamp", "token", "signature")},
        "event-data": {
            "event": "failed",
            "severity": "permanent",
            "recipient": row.to_email,
            "message": {"headers": {"message-id": "esp-123"}},
            "delivery-status": {"description": "No such user", "code": 550},
            "timestamp": time.time(),
            "id": "evt1",
        },
    }
    response = client.post("/anymail/mailgun/tracking/", payload, content_type="application/json", **auth())
    assert response.status_code == 200
    assert OutboundMail.objects.get(pk=row.pk).status == OutboundMail.Status.BOUNCED
    assert Player.objects.get(email=row.to_email).email_bounced_at is not None
    django_mail.outbox.clear()
    deliver_pending()
    assert [m.to for m in django_mail.outbox] == [["mod@lotus.test"]]
    assert django_mail.outbox[0].subject.startswith("Bounced: mail to ")
