"""What the site does against a hostile request before any view sees it: a path or query that
carries a NUL or bytes that are not UTF-8 is refused with 400 (Postgres cannot hold NUL in a
text field, so a seat key with one was a 500), and the client's address for the admin login's
throttle (django-axes, settings ``AXES_*``) is read behind the reverse proxy."""

from __future__ import annotations

from collections.abc import Callable
from urllib.parse import unquote_to_bytes

from django.conf import settings
from django.http import HttpRequest, HttpResponse

from games import errors


def bad_bytes(request: HttpRequest) -> bool:
    """Whether the request's path holds a control character (NUL above all) or bytes that are
    not UTF-8, or its query string a NUL or such bytes.  Django hands a view the path with
    broken UTF-8 escaped again as ``%XX`` (``repercent_broken_unicode``), so escapes that do
    not decode are what is left of them; no route of this site takes a literal percent sign."""
    path = request.path_info
    if any(ord(ch) < 0x20 or ord(ch) == 0x7F for ch in path):
        return True
    try:
        unquote_to_bytes(path).decode("utf-8")
        query = unquote_to_bytes(request.META.get("QUERY_STRING", "").replace("+", " "))
        query.decode("utf-8")
    except UnicodeError:
        return True
    return b"\x00" in query


class RefuseBadBytesMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if bad_bytes(request):
            return errors.bad_request(request)
        return self.get_response(request)


def client_address(request: HttpRequest) -> str:
    """The address a request came from: with ``PROXY_COUNT`` proxies in front, each of which
    appends the address it was reached from to X-Forwarded-For, the client is that many places
    from the header's end (what a client wrote there itself stands before it and is ignored)."""
    remote = str(request.META.get("REMOTE_ADDR", ""))
    count = int(getattr(settings, "PROXY_COUNT", 0))
    if count <= 0:
        return remote
    hops = [
        hop.strip() for hop in str(request.META.get("HTTP_X_FORWARDED_FOR", "")).split(",") if hop.strip()
    ]
    return hops[-count] if len(hops) >= count else remote
