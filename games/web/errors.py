"""The error pages (400, 403, the CSRF failure, 404, 500) as the site's other pages are: its
layout (``games/base.html``: header, viewport, ``lang``), the reader's language (the switcher's
cookie, else Accept-Language: ``LocaleMiddleware`` has chosen it before a view runs) and a
sentence on what to do next.  Wired in ``whitelotus.urls`` (``handler400`` …) and
``settings.CSRF_FAILURE_VIEW``; Django uses them only with ``DEBUG`` off.

A 404 is most often an old link: a seat's or a player's page whose link was replaced by a new
one (a moderator handed the seat on, or the player made a new link).  The page says where the
current one is: at the end of the newest mail of the game, and in the answer to ``status``.
"""

from __future__ import annotations

import logging

from django.http import HttpRequest, HttpResponse
from django.template.loader import render_to_string

log = logging.getLogger(__name__)

_FALLBACK = "<!doctype html><title>{status}</title><h1>{status}</h1>"


def bad_request(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    return _page(request, "400", 400)


def permission_denied(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    return _page(request, "403", 403)


def csrf_failure(request: HttpRequest, reason: str = "") -> HttpResponse:
    """A form sent from a page that stayed open too long, or with cookies blocked."""
    return _page(request, "403_csrf", 403)


def not_found(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    return _page(request, "404", 404)


def server_error(request: HttpRequest) -> HttpResponse:
    return _page(request, "500", 500)


def _page(request: HttpRequest, name: str, status: int) -> HttpResponse:
    try:
        html: str = render_to_string(f"games/errors/{name}.html", {"status": status}, request=request)
    except Exception:  # an error page must never fail in turn
        log.exception("the error page %s could not be rendered", name)
        html = _FALLBACK.format(status=status)
    return HttpResponse(html, status=status)
