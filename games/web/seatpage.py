"""The top of a seat's private page, for a player with a phone in hand: what they
must decide, in the words of the mails ("make a sealed bid for Ningxia (4)"), the deadline in
their zone and how far off it is ("in 5 hours"), and each legal command as a one-tap reply: a
``mailto:`` link to the seat's reply address with the command as the body, in the reader's
notation, which the mail parser reads as if typed (``notifications.inbound.parsing``).

Built from the seat's own view and the rules' ``legal`` menu, as the mails are; nothing here
says more than the seat's mails say.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any
from urllib.parse import quote

from django.utils import timezone
from django.utils.translation import gettext

from games.models import Game, PendingDecision, Seat
from games.rules.base import Rules
from games.web import player_games
from notifications.services import tokens

__all__ = ["MOST_REPLIES", "Decision", "Reply", "decision", "mailto"]

MOST_REPLIES = 40  # one-tap replies shown; a longer menu is written out below them


@dataclass(frozen=True)
class Reply:
    text: str  # the command as the reader writes it ("biete rot 3 mit gelb")
    href: str  # mailto: the seat's reply address, the command as the body


@dataclass(frozen=True)
class Decision:
    what: str  # "make a sealed bid for Ningxia (4)"
    sealed: bool
    deadline: player_games.Deadline | None
    address: str  # the seat's reply address
    replies: list[Reply] = field(default_factory=list)
    more: int = 0  # legal commands beyond the replies shown


def mailto(address: str, subject: str, body: str) -> str:
    """A ``mailto:`` link (RFC 6068): the address as it is, subject and body percent-encoded."""
    return f"mailto:{address}?subject={quote(subject, safe='')}&body={quote(body, safe='')}"


def decision(
    seat: Seat, state: Any, rules: Rules, language: str, now: datetime | None = None
) -> Decision | None:
    """What ``seat`` must decide now, or None when it owes nothing (or the game is not running:
    the service would refuse every move).  In the active language and time zone."""
    game = seat.game
    if game.status != Game.Status.RUNNING:
        return None
    owed = PendingDecision.objects.owed().filter(game=game, seat=seat.position).first()
    if owed is None:
        return None
    view = rules.view(state, seat.position)
    due = None
    if owed.deadline_at is not None:
        due = player_games.deadline(
            owed.deadline_at, timezone.get_current_timezone(), now or timezone.now(), game.clock_stopped_at
        )
    texts: list[str] = []
    for command in rules.legal(state, seat.position):
        text = rules.format_command_in(state, command, language)
        if text not in texts:
            texts.append(text)
    address = tokens.reply_address(seat)
    subject = gettext("Re: %(game)s") % {"game": game}
    return Decision(
        what=rules.presentation.decision_text(view, owed.kind, gettext),
        sealed=owed.sealed,
        deadline=due,
        address=address,
        replies=[Reply(t, mailto(address, subject, t)) for t in texts[:MOST_REPLIES]],
        more=max(0, len(texts) - MOST_REPLIES),
    )
