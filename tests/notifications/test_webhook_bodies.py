"""No webhook answers 500 for what an authenticated caller posts: a body that is not JSON, JSON cut
short, JSON of the wrong shape or types, a form of strangers' fields.  Each such call is refused
400 with a sentence saying why, in one log line; a 500 would make the ESP retry a call that can
never succeed.  Every ESP's inbound and tracking URL is posted to, with each ESP's keys set so
that its own checks pass where they do not sign the body."""

from __future__ import annotations

import base64
import json
import logging

import pytest
from anymail import urls as anymail_urls
from django.urls import URLPattern
from hypothesis import HealthCheck, given
from hypothesis import settings as hypothesis_settings
from hypothesis import strategies as st

from notifications.models import InboundMail

pytestmark = [
    pytest.mark.django_db,
    # every URL anymail serves is posted to, its deprecated and unsupported ESPs' too
    pytest.mark.filterwarnings("ignore::anymail.exceptions.AnymailDeprecationWarning"),
    pytest.mark.filterwarnings("ignore::anymail.exceptions.AnymailNotSupportedWarning"),
]

SECRET = "hook:s3cret"
AUTH = {"HTTP_AUTHORIZATION": "Basic " + base64.b64encode(SECRET.encode()).decode()}
KEYS = {
    "WEBHOOK_SECRET": SECRET,
    "MAILGUN_WEBHOOK_SIGNING_KEY": "mailgun-signing-key",
    "BREVO_API_KEY": "brevo-api-key",
    "RESEND_API_KEY": "re_test_key",
    "POSTMARK_SERVER_TOKEN": "postmark-token",
    "MAILJET_API_KEY": "mailjet-key",
    "MAILJET_SECRET_KEY": "mailjet-secret",
    "SPARKPOST_API_KEY": "sparkpost-key",
    "SENDGRID_API_KEY": "sendgrid-key",
    "MAILTRAP_API_TOKEN": "mailtrap-token",
}


def _path(pattern: URLPattern) -> str:
    text = str(pattern.pattern).lstrip("^").rstrip("$").replace("(_mime)?", "")
    return f"/anymail/{text}"


PATHS = sorted(_path(p) for p in anymail_urls.urlpatterns if isinstance(p, URLPattern))

#: bodies that are no ESP's: each (content type, bytes)
BODIES = {
    "plain text": ("text/plain", b"hello, this is not JSON"),
    "text as JSON": ("application/json", b"hello, this is not JSON"),
    "truncated JSON": ("application/json", b'{"FromFull": {"Email": "ada@example.org", "Na'),
    "not UTF-8": ("application/json", b'{"TextBody": "\xff\xfe\xfa"}'),
    "a JSON list": ("application/json", b"[1, 2, 3]"),
    "a JSON number": ("application/json", b"42"),
    "a JSON string": ("application/json", b'"a string"'),
    "JSON null": ("application/json", b"null"),
    "an empty object": ("application/json", b"{}"),
    "wrong types": (
        "application/json",
        json.dumps(
            {
                "FromFull": "ada",
                "ToFull": "nobody",
                "Headers": 7,
                "Attachments": {"a": 1},
                "RawEmail": 3,
                "msys": [1],
                "event": ["x"],
                "events": {"x": 1},
                "items": "none",
                "data": 5,
                "type": ["inbound"],
                "Type": "Notification",
                "mandrill_events": 4,
            }
        ).encode(),
    ),
    "an empty body": ("application/json", b""),
    "a form of strangers": ("application/x-www-form-urlencoded", b"a=1&b=%FF&mandrill_events=%7B"),
    "a form with a JSON field cut short": (
        "application/x-www-form-urlencoded",
        b"mandrill_events=%5B%7B%22event%22%3A&envelope=%7B",
    ),
}


@pytest.fixture(autouse=True)
def anymail_settings(settings):
    settings.ANYMAIL = dict(KEYS)


def post(client, path: str, content_type: str, body: bytes):
    return client.generic("POST", path, body, content_type=content_type, **AUTH)


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize("kind", sorted(BODIES))
def test_no_webhook_answers_500_to_a_body_that_is_not_its_esps(client, path, kind, caplog):
    content_type, body = BODIES[kind]
    with caplog.at_level(logging.INFO):
        response = post(client, path, content_type, body)
    assert response.status_code != 500, (path, kind)
    assert response.status_code in (200, 400, 503), (path, kind, response.status_code)
    if response.status_code == 400:
        assert response.content.decode().startswith("Refused: "), response.content
    assert not [r for r in caplog.records if r.exc_info], "a refusal is one line, never a traceback"


def test_postmark_with_a_body_that_is_not_json_is_refused_saying_so(client, caplog):
    response = post(client, "/anymail/postmark/inbound/", "application/json", b"not json at all")
    assert response.status_code == 400
    assert response.content.decode() == "Refused: the body is not what Postmark sends (not JSON)."
    [line] = [r.getMessage() for r in caplog.records if r.name == "notifications.urls"]
    assert (
        line
        == "webhook postmark_inbound_webhook refused (400): the body is not what Postmark sends (not JSON)"
    )
    assert not InboundMail.objects.exists()


JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=12,
)
#: field names the ESPs' payloads use, so that generated bodies reach past the first lookup
NAMES = st.sampled_from(
    [
        "FromFull",
        "ToFull",
        "CcFull",
        "Headers",
        "RawEmail",
        "Attachments",
        "msys",
        "relay_message",
        "content",
        "email_rfc822",
        "event",
        "events",
        "items",
        "data",
        "type",
        "Type",
        "Message",
        "message",
        "Sender",
        "Recipient",
        "MessageID",
        "RecordType",
        "Uploads",
        "email",
    ]
)
SHAPED = st.dictionaries(NAMES, JSON, max_size=6) | st.lists(
    st.dictionaries(NAMES, JSON, max_size=4), max_size=2
)


@hypothesis_settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(path=st.sampled_from(PATHS), body=SHAPED | JSON, cut=st.integers(min_value=0, max_value=40))
def test_no_webhook_answers_500_to_any_json_body(client, path, body, cut):
    text = json.dumps(body).encode()
    for sent in (text, text[: len(text) - cut]):
        response = post(client, path, "application/json", sent)
        assert response.status_code in (200, 400, 503), (path, sent, response.status_code)
