"""Reply tokens and page keys (seats', players') are credentials: cut out of all that is logged.

No Django models here: the logging filter is configured before the apps are loaded."""

from __future__ import annotations

import functools
import logging
import re

# 26 base32 characters after the "+" (or "-", REPLY_SEPARATOR) of a reply address (see
# notifications.services.tokens), whatever the address's prefix
_TOKEN = re.compile(r"([+-])([a-z2-7]{26})@", re.IGNORECASE)
# what ends a key in a path, a URL or a line of log: a key is never shorter than the run up to it
_END = r"/?#\s\"'<>;,()\[\]{}|\\"
# the key in a private seat page's path, /games/seat/<key>/ (games.services.links), and in a player's own
# page's, /me/<key>/: everything after the slash up to the next delimiter, so that a key cut
# short (a link copied in part, a line cut at a length) or run into other text goes too;
# also where the path is percent-encoded (a ``next=`` query)
_PAGE_KEY = re.compile(rf"(/|%2f)(seat|me)(/|%2f)[^{_END}]+?(?=%2f|[{_END}]|$)", re.IGNORECASE)


def _reply_prefix() -> re.Pattern[str] | None:
    """The service's own reply addresses, ``<REPLY_PREFIX><+ or -><token>``: the run after the
    separator is a token, or the beginning of one, wherever it ends (an address cut short).
    None before the settings can be read: Django is imported here, at log time, because the
    filter is set up before the settings are and the MTA pipe imports this module before it
    tries Django at all (a broken Django must still end the pipe in one line)."""
    try:
        from django.conf import settings
        from django.core.exceptions import ImproperlyConfigured
    except ImportError:
        return None
    try:
        prefix = str(getattr(settings, "REPLY_PREFIX", "") or "play")
    except ImproperlyConfigured:
        return None
    return _compiled(prefix)


@functools.cache
def _compiled(prefix: str) -> re.Pattern[str]:
    return re.compile(rf"\b({re.escape(prefix)}[+-])[a-z2-7]+(?=[@>\s\"',;)\]]|$)", re.IGNORECASE)


def redact(text: str) -> str:
    """Cut reply tokens and page keys, whole or any part of one, out of text that is going to a
    log."""
    text = _PAGE_KEY.sub(lambda m: f"{m[1]}{m[2]}{m[3]}[key]", text)
    text = _TOKEN.sub(r"\1[token]@", text)
    prefix = _reply_prefix()
    # logged before the settings exist: the whole tokens are cut already
    return prefix.sub(r"\1[token]", text) if prefix else text


class RedactTokens(logging.Filter):
    """A logging filter (settings.LOGGING, and gunicorn's access log in whitelotus.wsgi) that
    cuts credentials out of every record, whoever logs it: aiosmtpd logs each recipient
    address, Celery its task arguments, the web servers each request's path."""

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        redacted = redact(message)
        if redacted != message:
            record.msg, record.args = redacted, None
        return True


def one_line(error: BaseException, limit: int = 500) -> str:
    """An error for the operator's log (never for a sender: the text can name hosts, users and
    paths): ``Type: text`` on one line, credentials cut, at most ``limit`` characters."""
    text = redact(" ".join(str(error).split()))
    return (f"{type(error).__name__}: {text}" if text else type(error).__name__)[:limit]
