"""The league audit: every running or paused game of a league, for its moderators.

Per game: whose move it is, since when they have been waiting (the time of the event their
decision began with, ``PendingDecision.since_seq``), each seat's consecutive default moves
(from the log), and the moderator actions pending.  *Pending moderator actions* are:

* a seat whose consecutive defaults reached the game's ``warn_after_defaults`` (its player
  was warned; consider replacing them);
* a seat whose player's address bounced (no mail reaches them until it is fixed);
* a paused game (it waits for a moderator to resume it).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timedelta

from django.contrib.auth.models import AnonymousUser, User
from django.utils import timezone
from django.utils.translation import gettext, ngettext

from games import services
from games.admin.audit import colour, whose_move
from games.models import Game, PendingDecision
from games.services import permissions, timing
from games.services.deadlines import defaults_in_a_row
from leagues.models import League, LeagueGame


@dataclass
class SeatLine:
    colour: str
    player: str
    defaults: int


@dataclass
class GameLine:
    game: Game
    season: str
    round: int
    whose: str
    waiting_since: datetime | None
    waiting: timedelta | None
    seats: list[SeatLine] = field(default_factory=list)
    actions: list[str] = field(default_factory=list)


def can_audit(user: User | AnonymousUser, league: League) -> bool:
    if permissions.is_site_moderator(user):
        return True
    return isinstance(user, User) and user.is_active and league.moderators.filter(pk=user.pk).exists()


def league_audit(league: League, user: User | AnonymousUser, now: datetime | None = None) -> list[GameLine]:
    """The league's live games that ``user`` moderates (never one they play in)."""
    now = now or timezone.now()
    links = (
        LeagueGame.objects.filter(
            season__league=league, game__status__in=(Game.Status.RUNNING, Game.Status.PAUSED)
        )
        .filter(game__in=permissions.moderated_games(user).values("pk"))
        .select_related("game", "season")
        .prefetch_related("game__seats__player")
        .order_by("season", "round", "game")
    )
    return [_line(link, now) for link in links]


def _line(link: LeagueGame, now: datetime) -> GameLine:
    game = link.game
    try:
        whose = whose_move(game)
    except services.GameError as error:
        whose = gettext("(cannot compute: %(error)s)") % {"error": error}
    since = _waiting_since(game)
    line = GameLine(game, link.season.name, link.round, whose, since, now - since if since else None)
    warn = timing.controls(game).warn_after_defaults
    in_a_row = defaults_in_a_row(game)
    for seat in sorted(game.seats.all(), key=lambda s: s.position):  # prefetched with the players
        missed = in_a_row.get(seat.position, 0)
        line.seats.append(SeatLine(colour(seat.colour), seat.player.name, missed))
        who = f"{colour(seat.colour)} ({seat.player.name})"
        if missed >= warn:
            line.actions.append(
                ngettext(
                    "%(who)s: %(count)d default in a row — replace?",
                    "%(who)s: %(count)d defaults in a row — replace?",
                    missed,
                )
                % {"who": who, "count": missed}
            )
        if seat.player.email_bounced_at is not None:
            line.actions.append(
                gettext("%(who)s: mail to %(address)s bounced") % {"who": who, "address": seat.player.email}
            )
    if game.status == Game.Status.PAUSED:
        line.actions.append(gettext("paused: resume when settled"))
    return line


def _waiting_since(game: Game) -> datetime | None:
    """When the oldest decision owed now began (the time of its first event)."""
    row = PendingDecision.objects.owed().filter(game=game).order_by("since_seq").first()
    if row is None:
        return None
    return game.events.filter(seq=row.since_seq).values_list("created_at", flat=True).first()
