"""The ESP webhooks (django-anymail), guarded.

* No ``WEBHOOK_SECRET``: every call is answered 503 (anymail alone would accept unauthenticated
  calls with a mere warning), so the ESPs keep the mail and try again once it is set.
* An ESP the service is not set up for (a missing API key such as ``ANYMAIL_BREVO_API_KEY``, a
  missing package such as boto3 for Amazon SES): an authenticated call is kept whole as a
  ``WebhookCall`` and answered 503, so the ESP tries again and nothing is lost meanwhile; the
  log says in one line what is missing; ``manage.py replay_webhooks`` runs the kept calls once
  it is fixed.  (A 5xx is what every ESP retries on; SNS is told 401 first to send credentials.)
* Credentials are checked here, before anymail reads a byte of the body: a call without them is
  answered 401 (with the Basic challenge SNS waits for), one with wrong ones 400; an
  authenticated Amazon SES call whose body is not an SNS message of the type its header names,
  and any call anymail's own checks refuse (a signature, a header that does not match the
  body), 400.  Each refusal is one warning line, never a traceback: the Internet sends such
  calls all day, and a 500 would make a real ESP retry a call that can never succeed.
"""

from __future__ import annotations

import base64
import hmac
import json
import logging
from collections.abc import Callable
from functools import wraps
from typing import Any

from anymail import urls as anymail_urls
from anymail.exceptions import (
    AnymailConfigurationError,
    AnymailImproperlyInstalled,
    AnymailWebhookValidationFailure,
)
from django.conf import settings
from django.core.exceptions import ImproperlyConfigured
from django.http import HttpRequest, HttpResponse
from django.urls import URLPattern, re_path

from notifications.models import WebhookCall
from notifications.services.redact import one_line

log = logging.getLogger(__name__)

# what anymail raises when an ESP's settings or packages are missing
MISCONFIGURED = (AnymailImproperlyInstalled, AnymailConfigurationError, ImproperlyConfigured, ImportError)
# what reading a body of the wrong shape raises (JSON and UTF-8 errors are ValueErrors); an error
# of another kind (the database away, a bug) stays a 500, which the ESP retries
UNREADABLE = (ValueError, LookupError, TypeError, AttributeError)
_NOT_KEPT = {"HTTP_AUTHORIZATION", "HTTP_COOKIE", "HTTP_PROXY_AUTHORIZATION"}


def secrets() -> list[str]:
    """The ``user:password`` pairs the webhooks accept (anymail takes one or a list)."""
    value: str | list[str] = settings.ANYMAIL.get("WEBHOOK_SECRET") or []
    return [value] if isinstance(value, str) else [str(v) for v in value]


def basic_auth(secret: str) -> str:
    return "Basic " + base64.b64encode(secret.encode()).decode()


def _authenticated(request: HttpRequest) -> bool:
    given = request.META.get("HTTP_AUTHORIZATION", "")
    return any(hmac.compare_digest(given.encode(), basic_auth(s).encode()) for s in secrets())


def _guarded(view: Callable[..., HttpResponse], name: str) -> Callable[..., HttpResponse]:
    @wraps(view)
    def guarded(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        if not secrets():
            log.error("webhook %s answered 503: WEBHOOK_SECRET is not set", name)
            return HttpResponse("Webhooks are not set up yet (WEBHOOK_SECRET); try again later.", status=503)
        if request.method == "POST":
            refused = _refusal(request, name)
            if refused is not None:
                return refused
        try:
            return view(request, *args, **kwargs)
        except MISCONFIGURED as error:
            return _misconfigured(request, name, error)
        except AnymailWebhookValidationFailure as error:
            return _refused(name, 400, one_line(error))
        except UNREADABLE as error:
            esp = getattr(getattr(view, "view_class", None), "esp_name", name)
            return _refused(name, 400, f"the body is not what {esp} sends ({_unreadable(error)})")

    return guarded


def _unreadable(error: BaseException) -> str:
    if isinstance(error, UnicodeDecodeError):
        return "not UTF-8"
    if isinstance(error, json.JSONDecodeError):
        return "not JSON"
    return f"{type(error).__name__}: {one_line(error)}"[:200]


SNS_TYPES = ("Notification", "SubscriptionConfirmation", "UnsubscribeConfirmation")


def _refusal(request: HttpRequest, name: str) -> HttpResponse | None:
    """The answer to a call refused before anymail parses it, or None to let it through."""
    if "HTTP_AUTHORIZATION" not in request.META:  # SNS sends credentials only when asked
        # SNS's first try of every call: the challenge, said at INFO, is its normal path
        response = _refused(name, 401, "no credentials", level=logging.INFO)
        response["WWW-Authenticate"] = 'Basic realm="Anymail WEBHOOK_SECRET"'
        return response
    if not _authenticated(request):
        return _refused(name, 400, "wrong credentials")
    if name.startswith("amazon_ses"):
        problem = _not_sns(request)
        if problem:
            return _refused(name, 400, problem)
    return None


def _not_sns(request: HttpRequest) -> str:
    """What keeps an authenticated call from being an SNS message (anymail would answer it with
    a 500), or "" when it is one."""
    try:
        body = json.loads(request.body.decode("utf-8"))
    except (UnicodeDecodeError, ValueError):
        return "the body is not JSON"
    kind = request.META.get("HTTP_X_AMZ_SNS_MESSAGE_TYPE", "")
    if not isinstance(body, dict) or body.get("Type") not in SNS_TYPES:
        return "the body is not an SNS message"
    if body.get("Type") != kind:
        return "the SNS message type header does not match the body"
    return ""


def _refused(name: str, status: int, why: str, level: int = logging.WARNING) -> HttpResponse:
    log.log(level, "webhook %s refused (%s): %s", name, status, why)
    response = HttpResponse(f"Refused: {why}.", status=status, content_type="text/plain; charset=utf-8")
    response._has_been_logged = True  # type: ignore[attr-defined]  # the line above is its log line
    return response


def _misconfigured(request: HttpRequest, name: str, error: BaseException) -> HttpResponse:
    refused = _refusal(request, name)
    if refused is not None:  # a HEAD, say, of a view that cannot even start
        return refused
    problem = one_line(error)
    headers = {k: str(v) for k, v in request.META.items() if k.startswith("HTTP_") and k not in _NOT_KEPT}
    call = WebhookCall.objects.create(
        name=name,
        path=request.path,
        content_type=request.META.get("CONTENT_TYPE", ""),
        headers=headers,
        body=request.body,
        problem=problem,
    )
    log.error(
        "webhook %s cannot run (%s): kept as webhook call %s and answered 503 so the ESP retries; "
        "fix it, then manage.py replay_webhooks",
        name,
        problem,
        call.pk,
    )
    return HttpResponse("This mail service is not set up completely; try again later.", status=503)


urlpatterns: list[URLPattern] = [
    re_path(str(p.pattern), _guarded(p.callback, p.name or ""), name=p.name or "")
    for p in anymail_urls.urlpatterns
    if isinstance(p, URLPattern)
]
