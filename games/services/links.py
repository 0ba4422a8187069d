"""Links to a game's pages, absolute (for mails), and the secret keys of the private seat pages.

A seat page is reached by a random key stored in the database (``SeatKey``), like the reply
tokens of ``notifications.services.tokens``: 128 bits, base32, unique.  The key row is bound to the seat
and to the player it was issued to, and it only opens the page while that player still holds
the seat and has held it since the key was issued, so ``services.replace_seat`` kills the old
holder's link without knowing about keys; the new holder (or the old one, given the seat back)
is issued a new key the first time a link is made for them.  Keys are
credentials: they are never logged and a bad one gets a plain 404.

A player's own page (all their games, their settings) has a key of the same shape per
player (``PlayerKey``), issued on first use; the player may renew it from the page, which
kills the old link at once, and the links of all their seats with it (the page lists them).
"""

from __future__ import annotations

import base64
import secrets

from django.conf import settings
from django.db import IntegrityError, transaction
from django.urls import reverse
from django.utils import timezone

from games.models import Event, Game, Player, PlayerKey, Seat, SeatKey

__all__ = [
    "game_page_url",
    "new_key",
    "player_for_key",
    "player_key",
    "player_page_url",
    "renew_player_key",
    "replay_url",
    "seat_for_key",
    "seat_key",
    "seat_keys",
    "seat_page_url",
]

KEY_BYTES = 16  # 128 bits


def _absolute(path: str) -> str:
    return settings.SITE_URL.rstrip("/") + path


def game_page_url(game: Game) -> str:
    """The public page of the game (spectator view)."""
    return _absolute(reverse("games:game", args=[game.pk]))


def replay_url(game: Game, step: int | None = None) -> str:
    if step is None:
        return _absolute(reverse("games:replay", args=[game.pk]))
    return _absolute(reverse("games:replay-step", args=[game.pk, step]))


def seat_page_url(seat: Seat) -> str:
    """The private page of the seat's current player: whoever has the link sees its hand."""
    return _absolute(reverse("games:seat", args=[seat_key(seat)]))


def new_key() -> str:
    """128 random bits in lower-case base32 (26 characters): the shape of every credential the
    service hands out, seat-page keys here and reply tokens (``notifications.services.tokens``), and
    the shape ``notifications.services.redact`` cuts out of the logs."""
    return base64.b32encode(secrets.token_bytes(KEY_BYTES)).decode().rstrip("=").lower()


def seat_key(seat: Seat) -> str:
    """The key of the seat's current holder, issued on first use, and issued anew if the seat
    changed hands since (a player who gets a seat back does not get their old link back)."""
    row = SeatKey.objects.filter(seat=seat, player_id=seat.player_id).first()
    if row is None:
        try:
            with transaction.atomic():
                return SeatKey.objects.create(seat=seat, player_id=seat.player_id, key=new_key()).key
        except IntegrityError:
            # another process issued it at the same moment: theirs is as good
            return SeatKey.objects.get(seat=seat, player_id=seat.player_id).key
    if not _stale(row, seat):
        return row.key
    fresh = new_key()
    if SeatKey.objects.filter(pk=row.pk, key=row.key).update(key=fresh, created_at=timezone.now()):
        return fresh
    return SeatKey.objects.get(pk=row.pk).key  # another process renewed it first


def seat_keys(seats: list[Seat]) -> dict[int, str]:
    """``seat_key`` for many seats at once (by seat pk), in two queries while every key is
    issued and live; a missing or stale one is issued as ``seat_key`` issues it."""
    rows = {
        (r.seat_id, r.player_id): r
        for r in SeatKey.objects.filter(seat__in=seats, player_id__in={s.player_id for s in seats})
    }
    handed = [
        (e.game_id, e.seat, e.created_at)
        for e in Event.objects.filter(
            game_id__in={s.game_id for s in seats}, kind=Event.Kind.SEAT_REPLACED
        ).only("game_id", "seat", "created_at")
    ]
    out = {}
    for seat in seats:
        row = rows.get((seat.pk, seat.player_id))
        fresh = row is not None and not any(
            g == seat.game_id and p == seat.position and at > row.created_at for g, p, at in handed
        )
        out[seat.pk] = row.key if fresh and row is not None else seat_key(seat)
    return out


def seat_for_key(key: str) -> Seat | None:
    """The seat this key opens, or None: unknown key, or the seat has changed hands since."""
    row = SeatKey.objects.select_related("seat__game", "seat__player").filter(key=key).first()
    if row is None or row.seat.player_id != row.player_id or _stale(row, row.seat):
        return None
    return row.seat


def _stale(row: SeatKey, seat: Seat) -> bool:
    """The seat was handed on after this key was issued (and has come back to its player)."""
    return Event.objects.filter(
        game_id=seat.game_id, kind=Event.Kind.SEAT_REPLACED, seat=seat.position, created_at__gt=row.created_at
    ).exists()


def player_page_url(player: Player) -> str:
    """The private page of the player: their games, what they must decide, their settings."""
    return _absolute(reverse("games:player", args=[player_key(player)]))


def player_key(player: Player) -> str:
    """The player's live key, issued on first use."""
    row = PlayerKey.objects.filter(player=player).first()
    if row is not None:
        return row.key
    try:
        with transaction.atomic():
            return PlayerKey.objects.create(player=player, key=new_key()).key
    except IntegrityError:
        # another process issued it at the same moment: theirs is as good
        return PlayerKey.objects.get(player=player).key


def renew_player_key(player: Player) -> str:
    """A new key for the player's page, and new keys for all their seat pages (the old page
    listed them, so whoever noted them there is locked out too); the old links open nothing
    from now on, the next mails carry the new ones.  A seat key keeps its ``created_at``: a key
    that a seat's change of hands made stale stays stale."""
    fresh = new_key()
    with transaction.atomic():
        PlayerKey.objects.update_or_create(
            player=player, defaults={"key": fresh, "created_at": timezone.now()}
        )
        rows = list(SeatKey.objects.select_for_update().filter(player=player))
        for row in rows:
            row.key = new_key()
        SeatKey.objects.bulk_update(rows, ["key"])
    return fresh


def player_for_key(key: str) -> Player | None:
    """The player whose page this key opens, or None."""
    row = PlayerKey.objects.select_related("player").filter(key=key).first()
    return row.player if row is not None else None
