"""Reply addresses carry a random token per seat: ``<prefix>+<token>@<reply domain>`` (the
separator is ``REPLY_SEPARATOR``: ``-`` for the providers whose sub-addresses use it).

The token is a credential (whoever knows it can answer for the seat, if they also send from
the seat's registered address), so it has 128 random bits, lives only in the database, is
rotated when the seat changes hands, and is cut out of anything that is logged (``redact``).
"""

from __future__ import annotations

from django.conf import settings
from django.db import IntegrityError, transaction
from django.utils import timezone

from games.models import Seat
from games.services.links import new_key
from notifications.models import ReplyToken
from notifications.services.redact import redact

__all__ = ["find", "live_token", "new_token", "redact", "reply_address", "rotate", "service_address"]

# a reply token has the shape of every credential here: 128 random bits, base32
new_token = new_key


def live_token(seat: Seat) -> ReplyToken:
    """The seat's token, issued on first use to the seat's current player.

    Two processes may render a first mail of the same seat at once (a worker sending the
    table's mails, the MTA pipe answering a reply): one of them issues the token, the other
    loses the race on ``one_live_token_per_seat`` and takes the winner's."""
    token = ReplyToken.objects.filter(seat=seat, revoked_at__isnull=True).first()
    if token is not None:
        return token
    try:
        with transaction.atomic():  # a savepoint: the caller's transaction survives the race
            return ReplyToken.objects.create(seat=seat, player=seat.player, token=new_token())
    except IntegrityError:
        return ReplyToken.objects.get(seat=seat, revoked_at__isnull=True)


def rotate(seat: Seat) -> ReplyToken:
    """Revoke the seat's token and issue a new one to its (new) player."""
    with transaction.atomic():
        ReplyToken.objects.filter(seat=seat, revoked_at__isnull=True).update(revoked_at=timezone.now())
        return ReplyToken.objects.create(seat=seat, player=seat.player, token=new_token())


def separator() -> str:
    """Between the prefix and the token: ``+``, or ``-`` (``REPLY_SEPARATOR``)."""
    return settings.REPLY_SEPARATOR or "+"


def reply_address(seat: Seat) -> str:
    return f"{settings.REPLY_PREFIX}{separator()}{live_token(seat).token}@{settings.REPLY_DOMAIN}"


def service_address() -> str:
    """The address without a token: sign-up and questions (and where strangers write)."""
    return f"{settings.REPLY_PREFIX}@{settings.REPLY_DOMAIN}"


def find(addresses: list[str] | tuple[str, ...], *, revoked: bool = False) -> ReplyToken | None:
    """The live token named by one of these recipient addresses, if any (with ``revoked``:
    a token revoked when its seat changed hands, to answer its former player)."""
    domain = settings.REPLY_DOMAIN.lower()
    start = settings.REPLY_PREFIX.lower() + separator()
    for address in addresses:
        local, _, host = address.lower().rpartition("@")
        token = local.removeprefix(start)
        if host != domain or token == local or not token:
            continue
        found = (
            ReplyToken.objects.select_related("seat__game", "seat__player", "player")
            .filter(token=token, revoked_at__isnull=not revoked)
            .first()
        )
        if found is not None:
            return found
    return None
