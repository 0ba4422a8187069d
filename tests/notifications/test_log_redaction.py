"""No part of a credential reaches the log: a seat page's or a player page's key, or a reply
token, is cut out whole or in part (a link copied short, a line cut at a length), through the
handler the site really logs with."""

from __future__ import annotations

import io
import logging
from collections.abc import Iterator

import pytest
from django.test import Client

from games.services import links
from notifications.services import tokens
from notifications.services.redact import RedactTokens, redact
from tests.games.factories import running_game

pytestmark = pytest.mark.django_db

LENGTHS = (1, 4, 9, 13, 20, 25)  # a key is 26 characters; the whole key is pinned in test_pipeline


@pytest.fixture
def log() -> Iterator[io.StringIO]:
    """What the handlers of Django's request log write (the site's console handler, filtered)."""
    logger: logging.Logger | None = logging.getLogger("django.request")
    handlers: list[logging.StreamHandler] = []  # type: ignore[type-arg]
    while logger is not None:
        handlers += [h for h in logger.handlers if isinstance(h, logging.StreamHandler)]
        logger = logger.parent if logger.propagate else None
    handlers = [h for h in handlers if not type(h).__module__.startswith("_pytest")]
    assert handlers and all(any(isinstance(f, RedactTokens) for f in h.filters) for h in handlers)
    written = io.StringIO()
    before = [h.setStream(written) for h in handlers]
    try:
        yield written
    finally:
        for handler, stream in zip(handlers, before, strict=True):
            handler.setStream(stream)


@pytest.mark.parametrize("length", LENGTHS)
def test_a_page_key_cut_short_is_not_logged_at_any_length(log, length):
    game = running_game(3, seed=f"redact-{length}")
    seat = game.seats.get(position=0)
    for page, key in (("/games/seat/", links.seat_key(seat)), ("/me/", links.player_key(seat.player))):
        part = key[:length]
        for path in (f"{page}{part}/", f"{page}{part}/new-link/", f"{page}{part}%2f/"):
            assert Client().get(path).status_code in (404, 405), path  # new-link takes a POST
    written = log.getvalue()
    assert written.count("/games/seat/[key]") == 3, written
    assert written.count(" /me/[key]") == 3, written
    assert f"/seat/{links.seat_key(seat)[:length]}" not in written
    assert f"/me/{links.player_key(seat.player)[:length]}" not in written


@pytest.mark.parametrize("length", LENGTHS)
def test_a_reply_token_cut_short_is_not_logged_at_any_length(length):
    seat = running_game(3, seed=f"redact-token-{length}").seats.get(position=1)
    address = tokens.reply_address(seat)
    token = address.split("+", 1)[1].split("@")[0]
    written = io.StringIO()
    handler = logging.StreamHandler(written)
    handler.addFilter(RedactTokens())
    logger = logging.getLogger("tests.redaction")
    logger.addHandler(handler)
    try:
        for text in (f"to play+{token[:length]}", f"to <play+{token[:length]}>, ok", f"to {address}"):
            logger.warning("mail %s", text)
    finally:
        logger.removeHandler(handler)
    assert token[: max(length, 4)] not in written.getvalue()
    assert written.getvalue().count("play+[token]") == 3


def test_what_is_no_credential_stays_as_it_was():
    for text in (
        "to league-secretary@example.org",
        "played a play-by-email game",
        "GET /games/12/replay/3/ HTTP/1.1",
        "GET /leagues/me-and-you/ HTTP/1.1",
    ):
        assert redact(text) == text
