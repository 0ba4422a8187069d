"""Every inbound ESP a user would pick, end to end: a request in the shape of django-anymail's
own test fixtures (tests/test_<esp>_inbound.py there), carrying a real reply to a real seat,
through the authenticated webhook URL, stored, processed, and the move applied."""

from __future__ import annotations

import base64
import hashlib
import hmac
import io
import json
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest
from anymail.exceptions import AnymailImproperlyInstalled, _LazyError
from django.core.management import call_command

from games import services
from games.rules import whitelotus as wl
from notifications.inbound import routing as inbound
from notifications.models import InboundMail, OutboundMail, WebhookCall
from notifications.services import tokens
from tests.games.factories import running_game, whose_turn
from tests.notifications.helpers import compose

pytestmark = pytest.mark.django_db

SECRET = "hook:s3cret"
AUTH = {"HTTP_AUTHORIZATION": "Basic " + base64.b64encode(SECRET.encode()).decode()}
KEYS = {
    "WEBHOOK_SECRET": SECRET,
    "MAILGUN_WEBHOOK_SIGNING_KEY": "mailgun-signing-key",
    "BREVO_API_KEY": "brevo-api-key",
    "RESEND_API_KEY": "re_test_key",
}


@pytest.fixture(autouse=True)
def anymail_settings(settings):
    settings.ANYMAIL = dict(KEYS)


@dataclass(frozen=True)
class Reply:
    address: str  # the seat's reply address
    player: str  # the seat's registered address
    command: str
    message_id: str
    raw: bytes  # the whole mail, as a client sent it


def a_reply(seed: str) -> tuple[Any, int, Reply]:
    game = running_game(3, seed=seed)
    seat = whose_turn(game)
    holder = game.seats.get(position=seat)
    state = services.head_state(game)
    command = wl.Notation.format_command(state, wl.legal(state, seat)[0])
    address = tokens.reply_address(holder)
    raw = compose(address, holder.player.email, command)
    message_id = inbound.message_id_of(raw)
    return game, seat, Reply(address, holder.player.email, command, message_id, raw)


# --- one request per ESP, shaped as anymail's fixtures -------------------------------------------


def mailgun(reply: Reply) -> tuple[str, dict[str, Any]]:
    timestamp, token = str(int(time.time())), "t" * 50
    key = KEYS["MAILGUN_WEBHOOK_SIGNING_KEY"].encode()
    signature = hmac.new(key, f"{timestamp}{token}".encode(), hashlib.sha256).hexdigest()
    data = {
        "recipient": reply.address,
        "sender": reply.player,
        "body-mime": reply.raw.decode(),
        "timestamp": timestamp,
        "token": token,
        "signature": signature,
    }
    return "/anymail/mailgun/inbound_mime/", {"data": data}


def postmark(reply: Reply) -> tuple[str, dict[str, Any]]:
    payload = {
        "FromFull": {"Email": reply.player, "Name": "Ada", "MailboxHash": ""},
        "ToFull": [{"Email": reply.address, "Name": "White Lotus", "MailboxHash": reply.address[5:31]}],
        "CcFull": [],
        "BccFull": [],
        "OriginalRecipient": reply.address,
        "Subject": "Re: your move",
        "MessageID": "22c74902-a0c1-4511-804f2-341342852c90",
        "Date": "Mon, 23 Nov 2026 10:00:00 +0000",
        "TextBody": f"{reply.command}\n",
        "HtmlBody": "",
        "StrippedTextReply": reply.command,
        "Tag": "",
        "Headers": [
            {"Name": "Return-Path", "Value": f"<{reply.player}>"},
            {"Name": "Received", "Value": "by mail.example.org for <x> ..."},
            {"Name": "X-Spam-Status", "Value": "No"},
            {"Name": "MIME-Version", "Value": "1.0"},
            {"Name": "Message-ID", "Value": f"<{reply.message_id}>"},
        ],
        "Attachments": [],
    }
    return "/anymail/postmark/inbound/", {"data": json.dumps(payload), "content_type": "application/json"}


def sendgrid(reply: Reply) -> tuple[str, dict[str, Any]]:
    """SendGrid's default (parsed, not "send raw") inbound parse post."""
    headers = (
        f"Received: by mx0047p1mdw1.sendgrid.net with SMTP id 6WCVv7KAWn\n"
        f"From: Ada <{reply.player}>\nTo: {reply.address}\nSubject: Re: your move\n"
        f"Message-ID: <{reply.message_id}>\nMIME-Version: 1.0\n"
    )
    data = {
        "headers": headers,
        "dkim": "{@example.org : pass}",
        "to": reply.address,
        "from": f"Ada <{reply.player}>",
        "subject": "Re: your move",
        "text": f"{reply.command}\n",
        "envelope": json.dumps({"to": [reply.address], "from": reply.player}),
        "charsets": json.dumps({"to": "UTF-8", "subject": "UTF-8", "from": "UTF-8", "text": "utf-8"}),
        "SPF": "pass",
        "spam_score": "1.7",
    }
    return "/anymail/sendgrid/inbound/", {"data": data}


def amazon_ses(reply: Reply) -> tuple[str, dict[str, Any]]:
    """An SNS notification of an SES receipt rule with an SNS action (the mail inside)."""
    ses_event = {
        "notificationType": "Received",
        "mail": {
            "timestamp": "2026-11-23T10:00:00.000Z",
            "source": reply.player,
            "messageId": "jili9m351il3gkburn7o2f0u6788stij94c8ld01",
            "destination": [reply.address],
            "headersTruncated": False,
        },
        "receipt": {
            "timestamp": "2026-11-23T10:00:00.000Z",
            "recipients": [reply.address],
            "spamVerdict": {"status": "PASS"},
            "virusVerdict": {"status": "PASS"},
            "action": {
                "type": "SNS",
                "topicArn": "arn:aws:sns:us-east-1:111111111111:SES_Inbound",
                "encoding": "BASE64",
            },
        },
        "content": base64.b64encode(reply.raw).decode("ascii"),
    }
    sns = {
        "Type": "Notification",
        "MessageId": "8f6dde3b-e9c2-5d4f-a2d8-9b3c5d1d0a37",
        "TopicArn": "arn:aws:sns:us-east-1:111111111111:SES_Inbound",
        "Subject": "Amazon SES Email Receipt Notification",
        "Message": json.dumps(ses_event),
        "Timestamp": "2026-11-23T10:00:01.000Z",
        "SignatureVersion": "1",
        "Signature": "EXAMPLE-SIGNATURE==",
        "SigningCertURL": "https://sns.us-east-1.amazonaws.com/SimpleNotificationService-12345.pem",
        "UnsubscribeURL": "https://sns.us-east-1.amazonaws.com/?Action=Unsubscribe&...",
    }
    headers = {
        "HTTP_X_AMZ_SNS_MESSAGE_TYPE": "Notification",
        "HTTP_X_AMZ_SNS_MESSAGE_ID": sns["MessageId"],
    }
    return "/anymail/amazon_ses/inbound/", {"data": json.dumps(sns), "content_type": "text/plain", **headers}


def brevo(reply: Reply) -> tuple[str, dict[str, Any]]:
    item = {
        "Uuid": ["aaaaaaaa-bbbb-cccc-dddd-eeeeeeeeeeee"],
        "MessageId": f"<{reply.message_id}>",
        "InReplyTo": None,
        "From": {"Name": "Ada", "Address": reply.player},
        "To": [{"Name": None, "Address": reply.address}],
        "Subject": "Re: your move",
        "Headers": {
            "Return-Path": f"<{reply.player}>",
            "Delivered-To": reply.address,
            "Message-ID": f"<{reply.message_id}>",
            "From": f"Ada <{reply.player}>",
            "To": reply.address,
            "Subject": "Re: your move",
            "Received": ["by mx.example.org ...", "by mail.example.org ..."],
        },
        "SpamScore": 0.4,
        "ExtractedMarkdownMessage": reply.command,
        "RawTextBody": f"{reply.command}\n",
        "RawHtmlBody": "",
        "Attachments": [],
    }
    return "/anymail/brevo/inbound/", {
        "data": json.dumps({"items": [item]}),
        "content_type": "application/json",
    }


def mailjet(reply: Reply) -> tuple[str, dict[str, Any]]:
    payload = {
        "Sender": reply.player,
        "Recipient": reply.address,
        "Date": "20261123T100000",
        "From": f"Ada <{reply.player}>",
        "Subject": "Re: your move",
        "Headers": {
            "Return-Path": [f"<{reply.player}>"],
            "Received": ["from mail.example.org by parse.mailjet.com ...", "by mail.example.org ..."],
            "Message-ID": f"<{reply.message_id}>",
            "From": f"Ada <{reply.player}>",
            "To": reply.address,
            "Subject": "Re: your move",
            "Content-Type": ['multipart/alternative; boundary="boundary0"'],
        },
        "Parts": [{"Headers": {"Content-Type": 'text/plain; charset="UTF-8"'}, "ContentRef": "Text-part"}],
        "Text-part": f"{reply.command}\n",
        "SpamAssassinScore": "1.7",
    }
    return "/anymail/mailjet/inbound/", {"data": json.dumps(payload), "content_type": "application/json"}


def sparkpost(reply: Reply) -> tuple[str, dict[str, Any]]:
    relay = {
        "content": {
            "email_rfc822": base64.b64encode(reply.raw).decode("ascii"),
            "email_rfc822_is_base64": True,
            "headers": [{"Message-ID": f"<{reply.message_id}>"}],
            "html": None,
            "subject": "Re: your move",
            "text": reply.command,
            "to": [reply.address],
        },
        "customer_id": "1234",
        "friendly_from": reply.player,
        "msg_from": reply.player,
        "rcpt_to": reply.address,
        "webhook_id": "1234567890",
        "protocol": "smtp",
    }
    payload = [{"msys": {"relay_message": relay}}]
    return "/anymail/sparkpost/inbound/", {"data": json.dumps(payload), "content_type": "application/json"}


def resend(reply: Reply) -> tuple[str, dict[str, Any]]:
    payload = {
        "type": "email.received",
        "created_at": "2026-11-23T10:00:00.000Z",
        "data": {
            "email_id": "4ef9a417-02e9-4d39-ad75-9611e0fcc33c",
            "created_at": "2026-11-23T10:00:00.000Z",
            "from": reply.player,
            "to": [reply.address],
            "subject": "Re: your move",
            "message_id": f"<{reply.message_id}>",
            "attachments": [],
        },
    }
    headers = {"HTTP_SVIX_ID": "msg_2abcdef", "HTTP_SVIX_TIMESTAMP": str(int(time.time()))}
    return "/anymail/resend/inbound/", {
        "data": json.dumps(payload),
        "content_type": "application/json",
        **headers,
    }


class ResendApi:
    """Resend's inbound webhook names the mail; anymail then fetches it from Resend's API
    (``GET /emails/receiving/<id>``, then the raw MIME's download URL): this plays that API."""

    def __init__(self, reply: Reply) -> None:
        self.reply = reply
        self.calls: list[str] = []

    def get(self, url: str, headers: dict[str, str] | None = None, stream: bool = False) -> Any:
        self.calls.append(url)
        if url.endswith("/emails/receiving/4ef9a417-02e9-4d39-ad75-9611e0fcc33c"):
            assert headers == {"Authorization": f"Bearer {KEYS['RESEND_API_KEY']}"}
            return _Response(
                json.dumps({"raw": {"download_url": "https://inbound-cdn.resend.com/raw/1.eml"}}).encode()
            )
        assert url == "https://inbound-cdn.resend.com/raw/1.eml", url
        return _Response(self.reply.raw)


class _Response:
    def __init__(self, body: bytes) -> None:
        self.body = body
        self.headers: dict[str, str] = {}

    def raise_for_status(self) -> None:
        pass

    def json(self) -> Any:
        return json.loads(self.body)

    def iter_content(self, size: int) -> Any:
        yield from (self.body[i : i + size] for i in range(0, len(self.body), size))

    def __enter__(self) -> _Response:
        return self

    def __exit__(self, *exc: object) -> None:
        pass


ESPS: dict[str, Callable[[Reply], tuple[str, dict[str, Any]]]] = {
    "mailgun": mailgun,
    "postmark": postmark,
    "sendgrid": sendgrid,
    "amazon_ses": amazon_ses,
    "brevo": brevo,
    "mailjet": mailjet,
    "sparkpost": sparkpost,
    "resend": resend,
}


@pytest.mark.parametrize("esp", ESPS)
@pytest.mark.filterwarnings("ignore::anymail.exceptions.AnymailNotSupportedWarning")
def test_a_reply_through_each_esps_inbound_webhook_is_applied(esp, client, monkeypatch):
    game, seat, reply = a_reply(f"esp-{esp}")
    if esp == "resend":
        api = ResendApi(reply)
        monkeypatch.setattr("anymail.webhooks.resend.requests.get", api.get)
    path, request = ESPS[esp](reply)
    response = client.post(path, **request, **AUTH)
    assert response.status_code == 200, response.content
    [row] = InboundMail.objects.all()
    # Resend names no envelope recipient (anymail fetches the mail alone): the reply address
    # in its To header is taken
    assert (row.via, row.recipient) == (InboundMail.Via.WEBHOOK, reply.address.lower())
    assert row.message_id == reply.message_id
    inbound.process(row.pk)
    row.refresh_from_db()
    assert row.status == InboundMail.Status.APPLIED, row.outcome
    [event] = game.events.filter(seat=seat, source="mail")
    assert event.command_text == reply.command
    assert client.post(path, **request, **AUTH).status_code == 200  # the ESP's retry: a duplicate
    assert InboundMail.objects.count() == 1


@pytest.mark.parametrize("esp", ESPS)
@pytest.mark.filterwarnings("ignore::anymail.exceptions.AnymailNotSupportedWarning")
def test_each_esps_webhook_refuses_a_call_without_the_secret(esp, client):
    _, _, reply = a_reply(f"esp-auth-{esp}")
    path, request = ESPS[esp](reply)
    wrong = {"HTTP_AUTHORIZATION": "Basic " + base64.b64encode(b"hook:guess").decode()}
    assert client.post(path, **request, **wrong).status_code in (400, 401, 403)
    assert not InboundMail.objects.exists()


# --- an ESP the service is not set up for: 503, the call kept, one log line, replayed later ------


def misconfigured_lines(caplog) -> list[str]:
    return [
        r.getMessage() for r in caplog.records if r.name == "notifications.urls" and r.levelname == "ERROR"
    ]


def test_brevo_without_its_api_key_is_told_to_retry_and_the_call_is_kept_for_later(client, settings, caplog):
    game, seat, reply = a_reply("esp-brevo-key")
    settings.ANYMAIL = {"WEBHOOK_SECRET": SECRET}  # no BREVO_API_KEY
    path, request = brevo(reply)
    assert client.post(path, **request, **AUTH).status_code == 503
    assert not InboundMail.objects.exists()
    [call] = WebhookCall.objects.all()
    [line] = misconfigured_lines(caplog)
    assert "BREVO_API_KEY" in line and f"webhook call {call.pk}" in line and "\n" not in line
    assert "Authorization" not in json.dumps(call.headers) and "HTTP_AUTHORIZATION" not in call.headers

    settings.ANYMAIL = dict(KEYS)
    call_command("replay_webhooks", stdout=io.StringIO())
    call.refresh_from_db()
    assert call.replayed_at is not None
    [row] = InboundMail.objects.all()
    inbound.process(row.pk)
    assert game.events.filter(seat=seat, source="mail", command_text=reply.command).count() == 1


def test_amazon_ses_without_boto3_is_told_to_retry_and_the_call_is_kept_for_later(
    client, monkeypatch, caplog
):
    game, seat, reply = a_reply("esp-ses-boto3")
    missing = _LazyError(AnymailImproperlyInstalled(missing_package="boto3", install_extra="amazon-ses"))
    with monkeypatch.context() as patched:  # as anymail behaves where boto3 is not installed
        patched.setattr("anymail.webhooks.amazon_ses._get_anymail_boto3_params", missing)
        path, request = amazon_ses(reply)
        assert client.post(path, **request).status_code == 401  # SNS sends credentials when asked
        assert client.post(path, **request, **AUTH).status_code == 503
    assert WebhookCall.objects.count() == 1
    [line] = misconfigured_lines(caplog)
    assert "boto3" in line and "amazon_ses_inbound_webhook" in line
    call_command("replay_webhooks", stdout=io.StringIO())
    [row] = InboundMail.objects.all()
    inbound.process(row.pk)
    assert game.events.filter(seat=seat, source="mail", command_text=reply.command).count() == 1
    out = io.StringIO()
    call_command("replay_webhooks", stdout=out)  # done once: nothing left to run
    assert out.getvalue() == ""


def test_a_misconfigured_webhook_keeps_nothing_from_callers_without_the_secret(client, settings):
    _, _, reply = a_reply("esp-brevo-stranger")
    settings.ANYMAIL = {"WEBHOOK_SECRET": SECRET}
    path, request = brevo(reply)
    wrong = {"HTTP_AUTHORIZATION": "Basic " + base64.b64encode(b"hook:guess").decode()}
    assert client.post(path, **request, **wrong).status_code == 400
    assert not WebhookCall.objects.exists()


# --- the null sender through a webhook ------------------------------------------------------------


@pytest.mark.parametrize("esp", ["mailgun", "postmark", "sparkpost"])
def test_a_mail_from_the_null_sender_through_a_webhook_is_never_answered(esp, client):
    _, _, reply = a_reply(f"esp-null-{esp}")
    reply = Reply(
        reply.address, reply.player, "help", reply.message_id, compose(reply.address, reply.player, "help")
    )
    path, request = ESPS[esp](reply)
    body = request["data"]
    if esp == "mailgun":
        body["sender"] = ""
    elif esp == "postmark":  # the Return-Path Postmark puts first
        body = body.replace(f'"<{reply.player}>"', '"<>"')
    else:
        body = body.replace(f'"msg_from": "{reply.player}"', '"msg_from": ""')
    response = client.post(path, **{**request, "data": body}, **AUTH)
    assert response.status_code == 200
    [row] = InboundMail.objects.all()
    inbound.process(row.pk)
    row.refresh_from_db()
    assert (row.envelope_from, row.status) == ("<>", InboundMail.Status.IGNORED)
    assert not OutboundMail.objects.filter(key__startswith=f"in{row.pk}:").exists()


def test_resend_with_its_inbound_signing_secret_takes_a_signed_call_and_refuses_a_forged_one(
    client, settings, monkeypatch
):
    from datetime import UTC, datetime

    from svix.webhooks import Webhook  # the `resend` extra

    secret = "whsec_" + base64.b64encode(b"resend-inbound-secret").decode()
    settings.ANYMAIL = {**KEYS, "RESEND_INBOUND_SECRET": secret}
    game, seat, reply = a_reply("esp-resend-svix")
    monkeypatch.setattr("anymail.webhooks.resend.requests.get", ResendApi(reply).get)
    path, request = resend(reply)
    now = datetime.now(tz=UTC)
    signature = Webhook(secret).sign(msg_id="msg_2abcdef", timestamp=now, data=request["data"])
    signed = {**request, "HTTP_SVIX_TIMESTAMP": str(int(now.timestamp())), "HTTP_SVIX_SIGNATURE": signature}
    forged = {**signed, "HTTP_SVIX_SIGNATURE": "v1,Zm9yZ2Vk"}
    assert client.post(path, **forged, **AUTH).status_code == 400
    assert not InboundMail.objects.exists()
    assert client.post(path, **signed, **AUTH).status_code == 200
    [row] = InboundMail.objects.all()
    inbound.process(row.pk)
    assert game.events.filter(seat=seat, source="mail", command_text=reply.command).count() == 1


# --- one mail to two games' reply addresses: one move in each ---------------------------------


def to_both(esp: str, request: dict[str, Any], first: str, second: str) -> dict[str, Any]:
    """The ESP's request for a mail addressed to both reply addresses, where the ESP lists its
    recipients: SendGrid's envelope, Amazon SES's receipt, the parsed To of Postmark, Brevo and
    Mailjet (Mailgun, SparkPost and Resend carry the whole mail, already addressed to both)."""
    both = f"{first}, {second}"
    data = request["data"]
    if esp == "sendgrid":
        envelope = json.loads(data["envelope"])
        data = {
            **data,
            "to": both,
            "headers": data["headers"].replace(f"To: {first}\n", f"To: {both}\n"),
            "envelope": json.dumps({**envelope, "to": [first, second]}),
        }
    elif esp == "amazon_ses":
        sns = json.loads(data)
        ses_event = json.loads(sns["Message"])
        ses_event["mail"]["destination"] = ses_event["receipt"]["recipients"] = [first, second]
        data = json.dumps({**sns, "Message": json.dumps(ses_event)})
    elif esp == "postmark":
        payload = json.loads(data)
        payload["ToFull"].append({"Email": second, "Name": "", "MailboxHash": ""})
        payload["To"] = both
        data = json.dumps(payload)
    elif esp in ("brevo", "mailjet"):
        payload = json.loads(data)
        item = payload["items"][0] if esp == "brevo" else payload
        item["Headers"]["To"] = both
        if esp == "brevo":
            item["To"].append({"Name": None, "Address": second})
        data = json.dumps(payload)
    return {**request, "data": data}


@pytest.mark.parametrize("esp", ESPS)
@pytest.mark.filterwarnings("ignore::anymail.exceptions.AnymailNotSupportedWarning")
def test_one_mail_to_two_games_through_each_esp_moves_once_in_each(esp, client, monkeypatch):
    first, seat, reply = a_reply(f"esp-twin-{esp}")
    second, same_seat, other = a_reply(f"esp-twin-{esp}")
    assert (same_seat, other.player, other.command) == (seat, reply.player, reply.command)
    raw = compose(f"{reply.address}, {other.address}", reply.player, reply.command)
    reply = Reply(reply.address, reply.player, reply.command, inbound.message_id_of(raw), raw)
    if esp == "resend":
        monkeypatch.setattr("anymail.webhooks.resend.requests.get", ResendApi(reply).get)
    path, request = ESPS[esp](reply)
    request = to_both(esp, request, reply.address, other.address)
    assert client.post(path, **request, **AUTH).status_code == 200, esp
    rows = list(InboundMail.objects.order_by("pk"))
    assert sorted(r.recipient for r in rows) == sorted([reply.address.lower(), other.address.lower()])
    for row in rows:
        inbound.process(row.pk)
    for game in (first, second):
        [event] = game.events.filter(seat=seat, source="mail")
        assert event.command_text == reply.command
    assert client.post(path, **request, **AUTH).status_code == 200  # the ESP's retry: duplicates
    assert InboundMail.objects.count() == 2


def test_a_mail_forwarded_to_the_esps_own_address_moves_once_in_each_game(client):
    """Postmark's OriginalRecipient is its own hash address when the operator's server forwards
    the reply domain there: the seats come from the mail's reply addresses, each once."""
    first, seat, reply = a_reply("esp-forwarded")
    second, _, other = a_reply("esp-forwarded")
    raw = compose(f"{reply.address}, {other.address}", reply.player, reply.command)
    reply = Reply(reply.address, reply.player, reply.command, inbound.message_id_of(raw), raw)
    path, request = postmark(reply)
    request = to_both("postmark", request, reply.address, other.address)
    payload = json.loads(request["data"])
    payload["OriginalRecipient"] = "1f3a9c0e2b7d4e5f@inbound.postmarkapp.com"
    assert client.post(path, **{**request, "data": json.dumps(payload)}, **AUTH).status_code == 200
    rows = list(InboundMail.objects.order_by("pk"))
    assert sorted(r.recipient for r in rows) == sorted([reply.address.lower(), other.address.lower()])
    for row in rows:
        inbound.process(row.pk)
    assert [r.status for r in InboundMail.objects.all()] == [InboundMail.Status.APPLIED] * 2
    for game in (first, second):
        assert game.events.filter(seat=seat, source="mail").count() == 1
