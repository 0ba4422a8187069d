"""What the league mails say: the standings after a game, the answer to ``join``.

Two kinds of mail of this app's own, ``standings`` and ``welcome``, rendered here (three
templates each) in the reader's language and registered with ``notifications.outbound.emails``
by the app's ``ready()``; their contexts are built at that moment, from the
projections of the games' results like every standing, so the words and numbers here are
translated and localised then.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.urls import reverse
from django.utils import formats, translation
from django.utils.translation import gettext

from games.models import Player
from games.presentation import words
from leagues.models import LeagueGame
from leagues.signup import SAID
from leagues.standings import Row, bot_seats, standings
from notifications.models import OutboundMail
from notifications.outbound.mailrender import Rendered, render_template

NAME_WIDTH = 22  # of the player column in the text table


def row_dict(row: Row) -> dict[str, Any]:
    return {
        "name": row.name,
        "played": row.played,
        "wins": row.wins,
        "points": _number(row.points, 0 if float(row.points).is_integer() else 1),
        "rating": _number(row.rating.ordinal, 1) if row.rating else "—",
        "missed": row.missed,
        "left": len(row.left),
        "bot": len(row.bot_games),
    }


def columns() -> list[str]:
    """The headings of the standings table, after the place."""
    return [
        gettext("Player"),
        gettext("Games"),
        gettext("Wins"),
        gettext("Points"),
        gettext("Rating"),
        gettext("Missed"),
    ]


def table_text(rows: list[dict[str, Any]]) -> str:
    """The standings as a plain-text table; each number column is as wide as its heading
    (translated headings are longer than the English ones)."""
    player, *numbers = columns()
    widths = [max(len(heading), 5) for heading in numbers]
    keys = ("played", "wins", "points", "rating", "missed")

    def line(place: str, name: str, cells: list[str]) -> str:
        return " ".join(
            [
                place.rjust(3),
                "",
                name.ljust(NAME_WIDTH),
                *(c.rjust(w) for c, w in zip(cells, widths, strict=True)),
            ]
        )

    lines = [line("#", player, numbers)]
    for place, row in enumerate(rows, 1):
        name = row["name"] if len(row["name"]) <= NAME_WIDTH else row["name"][: NAME_WIDTH - 1] + "…"
        if row.get("bot"):  # the bot played for them in a game: marked, and told under the table
            name = (name if len(name) <= NAME_WIDTH - 2 else name[: NAME_WIDTH - 3] + "…") + " *"
        lines.append(line(str(place), name, [str(row[key]) for key in keys]))
    return "\n".join(line.rstrip() for line in lines)


def standings_context(mail: OutboundMail) -> dict[str, Any]:
    """The season's standings as they stood when the mail's game ended, with the reader's
    own line picked out."""
    assert mail.game is not None
    link = LeagueGame.objects.select_related("season__league").get(game=mail.game)
    table = standings(link.season, upto=mail.game)
    email = mail.player.email if mail.player else ""
    rows = [row_dict(r) for r in table.rows]
    mine = next((row_dict(r) for r in table.rows if r.email == email), None)
    colours = dict(mail.game.seats.values_list("position", "colour"))
    by_bot = [words.colour(colours[s]) for s in bot_seats(mail.game)]
    return {
        "player": mail.player,
        "game": mail.game,
        "season": link.season,
        "league": link.season.league,
        "round": link.round,
        "rows": rows,
        "columns": columns(),
        "table": table_text(rows),
        "mine": mine,
        "place": next((i for i, r in enumerate(table.rows, 1) if r.email == email), None),
        "games": table.games,
        # the game's mark: the seats the bot played for a while; the table's: "*" on a name
        "bot_seats": ", ".join(by_bot),
        "bot_marked": any(r["bot"] for r in rows),
        "url": settings.SITE_URL.rstrip("/") + reverse("leagues:league", args=[link.season.league.slug]),
    }


def welcome_context(mail: OutboundMail) -> dict[str, Any]:
    """The answer to ``join``, its sentence in the reader's language."""
    said = mail.context.get("said")
    if said not in SAID:  # written before answers kept their sentence's key: as it was
        return dict(mail.context)
    return {**mail.context, "message": gettext(SAID[said]).format(**mail.context.get("names", {}))}


def standings_mail(mail: OutboundMail) -> Rendered:
    """To each player of a league game that ended: the season's standings after it."""
    return render_template("standings", {**standings_context(mail), "mail": mail})


def welcome_mail(mail: OutboundMail) -> Rendered:
    """The answer to ``join <league>``: in, or why not and which leagues are open.  The row
    has no seat, so its language is that of the player with the address (if any)."""
    reader = mail.player or Player.objects.filter(email__iexact=mail.to_email).first()
    with translation.override(reader.language if reader else settings.LANGUAGE_CODE):
        return render_template("welcome", {**welcome_context(mail), "mail": mail, "player": reader})


def _number(value: float, decimals: int) -> str:
    """``value`` with the reader's decimal separator (2,5 in German and French)."""
    return formats.number_format(round(value, decimals), decimal_pos=decimals)
