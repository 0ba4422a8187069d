"""The anymail webhooks: inbound mail and delivery tracking, authenticated."""

from __future__ import annotations

import base64
import hashlib
import hmac
import logging
import time

import pytest
from django.core import mail as django_mail

from games.models import Player
from notifications.models import InboundMail, OutboundMail
from notifications.services import tokens
from tests.games.factories import running_game, whose_turn
from tests.notifications.helpers import compose, deliver_pending

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


def _refusals(caplog) -> list[logging.LogRecord]:
    """The log lines of a call: the webhooks' own (at any level) and every warning or worse."""
    return [r for r in caplog.records if r.name == "notifications.urls" or r.levelno >= logging.WARNING]


@pytest.mark.parametrize(
    ("body", "headers", "status"),
    [
        (b"not even json", {}, 401),  # no credentials: SNS's challenge, before the body is read
        (b"not even json", auth(), 400),
        (b'["a list"]', auth(), 400),
        (
            b'{"Type": "Notification", "MessageId": "1"}',
            {**auth(), "HTTP_X_AMZ_SNS_MESSAGE_TYPE": "Bogus"},
            400,
        ),
        (b"\xff\xfe not utf-8", auth(), 400),
        (b'{"Type": "Notification"}', auth("hook:wrong"), 400),
    ],
)
def test_an_amazon_ses_call_that_is_not_an_authenticated_sns_message_is_refused_with_one_log_line(
    client, caplog, body, headers, status
):
    caplog.set_level(logging.INFO)
    client.raise_request_exception = False
    response = client.post("/anymail/amazon_ses/inbound/", body, content_type="text/plain", **headers)
    assert response.status_code == status
    if status == 401:
        assert response["WWW-Authenticate"].startswith("Basic")
    refusals = _refusals(caplog)
    assert len(refusals) == 1, [r.getMessage() for r in refusals]
    assert refusals[0].exc_info is None and "\n" not in refusals[0].getMessage()
    assert "amazon_ses" in refusals[0].getMessage() and f"({status})" in refusals[0].getMessage()
    assert not InboundMail.objects.exists()


def test_a_forged_signature_is_refused_with_one_log_line_and_no_traceback(client, caplog):
    caplog.set_level(logging.INFO)
    raw = compose("play+x@lotus.test", "eve@evil.test", "pass")
    data = signed({"body-mime": raw.decode(), "recipient": "play+x@lotus.test"}, key="forged")
    assert client.post("/anymail/mailgun/inbound_mime/", data, **auth()).status_code == 400
    refusals = _refusals(caplog)
    assert len(refusals) == 1 and refusals[0].exc_info is None, [r.getMessage() for r in refusals]
    assert "mailgun" in refusals[0].getMessage()
