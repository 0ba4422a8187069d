"""Reply tokens and page keys (seats', players') are credentials: cut out of all that is logged.

No Django models here: the logging filter is configured before the apps are loaded."""

from __future__ import annotations

import logging
import re

# 26 base32 characters after the "+" (or "-", REPLY_SEPARATOR) of a reply address (see
# notifications.tokens)
_TOKEN = re.compile(r"([+-])([a-z2-7]{26})@", re.IGNORECASE)
# the key in a private seat page's path, /games/seat/<key>/ (see games.links)
_SEAT_KEY = re.compile(r"/seat/([a-z2-7]{26})\b", re.IGNORECASE)
# the key in a player's own page's path, /me/<key>/ (see games.links)
_PLAYER_KEY = re.compile(r"/me/([a-z2-7]{26})\b", re.IGNORECASE)


def redact(text: str) -> str:
    """Cut reply tokens and page keys out of text that is going to a log."""
    text = _PLAYER_KEY.sub("/me/[key]", _SEAT_KEY.sub("/seat/[key]", text))
    return _TOKEN.sub(r"\1[token]@", text)


class RedactTokens(logging.Filter):
    """A logging filter (settings.LOGGING, and gunicorn's access log in whitelotus.wsgi) that
    cuts credentials out of every record, whoever logs it: aiosmtpd logs each recipient
    address, Celery its task arguments, the web servers each request's path."""

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        if "@" in message or "/seat/" in message or "/me/" in message:
            record.msg, record.args = redact(message), None
        return True


def one_line(error: BaseException, limit: int = 500) -> str:
    """An error for the operator's log (never for a sender: the text can name hosts, users and
    paths): ``Type: text`` on one line, credentials cut, at most ``limit`` characters."""
    text = redact(" ".join(str(error).split()))
    return (f"{type(error).__name__}: {text}" if text else type(error).__name__)[:limit]
