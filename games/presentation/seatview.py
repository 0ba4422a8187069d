"""What one seat may see and has been told: its view at an event (``Seen``), and the news
since the last mail that told it any (a digest's part included), read from the narration
projection, never replayed.  The game mails and the digest tell from here.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.db import connection
from django.utils.translation import gettext, ngettext

from games import services
from games.models import Event, Game, Seat
from games.presentation import display
from games.projections import narration
from games.rules.base import Rules
from notifications.models import DigestPart, OutboundMail

NEWS_KINDS = (
    "invitation",
    "decision",
    "sealed",
    "year",
    "reveal",
    "game_over",
    "rolled_back",
    "defaulted",
)


@dataclass
class Seen:
    """What one seat may know at one event, ready for the templates."""

    state: Any  # the game's engine state (its rules: ``rules``)
    view: dict[str, Any]
    colour: str
    names: dict[str, str]
    rules: Rules
    colours: dict[int, str]  # each seat's colour, by position
    seat: int
    holder: Seat | None = None  # the seat's row, with its player (read with the others)


def told_before(mail: OutboundMail) -> int:
    """The event up to which a seat was told the news before this row (``_since_seq``)."""
    assert mail.game is not None and mail.seat is not None
    return _since_seq(mail.game, mail.seat, mail.seq)


def _since_seq(game: Game, seat: int, seq: int) -> int:
    """The event of the seat's previous mail that told the news (0: none before), a digest's
    part about this game included.  Only mails that go out count: a mail a player's
    preferences held back was never written, and one that failed (a bounced address, given
    up) never arrived, so their news is told again."""
    # one statement: every mail reads it (the ORM compiled two querysets for it)
    kinds = ", ".join("%s" for _ in NEWS_KINDS)
    failed = OutboundMail.Status.FAILED
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT MAX(seq) FROM (SELECT m.seq FROM {_MAILS} m WHERE m.game_id = %s "
            f"AND m.seat = %s AND m.seq < %s AND m.kind IN ({kinds}) AND m.status <> %s "
            f"UNION ALL SELECT p.seq FROM {_PARTS} p JOIN {_MAILS} d ON d.id = p.mail_id "
            "WHERE p.game_id = %s AND p.seat = %s AND p.seq < %s AND d.status <> %s) told",
            [game.pk, seat, seq, *NEWS_KINDS, failed, game.pk, seat, seq, failed],
        )
        row = cursor.fetchone()
    return int(row[0]) if row and row[0] is not None else 0


_MAILS = OutboundMail._meta.db_table
_PARTS = DigestPart._meta.db_table


def told_up_to(game: Game, seat: int, seq: int) -> int:
    """The last event (up to ``seq``) whose news the seat has been told."""
    return _since_seq(game, seat, seq + 1)


def has_news(game: Game, seat: int, seq: int, since: int) -> bool:
    """Is there anything the seat may see after event ``since``, up to event ``seq``?"""
    return since < seq and bool(seen(game, seat, seq, since)[1])


def seen(game: Game, seat: int, seq: int, since: int) -> tuple[Seen, list[str]]:
    """The view of ``seat`` after event ``seq`` and the news it has not been told: what was
    told of the moves after event ``since`` that this seat may see.  Both are read, not
    replayed: the news from the narration projection (``games.projections.narration``), the
    state from the service's cache of heads or the latest snapshot."""
    rules = services.rules_of(game)
    holders = list(game.seats.select_related("player"))
    colours = {s.position: s.colour for s in holders}
    state = services.state_after(game, seq)
    news = narration.news(game, seat, since, seq)
    # a seat the bot plays is named so wherever seats are named ("Anna (bot)")
    names = {
        s.colour: gettext("%(name)s (bot)") % {"name": s.player.name} if s.bot_since else s.player.name
        for s in holders
    }
    view = display.with_commitment(game, rules.view(state, seat))  # the server seed's, at the end
    holder = next((s for s in holders if s.position == seat), None)
    return Seen(state, view, colours[seat], names, rules, colours, seat, holder), news


NEWS_MOST = 60  # lines of news in one mail; the whole game is on its page and in its replay


def recent(news: list[str]) -> list[str]:
    """The last :data:`NEWS_MOST` lines of ``news``, after a line saying how many earlier ones
    are left out: a player back from a bot's or a long vacation's spell is not mailed the whole
    game line by line."""
    if len(news) <= NEWS_MOST:
        return news
    left_out = len(news) - NEWS_MOST
    first = ngettext(
        "(%(count)d earlier line is left out: the game's page and its replay have all of it.)",
        "(%(count)d earlier lines are left out: the game's page and its replay have all of them.)",
        left_out,
    ) % {"count": left_out}
    return [first, *news[-NEWS_MOST:]]


def _default_news(rules: Any, before: Any, event: Event, colours: dict[int, str], seat: int) -> str:
    """A default played for ``event.seat``, told to ``seat`` (what the narration projection
    keeps of it, said in the active language)."""
    assert event.seat is not None  # a move's event names its seat
    lines = narration.default_lines(rules, before, event, colours[event.seat])
    return " ".join(m.render(gettext) for m in narration.messages(lines, seat))
