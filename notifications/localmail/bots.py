"""Bots for local play: they answer their decision mails from the local mailbox, by SMTP.

A bot is a player whose address is at ``BOT_DOMAIN`` (a ``.localhost`` name, which no real
mail system delivers to), so a bot can only ever act for seats held by such a player.  For
each pending decision of a bot seat it picks a move with the game's bot (``rules.about.Bot(key)
.choose(state, seat)`` of the game's rules: from the seat's legal moves) and replies to the
seat's latest decision mail as a player would — through the SMTP listener and the inbound
pipeline, nothing else.  Each reply's Message-ID names the game's head, so a decision is
answered once even if the job runs twice (the pipeline stores a Message-ID once); a sealed
decision, which stays pending while the others choose, is answered once per decision mail
(a bot does not change its sealed dial as the others' choices move the head).
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from email.message import EmailMessage

from games import services
from games.models import Game, Seat
from notifications.inbound.commands import PROMPTS
from notifications.localmail.models import LocalMail
from notifications.localmail.replying import send_reply
from notifications.models import InboundMail, OutboundMail

log = logging.getLogger(__name__)

BOT_DOMAIN = "bot.localhost"
Sender = Callable[..., EmailMessage]


def is_bot(address: str) -> bool:
    return address.strip().lower().endswith("@" + BOT_DOMAIN)


def bot_address(colour: str) -> str:
    return f"{colour}@{BOT_DOMAIN}"


@dataclass
class BotReport:
    replies: list[str] = field(default_factory=list)  # "game 3 blue: place Hubei"
    waiting: list[str] = field(default_factory=list)  # bot seats whose decision mail is not there yet

    def __str__(self) -> str:
        return f"{len(self.replies)} bot replies" + "".join(f"\n  {r}" for r in self.replies)


def play_bots(*, passes: int = 50, send: Sender = send_reply) -> BotReport:
    """Answer every pending bot decision, again while answers bring new ones (a bot's move
    may put the next decision to another bot), at most ``passes`` times."""
    report = BotReport()
    for _ in range(passes):
        report.waiting = []
        acted = sum(_play_game(game, report, send) for game in _games_with_bots())
        if not acted:
            break
    return report


def _games_with_bots() -> list[Game]:
    return list(
        Game.objects.filter(status=Game.Status.RUNNING, seats__player__email__iendswith="@" + BOT_DOMAIN)
        .distinct()
        .order_by("pk")
    )


def _play_game(game: Game, report: BotReport, send: Sender) -> int:
    game.refresh_from_db()
    rules = services.rules_of(game)
    state = services.head_state(game)
    seats = {s.position: s for s in game.seats.select_related("player")}
    acted = 0
    for decision in rules.pending(state):
        seat = seats[decision.seat]
        if not is_bot(seat.player.email):
            continue
        found = _prompt(game, seat)
        if found is None:
            report.waiting.append(f"game {game.pk} {seat.colour}")
            continue
        asked, prompt = found
        if decision.sealed and _answered_since(game, seat, asked):
            # a sealed choice stays open (and changeable) until every seat has made its own;
            # others' choices move the head, but this seat was asked once and has answered
            continue
        # a sealed decision is one reply per decision mail: the others' choices move the head
        # while this seat's reply may still wait for the worker, and a reply named by the head
        # would be sent again, with another choice
        at = "" if decision.sealed else f".e{game.head_seq}"
        message_id = f"bot.g{game.pk}.s{seat.position}{at}.m{prompt.pk}@{BOT_DOMAIN}"
        if InboundMail.objects.filter(message_id=message_id).exists():
            continue  # answered already (refused answers are in the moderators' inbound list)
        key = f"{game.seed_hash}:bot:{game.pk}:{seat.position}:{game.head_seq}"
        line = rules.notation.format_command(state, rules.about.Bot(key).choose(state, seat.position))
        send(prompt, line, message_id=f"<{message_id}>")
        report.replies.append(f"game {game.pk} {seat.colour}: {line}")
        acted += 1
    return acted


def _prompt(game: Game, seat: Seat) -> tuple[OutboundMail, LocalMail] | None:
    """The seat's newest decision mail (the outbox row, and the mail as its bot received it
    in the local mailbox); None while it is still on its way (a worker sends it after the move
    that caused it commits): answering an older one would answer a decision that is no longer
    current."""
    latest = (
        OutboundMail.objects.filter(game=game, seat=seat.position, kind__in=PROMPTS)
        .order_by("-seq", "-pk")
        .first()
    )
    if latest is None or latest.status == OutboundMail.Status.PENDING:
        return None
    received = (
        LocalMail.objects.filter(message_id=latest.message_id, to_address=seat.player.email.lower())
        .order_by("-pk")
        .first()
    )
    return None if received is None else (latest, received)


def _answered_since(game: Game, seat: Seat, asked: OutboundMail) -> bool:
    """Whether the seat has made a move since the decision mail ``asked`` was written."""
    return game.events.filter(seat=seat.position, kind__in=services.MOVE_KINDS, seq__gt=asked.seq).exists()
