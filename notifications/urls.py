"""The ESP webhooks (django-anymail), refused outright while no ``WEBHOOK_SECRET`` is set:
anymail alone would accept unauthenticated calls with a mere warning."""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any

from anymail import urls as anymail_urls
from django.conf import settings
from django.http import HttpRequest, HttpResponse, HttpResponseForbidden
from django.urls import URLPattern, re_path


def _guarded(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    @wraps(view)
    def guarded(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        if not settings.ANYMAIL.get("WEBHOOK_SECRET"):
            return HttpResponseForbidden("Webhooks are off: set WEBHOOK_SECRET.")
        return view(request, *args, **kwargs)

    return guarded


urlpatterns: list[URLPattern] = [
    re_path(str(p.pattern), _guarded(p.callback), name=p.name or "")
    for p in anymail_urls.urlpatterns
    if isinstance(p, URLPattern)
]
