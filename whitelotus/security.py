"""What the site does against a hostile request before any view sees it: a path or query that
carries a NUL or bytes that are not UTF-8 is refused with 400 (Postgres cannot hold NUL in a
text field, so a seat key with one was a 500), and the client's address for the admin login's
throttle (django-axes, settings ``AXES_*``) is read behind the reverse proxies the site trusts."""

from __future__ import annotations

import functools
from collections.abc import Callable
from ipaddress import IPv4Network, IPv6Network, ip_address, ip_network
from urllib.parse import unquote_to_bytes

from django.conf import settings
from django.http import HttpRequest, HttpResponse

from games.web import errors


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
    """The address a request came from.  ``REMOTE_ADDR`` unless that is one of
    ``TRUSTED_PROXIES``; only then is X-Forwarded-For read, from its end (each proxy appends the
    address it was reached from), past every trusted proxy, to the first address that is none:
    the client.  What a client wrote into the header itself stands before that and is never
    read, and a client that reaches gunicorn without a proxy is its ``REMOTE_ADDR``."""
    address = str(request.META.get("REMOTE_ADDR", ""))
    trusted = _networks(tuple(getattr(settings, "TRUSTED_PROXIES", ())))
    hops = str(request.META.get("HTTP_X_FORWARDED_FOR", "")).split(",")
    while _trusted(address, trusted) and hops:
        hop = hops.pop().strip()
        if hop:
            address = hop
    return address


@functools.cache
def _networks(entries: tuple[str, ...]) -> tuple[IPv4Network | IPv6Network, ...]:
    return tuple(ip_network(entry.strip(), strict=False) for entry in entries if entry.strip())


def _trusted(address: str, networks: tuple[IPv4Network | IPv6Network, ...]) -> bool:
    try:
        ip = ip_address(address)
    except ValueError:  # not an address at all: nothing a proxy of ours would be
        return False
    return any(ip.version == net.version and ip in net for net in networks)
