"""Driving the mail pipeline synchronously in tests: deliver the outbox, receive a reply; who a
seat is by mail, what a sent mail holds, and the database a mail process outside the tests
reaches."""

from __future__ import annotations

import re
from email.message import EmailMessage, Message
from email.utils import make_msgid
from urllib.parse import quote

import pytest
from django.core import mail as django_mail
from django.db import connection

from games import services
from games.models import Game
from games.rules import whitelotus as wl
from notifications.inbound import routing
from notifications.models import InboundMail, MailPreference, OutboundMail
from notifications.outbound import plaintext, sending
from notifications.services import tokens
from tests.games.factories import running_game


@pytest.fixture(autouse=True)
def mail_settings(settings: pytest.FixtureRequest) -> None:
    """The mail tests' reply domain and mail backend (autouse where imported: a conftest, a module)."""
    settings.REPLY_DOMAIN = "lotus.test"  # type: ignore[attr-defined]
    settings.REPLY_PREFIX = "play"  # type: ignore[attr-defined]
    settings.MESSAGE_ID_DOMAIN = "lotus.test"  # type: ignore[attr-defined]
    settings.DEFAULT_FROM_EMAIL = "White Lotus <lotus@lotus.test>"  # type: ignore[attr-defined]
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"  # type: ignore[attr-defined]
    settings.MODERATOR_EMAILS = ["mod@lotus.test"]  # type: ignore[attr-defined]


def deliver_pending() -> list[OutboundMail]:
    """Send every pending outbox row (as the send task would) and return them."""
    rows = list(OutboundMail.objects.filter(status=OutboundMail.Status.PENDING).order_by("pk"))
    for row in rows:
        sending.deliver(row.pk)
    return [OutboundMail.objects.get(pk=row.pk) for row in rows]


def sent_to(address: str) -> list[django_mail.EmailMultiAlternatives]:
    return [m for m in django_mail.outbox if address in m.to]  # type: ignore[misc]


def compose(
    to: str,
    sender: str,
    body: str,
    *,
    in_reply_to: str = "",
    references: str = "",
    subject: str = "Re: your move",
) -> bytes:
    message = EmailMessage()
    message["From"] = sender
    message["To"] = to
    message["Subject"] = subject
    message["Message-ID"] = make_msgid(domain="player.test")
    if in_reply_to:
        message["In-Reply-To"] = in_reply_to
        message["References"] = f"{references} {in_reply_to}".strip()
    message.set_content(body)
    return message.as_bytes()


def receive(raw: bytes, via: str = InboundMail.Via.PIPE) -> InboundMail:
    """Store and process one raw mail, as the pipe and the task would."""
    row, _ = routing.store(raw, via)
    routing.process(row.pk)
    return InboundMail.objects.get(pk=row.pk)


def reply_to_of(game: Game, seat: int) -> str:
    return tokens.reply_address(game.seats.get(position=seat))


def email_of(game: Game, seat: int) -> str:
    return game.seats.get(position=seat).player.email


def check_layout(text: str, where: str) -> None:
    lines = text.splitlines()
    too_long = [line for line in lines if len(line) > plaintext.LIMIT]
    assert not too_long, f"{where}: lines over {plaintext.LIMIT} columns: {too_long}"
    assert plaintext.SIGNATURE in lines, f"{where}: no '-- ' before the footer"
    footer = lines[lines.index(plaintext.SIGNATURE) + 1 :]
    assert footer and all(line.strip() for line in footer), f"{where}: the footer is not right after '-- '"
    assert "--" not in lines, f"{where}: a signature separator without its space"
    for line in lines:
        for url in re.findall(r"https?://\S+", line):
            assert line == url, f"{where}: a URL shares its line: {line!r}"


def parts(message: django_mail.EmailMessage) -> dict[str, Message]:
    """The leaf parts of the message as sent, by content type."""
    found: dict[str, Message] = {}
    for part in message.message().walk():
        if not part.is_multipart():
            found.setdefault(part.get_content_type(), part)
    return found


def flat(text: str) -> str:
    """The text with its lines joined: mails are wrapped at 76 columns."""
    return " ".join(text.split())


def a_digest_is_due(language: str) -> None:
    """A 3-player game where seat 2 (on ``mail digest``) owes nothing and has news."""
    game = running_game(3, seed="prefs")
    seat = game.seats.select_related("player").get(position=2)
    seat.player.language = language
    seat.player.save()
    MailPreference.objects.create(player=seat.player, mode=MailPreference.Mode.DIGEST)
    deliver_pending()
    state = services.head_state(game)
    decision = wl.pending(state)[0]
    assert decision.seat != 2
    services.submit(game, decision.seat, wl.default(state, decision.seat))
    deliver_pending()


def database_url(*, port: int | None = None) -> str:
    db = connection.settings_dict
    auth = quote(db["USER"] or "") + (f":{quote(db['PASSWORD'])}" if db["PASSWORD"] else "")
    return f"postgres://{auth}@{db['HOST'] or '127.0.0.1'}:{port or db['PORT'] or 5432}/{db['NAME']}"
