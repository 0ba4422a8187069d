"""One small fixed game and an outbox row of every mail kind about it, for the tests of what
the mails say and how they are laid out (tests/notifications/test_mail_text.py).

The game (4 players, kosmos, seed "mailtext") is played by the service with seeded random moves
until a sealed bid is under way in which some seats must bid and others need not; then every
kind of mail is rendered for one seat of each sort.  Later the game is played out by defaults
for the mails of its end (``game_over``, the league's ``standings``).  The clock is frozen, so
deadlines are the same on every run.
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

import time_machine

from games import services
from games.models import Event, Game, PendingDecision, Player
from games.rules import whitelotus as wl
from games.rules.base import Message
from games.services.links import game_page_url, seat_page_url
from leagues.models import League, LeagueGame, Season
from notifications.models import OutboundMail
from notifications.outbound import emails
from tests.games.factories import players

NOW = datetime(2026, 11, 23, 9, 0, tzinfo=UTC)
PLAYER_PAGE = re.compile(r"https?://\S+/me/[a-z2-7]{26}/")  # games.services.links.player_page_url
NAME = "Autumn Lotus League: 2026 Autumn · 1.1"  # as long as a league names its tables
LANGUAGES = ("en", "de", "fr")
FOOTERS = (
    "White Lotus by mail, game",
    "Der weiße Lotus per Mail, Partie",
    "Le Lotus blanc par courriel, partie",
)
# the mails of a game's ready window, before it starts (no board, no menu): rendered in every
# language and checked for 80 columns by tests/games/test_ready_window.py
READY_KINDS = ("seated", "ready")
# table talk's two kinds are rendered and checked for width in test_press_mail.py: they need a
# message of a seat to render, and would add golden files
TALK_KINDS = ("press", "press_sent")
# every kind of notifications.outbound.emails.KINDS that speaks of one seat of a game
SEAT_KINDS = tuple(
    k
    for k in emails.KINDS
    if k not in ("bounce", "missed_moderators", "welcome", "digest", "account", *READY_KINDS, *TALK_KINDS)
)
# to the former player of a seat handed over (rendered after a replacement, see handed_over_mails)
HAND_OVER_KINDS = ("handed_over", "former_seat")
# a seat handed to the bot: rendered on a game of their own (bot_mails), kept out of the golden
# files (which hold the mails of the fixed game as they were before bots)
BOT_KINDS = ("bot_seated", "bot_unseated", "to_bot")
MIDGAME_KINDS = tuple(
    k for k in SEAT_KINDS if k not in ("game_over", "standings", *HAND_OVER_KINDS, *BOT_KINDS)
)


@dataclass
class Table:
    game: Game
    deciding: int  # a seat that must bid now
    waiting: int  # a seat with nothing to decide


@contextmanager
def frozen() -> Iterator[None]:
    with time_machine.travel(NOW, tick=False):
        yield


def fixed_game() -> Table:
    """The game, at the first sealed bid where not every seat is a contender."""
    game = services.create_game(players(4), seed="mailtext", name=NAME)
    services.start_game(game)
    rng = random.Random(11)
    state = services.head_state(game)
    while True:
        pending = wl.pending(state)
        bidders = {d.seat for d in pending if d.kind == "bid"}
        if len(bidders) >= 2 and len(bidders) < state.players:
            break
        decision = rng.choice(pending)
        services.submit(game, decision.seat, rng.choice(wl.legal(state, decision.seat)))
        state = services.head_state(game)
    game.refresh_from_db()
    deciding = min(bidders)
    waiting = min(set(range(state.players)) - bidders)
    return Table(game, deciding, waiting)


def play_out(game: Game) -> None:
    """Every decision left to its deadline until the game ends."""
    for _ in range(3000):
        owed = PendingDecision.objects.owed().filter(game=game).order_by("seat").first()
        if owed is None:
            game.refresh_from_db()
            return
        services.apply_default(game, owed.seat)
    raise AssertionError("the game did not end")


def speak(player: Player, language: str) -> None:
    if player.language != language:
        player.language = language
        player.save(update_fields=["language"])


def context_of(kind: str, game: Game, seat: int) -> dict[str, Any]:
    """What the outbox puts into a row of ``kind`` (see notifications.outbound.outbox and .inbound);
    decision-asking kinds carry no ``decision`` here on purpose where the service may write
    them without one (answers, takeovers): the mail must find the decision itself."""
    other = (seat + 1) % game.seats.count()
    until = (NOW + timedelta(days=5)).isoformat()
    notice = {"event": game.head_seq, "reason": "", "about": other}
    state = services.head_state(game)
    mine = next((d.kind for d in wl.pending(state) if d.seat == seat), "")
    contexts: dict[str, dict[str, Any]] = {
        "invitation": {"decision": mine},
        "decision": {"decision": mine},
        "sealed": {},
        "reveal": {},
        "year": {},
        "game_over": {},
        "paused": {**notice, "reason": "The server moves tonight."},
        "resumed": {**notice, "decision": mine},
        "rolled_back": {**notice, "to_seq": max(game.head_seq - 2, 1), "decision": mine},
        "deadline_extended": {**notice, "deadline_at": until, "decision": mine},
        "seat_replaced": {**notice, "position": other, "colour": state.config.colours[other]},
        "vacation": {**notice, "until": until},
        "back": {**notice, "decision": mine},
        "time_controls": {**notice},
        "bot_seated": {**notice, "position": other, "colour": state.config.colours[other]},
        "bot_unseated": {**notice, "decision": mine},
        "defaulted": {"about": other},
        "reminder": {"decision": mine, "reminder": 1},
        "missed": {"missed": 3},
        "error": {
            "failing_line": "bid blue 99",
            "message": "You cannot bid 99: you have 7 influence points.",
            # as the receiver stores a refusal now: said in the reader's language at send time
            "refusal": Message(
                "You cannot bid {amount}: you have {points} influence points.", amount=99, points=7
            ).to_data(),
        },
        "help": {"topic": "help"},
        "status": {"topic": "status"},
        "log": {"topic": "log"},
        "preferences": {"topic": "preferences"},
        "wrong_sender": {"sender": "someone.else@example.net"},
        "standings": {},
    }
    return contexts[kind]


def seat_mail(kind: str, game: Game, seat: int, *, replacing: bool = False) -> OutboundMail:
    """An unsaved outbox row of ``kind`` for ``seat`` at the game's head, as sending sees it."""
    holder = game.seats.select_related("player").get(position=seat)
    context = context_of(kind, game, seat)
    if replacing:
        context = {"replacing": "old@example.org"}
    return OutboundMail(
        key=f"test:{kind}:{seat}",
        message_id=f"test.{kind}.{seat}@lotus.test",
        kind=kind,
        game=game,
        seat=seat,
        player=holder.player,
        to_email=holder.player.email,
        seq=game.head_seq,
        context=context,
    )


def moderator_mails(game: Game) -> list[OutboundMail]:
    """The mails to the moderators (no seat, no language of a player: English)."""
    holder = game.seats.select_related("player").get(position=1)
    return [
        OutboundMail(
            kind="missed_moderators",
            to_email="mod@lotus.test",
            context={
                "game_id": 17,  # as the receiver writes it (the game's id: fixed here, for the golden file)
                "game_name": str(game),
                "colour": holder.colour,
                "player": str(holder.player),
                "missed": 3,
            },
        ),
        OutboundMail(
            kind="bounce",
            to_email="mod@lotus.test",
            context={
                "context_email": holder.player.email,
                "bounce_kind": "bounced",
                "description": "550 5.1.1 The email account that you tried to reach does not exist.",
                "games": [str(game)],
            },
        ),
    ]


def welcome_mails(player: Player) -> list[OutboundMail]:
    """The answers to ``join``: in, and not (with the leagues open for sign-up)."""
    joined = {
        "said": "welcome",
        "names": {"season": "Autumn Lotus League: 2026 Autumn"},
        "joined": True,
        "league": "Autumn Lotus League",
    }
    refused = {
        "said": "no_league",
        "names": {"slug": "wintr"},
        "joined": False,
        "open_leagues": ["autumn (Autumn Lotus League)"],
        "example": "autumn",
    }
    return [
        OutboundMail(kind="welcome", player=player, to_email=player.email, context=joined),
        OutboundMail(kind="welcome", player=player, to_email=player.email, context=refused),
    ]


def account_mails(game: Game, player: Player) -> list[OutboundMail]:
    """The answers to a player's mail to the service address (a reply to the digest): a
    setting for all games that cleared this game's own, with status, help and the link; and
    a move sent there, refused with where it goes."""
    answered = {
        "topics": ["status", "help", "link"],
        "settings": True,
        "cleared": [{"game": game.pk, "mode": "digest"}],
        "ignored": ["Thanks!"],
    }
    refused = {"refused": "elsewhere", "failing_line": "place Hangzhou", "ignored": [], "topics": ["help"]}
    return [
        OutboundMail(kind="account", player=player, to_email=player.email, context=answered),
        OutboundMail(kind="account", player=player, to_email=player.email, context=refused),
    ]


def bot_mails(table: Table, language: str) -> list[tuple[str, OutboundMail]]:
    """On a game of its own: the waiting seat handed to the bot (once), and the mails that
    follow, in ``language``: the notice to another seat, the mail to the seat's player, and
    the notices when they take it back (to them and to another seat)."""
    from games.services import bots

    game, seat, other = table.game, table.waiting, table.deciding
    for holder in game.seats.select_related("player"):
        speak(holder.player, language)
    seated = game.events.filter(kind=Event.Kind.BOT_SEATED).first()
    if seated is None:
        bots.hand_to_bot(game, seat, by=None, reason="Missed three moves in a row.")
        seated = game.events.get(kind=Event.Kind.BOT_SEATED)
        game.refresh_from_db()
    holder = game.seats.select_related("player").get(position=seat)
    to_bot = OutboundMail(
        key=f"test:to_bot:{seat}",
        message_id=f"test.to_bot.{seat}@lotus.test",
        kind="to_bot",
        game=game,
        seat=seat,
        player=holder.player,
        to_email=holder.player.email,
        seq=seated.seq,
        context={"event": seated.seq},
    )
    notice = {"event": seated.seq, "reason": seated.reason, "about": seat, **seated.payload}
    out = [
        ("bot_seated.other", _row("bot_seated", game, other, seated.seq, notice)),
        ("to_bot.player", to_bot),
    ]
    unseated = game.events.filter(kind=Event.Kind.BOT_UNSEATED).first()
    if unseated is None:
        bots.take_back(game, seat)
        unseated = game.events.get(kind=Event.Kind.BOT_UNSEATED)
        game.refresh_from_db()
    back = {"event": unseated.seq, "reason": "", "about": seat, **unseated.payload}
    out += [
        (f"bot_unseated.{who}", _row("bot_unseated", game, s, unseated.seq, back))
        for who, s in (("player", seat), ("other", other))
    ]
    return out


def _row(kind: str, game: Game, seat: int, seq: int, context: dict[str, Any]) -> OutboundMail:
    holder = game.seats.select_related("player").get(position=seat)
    return OutboundMail(
        key=f"test:{kind}:{seat}",
        message_id=f"test.{kind}.{seat}@lotus.test",
        kind=kind,
        game=game,
        seat=seat,
        player=holder.player,
        to_email=holder.player.email,
        seq=seq,
        context=context,
    )


def in_a_league(game: Game) -> None:
    league = League.objects.create(name="Autumn Lotus League", slug="autumn")
    # the fixed game's seats are left to defaults to the end: no bot takes them over
    season = Season.objects.create(league=league, name="2026 Autumn", bot_after_defaults=0)
    for seat in game.seats.select_related("player"):
        season.memberships.create(player=seat.player)
    LeagueGame.objects.create(game=game, season=season, round=1)


def masked(text: str, game: Game) -> str:
    """The text with what differs from run to run (the game's id, the seat pages' and the
    players' pages' random keys) replaced by fixed marks, for the golden files."""
    for seat in game.seats.all():
        text = text.replace(seat_page_url(seat), "<seat page>")
    text = PLAYER_PAGE.sub("<your page>", text)
    text = text.replace(game_page_url(game), "<game page>")
    return re.sub(rf"^({'|'.join(FOOTERS)}) {game.pk}$", r"\1 <id>", text, flags=re.MULTILINE)


def handed_over_mails(game: Game, seat: int, language: str) -> list[OutboundMail]:
    """The seat handed to a newcomer (once), and the two mails its former player may get: told
    of the hand-over, and answered when they write to the old address."""
    event = game.events.filter(kind=Event.Kind.SEAT_REPLACED, seat=seat).first()
    if event is None:
        newcomer = Player.objects.create(email="zhu@example.org", name="Zhu")
        services.replace_seat(game, seat, newcomer, by=None, reason="left the league")
        event = game.events.get(kind=Event.Kind.SEAT_REPLACED, seat=seat)
        game.refresh_from_db()
    former = Player.objects.get(email__iexact=event.payload["old"])
    speak(former, language)
    return [
        OutboundMail(
            key=f"test:{kind}:{seat}",
            message_id=f"test.{kind}.{seat}@lotus.test",
            kind=kind,
            game=game,
            seat=seat,
            player=former,
            to_email=former.email,
            seq=event.seq,
            context={"event": event.seq},
        )
        for kind in HAND_OVER_KINDS
    ]


def digest_mail(game: Game, seat: int) -> OutboundMail:
    """The daily digest of the player of ``seat`` (which owes nothing), as the beat task writes it."""
    from notifications.models import MailPreference
    from notifications.outbound import digests

    holder = game.seats.select_related("player").get(position=seat)
    MailPreference.objects.update_or_create(
        player=holder.player, game=None, defaults={"mode": MailPreference.Mode.DIGEST}
    )
    digests.send_digests(NOW)
    MailPreference.objects.filter(player=holder.player).delete()  # the fixture's other mails: default
    return OutboundMail.objects.get(kind="digest", player=holder.player)
