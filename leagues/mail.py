"""What the league mails say: the standings after a game, the answer to ``join``.

``notifications.emails`` renders them (one function per kind there, three templates each);
this module builds their contexts, from the event logs like every standing.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.urls import reverse

from notifications.models import OutboundMail

from .models import LeagueGame
from .standings import Row, standings


def row_dict(row: Row) -> dict[str, Any]:
    return {
        "name": row.name,
        "played": row.played,
        "wins": row.wins,
        "points": f"{row.points:g}",
        "rating": f"{row.rating.ordinal:.1f}" if row.rating else "—",
        "missed": row.missed,
        "left": len(row.left),
    }


def standings_context(mail: OutboundMail) -> dict[str, Any]:
    """The season's standings as they stood when the mail's game ended, with the reader's
    own line picked out."""
    assert mail.game is not None
    link = LeagueGame.objects.select_related("season__league").get(game=mail.game)
    table = standings(link.season, upto=mail.game)
    email = mail.player.email if mail.player else ""
    rows = [row_dict(r) for r in table.rows]
    mine = next((row_dict(r) for r in table.rows if r.email == email), None)
    return {
        "player": mail.player,
        "game": mail.game,
        "season": link.season,
        "league": link.season.league,
        "round": link.round,
        "rows": rows,
        "mine": mine,
        "place": next((i for i, r in enumerate(table.rows, 1) if r.email == email), None),
        "games": table.games,
        "url": settings.SITE_URL.rstrip("/") + reverse("leagues:league", args=[link.season.league.slug]),
    }
