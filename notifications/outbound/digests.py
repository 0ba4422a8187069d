"""The daily digest (``mail digest``, ``preferences``): one mail a day per player with the news
of each game where they owe nothing.  It writes through the outbox and reads the news as the
mails do (``seatview``), so it sits above both; ``preferences`` below only says who wants it."""

from __future__ import annotations

import logging
from datetime import datetime

from django.db import transaction
from django.utils import timezone

from games.models import Game, Player, Seat
from games.presentation import seatview
from notifications.models import DigestPart, OutboundMail
from notifications.outbound import outbox
from notifications.services import preferences

log = logging.getLogger(__name__)


def send_digests(now: datetime | None = None) -> int:
    """One mail a day per player on ``mail digest``: the news of each of their games where they
    owe nothing and something happened since their last mail there (none if no game has news).
    Idempotent per player and day: a second run the same day writes nothing."""
    now = now or timezone.now()
    by_player: dict[int, list[Seat]] = {}
    for seat in preferences.digest_seats():
        by_player.setdefault(seat.player_id, []).append(seat)
    written = 0
    for player_id, seats in by_player.items():
        key = f"digest:p{player_id}:{now:%Y%m%d}"
        with transaction.atomic():
            if OutboundMail.objects.filter(key=key).exists():
                continue
            parts = []
            for seat in seats:
                # the game's row lock: its head cannot move while its news is measured
                game = Game.objects.select_for_update().get(pk=seat.game_id)
                since = seatview.told_up_to(game, seat.position, game.head_seq)
                if since < game.head_seq and seatview.has_news(game, seat.position, game.head_seq, since):
                    parts.append(DigestPart(game=game, seat=seat.position, seq=game.head_seq, since=since))
            if not parts:
                continue
            player = Player.objects.get(pk=player_id)
            mail = outbox.notify(key, "digest", player.email, {"games": len(parts)}, player=player)
            for part in parts:
                part.mail = mail
            DigestPart.objects.bulk_create(parts)
            written += 1
    log.info("%s digests written", written)
    return written
