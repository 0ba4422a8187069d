"""Standings and ratings, read from their projections (``leagues.projection``, written from
the finished games' results, ``games.projections.results``): a constant number of queries, whatever the
number of finished games.  What they count:

League scoring (documented in LEAGUES.md): in a game of ``n`` players, place ``p`` (1 = first)
is worth ``n - p`` points — one point for each player placed below you.  Players the engine
ranks equal share the places they span and the average of those places' points: two players
tied for 4th of 5 span places 4 and 5 and get ``(1 + 0) / 2 = 0.5`` each.  A win is rank 1,
shared or not.

Ratings: openskill's Plackett-Luce model with its default parameters, one rating per player
per league, carried across the league's seasons and updated game by game in the order the
games finished (``finished_at``, then the game's id).  A game's ranks are the engine's final
ranks (the game's ``outcome``, through ``games.rules.registry``: any game), ties included.

Replacements: the player who holds a seat when the game ends gets its result (points, win,
rating update).  Every player who held a seat earlier and was replaced is recorded with the
game they left; every default move is put on the record of whoever held the seat when it was
played, so a replaced player's missed moves stay theirs.

Bots (``games.services.bots``): a seat the bot played for its player, part of the time or to the end,
stays the player's: its result counts for them as if they had played it (the bot plays for
the seat, as a default does), and the game is marked on their line (``Row.bot_games``) and in
the standings mail, so everyone can see which results a bot helped to make.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from django.db.models import Q

from games.models import Game, Player, SeatResult
from leagues.models import League, Membership, PlayerRating, RatedSeat, Season, SeasonTally, StandingLine
from leagues.projection import Tally, add_up, finished, league_points, tally

__all__ = ["Rating", "Row", "Standings", "bot_seats", "league_points", "league_standings", "standings"]


@dataclass
class Rating:
    mu: float
    sigma: float

    @property
    def ordinal(self) -> float:
        """The conservative display value, mu - 3 sigma (openskill's ordinal)."""
        return self.mu - 3 * self.sigma


@dataclass
class Row:
    """A player's line of a season's standings."""

    email: str
    name: str
    played: int = 0
    wins: int = 0
    points: float = 0.0
    left: list[int] = field(default_factory=list)  # ids of games they were replaced in
    missed: int = 0  # default moves while they held a seat
    bot_games: list[int] = field(default_factory=list)  # ids of games the bot played for them in
    rating: Rating | None = None

    @property
    def sort_key(self) -> tuple[bool, float, int, float, str, str]:
        """Who has not played yet comes last; then points, wins, rating, name (and the
        address, so that two lines alike in all that keep one order)."""
        rating = self.rating.ordinal if self.rating else 0.0
        return (self.played == 0, -self.points, -self.wins, -rating, self.name, self.email)

    def add(self, t: Tally) -> None:
        """A person's own line and the lines of seats they left, merged."""
        add_up(self, t)


@dataclass
class Standings:
    season: Season
    rows: list[Row]
    games: int  # finished games of the season counted


def league_standings(league: League, seasons: Iterable[Season]) -> list[Standings]:
    """The standings of several seasons of ``league``, read from the projection's rows: five
    queries, whatever the number of seasons and finished games."""
    seasons = list(seasons)
    ids = [s.pk for s in seasons]
    lines = list(StandingLine.objects.filter(season_id__in=ids).select_related("player"))
    members = Membership.objects.filter(season_id__in=ids).values_list(
        "season_id", "player__email", "player__name"
    )
    counts = dict(SeasonTally.objects.filter(season_id__in=ids).values_list("season_id", "games"))
    tallies: dict[int, list[tuple[str, str | None, Tally]]] = {i: [] for i in ids}
    for line in lines:
        email, name = (line.player.email, line.player.name) if line.player else (line.email, None)
        t = Tally(line.played, line.wins, line.points, line.missed, line.left, line.bot_games)
        tallies[line.season_id].append((email, name, t))
    named: dict[int, dict[str, str]] = {i: {} for i in ids}
    for season_id, email, name in members:
        named[season_id][email] = name
    emails = {email for found in tallies.values() for email, _, _ in found}
    emails |= {email for found in named.values() for email in found}
    rated = {
        r.player.email: Rating(r.mu, r.sigma)
        for r in PlayerRating.objects.filter(league=league, player__email__in=emails).select_related("player")
    }
    unnamed = {email for found in tallies.values() for email, name, _ in found if name is None}
    unnamed -= {email for found in named.values() for email in found}
    others = dict(Player.objects.filter(email__in=unnamed).values_list("email", "name")) if unnamed else {}
    return [
        Standings(
            season, _rows(named[season.pk], others, tallies[season.pk], rated), counts.get(season.pk, 0)
        )
        for season in seasons
    ]


def standings(season: Season, *, upto: Game | None = None) -> Standings:
    """A season's standings with the league's ratings; ``upto``: as they stood when that
    game ended (its standings mail), counted from the season's result rows up to it and the
    ratings its players had then (a handful of queries; rows read grow with the season)."""
    if upto is None:
        return league_standings(season.league, [season])[0]
    end = SeatResult.objects.filter(game=upto).values_list("finished_at", flat=True).first()
    limit = (end, upto.pk) if end is not None else None
    games = [
        g for g in finished(Q(game__league_game__season=season)) if limit is not None and g.order <= limit
    ]
    lines = tally(games, {})
    members = dict(Player.objects.filter(seasons=season).values_list("email", "name"))
    emails = set(members) | {email for holder, email in lines if holder is None}
    holders = [holder for holder, _ in lines if holder is not None]
    players = {p.pk: p for p in Player.objects.filter(Q(pk__in=holders) | Q(email__in=emails))}
    found: list[tuple[str, str | None, Tally]] = [
        (players[holder].email, players[holder].name, t) if holder is not None else (email, None, t)
        for (holder, email), t in lines.items()
    ]
    by_email = {p.email: p for p in players.values()}
    ratings: dict[int, Rating] = {}
    if end is not None:  # each player's last rating up to that game, in the order they were rated
        before = Q(finished_at__lt=end) | Q(finished_at=end, game_id__lte=upto.pk)
        seats = RatedSeat.objects.filter(before, league=season.league, player_id__in=list(players))
        for player_id, mu, sigma in seats.order_by("finished_at", "game_id", "position").values_list(
            "player_id", "mu", "sigma"
        ):
            ratings[player_id] = Rating(mu, sigma)
    rated = {email: ratings[p.pk] for email, p in by_email.items() if p.pk in ratings}
    others = {email: p.name for email, p in by_email.items()}
    return Standings(season, _rows(members, others, found, rated), len(games))


def _rows(
    members: dict[str, str],
    others: dict[str, str],
    found: list[tuple[str, str | None, Tally]],
    rated: dict[str, Rating],
) -> list[Row]:
    """Every member (played or not) and everyone who held a seat, merged by address."""
    rows: dict[str, Row] = {}

    def row(email: str, name: str | None = None) -> Row:
        if email not in rows:
            # the log keeps addresses as they were: one corrected since names nobody now, and
            # the standings are public, so the address itself is never shown for a name
            rows[email] = Row(email, members.get(email) or name or others.get(email) or "—")
        return rows[email]

    for email in members:
        row(email)
    for email, name, t in found:
        row(email, name).add(t)
    for email, r in rows.items():
        r.rating = rated.get(email)
    return sorted(rows.values(), key=lambda r: r.sort_key)


def bot_seats(game: Game) -> tuple[int, ...]:
    """The seats of a finished game the bot played for a while (the game's mark)."""
    held = SeatResult.objects.filter(game=game).order_by("position").values_list("holders", flat=True)
    return tuple(s for s, holders in enumerate(held) if any(h["bot"] for h in holders))
