"""The standings as they were computed before their projection (main 22186c1,
``leagues/standings.py``): every finished game replayed on every read.  Kept here, unchanged
but for this paragraph and the address as the last tie-break of the order (two lines alike in
everything else came out in the database's order), as the reference the projection must
equal (``test_projections``).

Standings and ratings, derived from the games' event logs (never kept as counters).

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

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from django.db.models import Q
from openskill.models import PlackettLuce

from games import services
from games.models import Event, Game, Player
from leagues.models import League, LeagueGame, Season

StateOf = Callable[[Game], Any]


def league_points(rank: int, tied: int, players: int) -> float:
    """The points of one of ``tied`` players sharing ``rank`` in a game of ``players``."""
    places = range(rank, rank + tied)
    return sum(players - p for p in places) / tied


@dataclass(frozen=True)
class Holding:
    """Who held a seat, from which event on, and what they missed meanwhile."""

    email: str
    from_seq: int
    defaults: int = 0
    bot: bool = False  # the bot played the seat for them for a while


@dataclass
class GameRecord:
    """What one finished league game gives the standings."""

    game: Game
    season_id: int
    round: int
    finished_at: datetime
    ranks: tuple[int, ...]  # per seat
    holdings: list[list[Holding]]  # per seat, in order; the last holder gets the result

    @property
    def bot_seats(self) -> tuple[int, ...]:
        """The seats the bot played for a while (the game's mark in the standings)."""
        return tuple(s for s, held in enumerate(self.holdings) if any(h.bot for h in held))

    @property
    def final_emails(self) -> list[str]:
        return [seat[-1].email for seat in self.holdings]

    def points(self, seat: int) -> float:
        rank = self.ranks[seat]
        return league_points(rank, self.ranks.count(rank), len(self.ranks))


def holdings(game: Game) -> list[list[Holding]]:
    """Per seat, who held it from which event on and their default moves while they did.

    Replacements are read from every ``seat_replaced`` event (a rollback does not give a seat
    back: ``Seat.player`` stays changed, so neither does this); defaults only from the moves
    in effect (a default a rollback undid is not missed)."""
    # only what counts here (the created event, replacements, defaults and the rollbacks
    # that may undo them), not the whole log: every page and standings mail reads each game
    kinds = (Event.Kind.SEAT_REPLACED, Event.Kind.DEFAULT, Event.Kind.ROLLED_BACK, Event.Kind.BOT_SEATED)
    events = list(game.events.filter(Q(seq=1) | Q(kind__in=kinds)).order_by("seq"))
    created = events[0].payload
    seats: list[list[Holding]] = [[Holding(p["email"], 1)] for p in created["players"]]
    replaced = {e.seq: e for e in events if e.kind == Event.Kind.SEAT_REPLACED}
    defaults = {e.seq for e in services.effective(events) if e.kind == Event.Kind.DEFAULT}
    for event in events:
        if event.seq in replaced:
            seats[event.payload["position"]].append(Holding(event.payload["new"], event.seq))
        elif event.kind == Event.Kind.BOT_SEATED and event.seat is not None:  # like a replacement,
            current = seats[event.seat][-1]  # a rollback does not undo it
            seats[event.seat][-1] = Holding(current.email, current.from_seq, current.defaults, bot=True)
        elif event.seq in defaults and event.seat is not None:
            current = seats[event.seat][-1]
            seats[event.seat][-1] = Holding(
                current.email, current.from_seq, current.defaults + 1, current.bot
            )
    # the log keeps the addresses as they were; the seats say who holds them now, under the
    # address they have now (a moderator may have corrected it since)
    for seat in game.seats.select_related("player"):
        last = seats[seat.position][-1]
        seats[seat.position][-1] = Holding(seat.player.email, last.from_seq, last.defaults, last.bot)
    return seats


def record(link: LeagueGame, state_of: StateOf = services.head_state) -> GameRecord | None:
    """The league record of a game, or None while it is not over."""
    game = link.game
    if game.status != Game.Status.FINISHED or game.finished_at is None:
        return None
    outcome = services.rules_of(game).outcome(state_of(game))
    if outcome is None:
        return None
    return GameRecord(game, link.season_id, link.round, game.finished_at, outcome.rank, holdings(game))


def finished_records(
    league: League, state_of: StateOf = services.head_state, upto: Game | None = None
) -> list[GameRecord]:
    """The league's finished games in the order they finished (up to and including ``upto``)."""
    links = LeagueGame.objects.filter(season__league=league, game__status=Game.Status.FINISHED)
    records = [r for r in (record(link, state_of) for link in links.select_related("game")) if r]
    records.sort(key=lambda r: (r.finished_at, r.game.pk))
    if upto is not None:
        keys = [(r.finished_at, r.game.pk) for r in records]
        limit = next((k for k in keys if k[1] == upto.pk), None)
        records = [r for r in records if limit is not None and (r.finished_at, r.game.pk) <= limit]
    return records


@dataclass
class Rating:
    mu: float
    sigma: float

    @property
    def ordinal(self) -> float:
        """The conservative display value, mu - 3 sigma (openskill's ordinal)."""
        return self.mu - 3 * self.sigma


def ratings(records: Iterable[GameRecord]) -> dict[str, Rating]:
    """Each player's rating (by email) after these games, rated in the given order."""
    model = PlackettLuce()
    current: dict[str, Any] = {}
    for rec in records:
        emails = rec.final_emails
        teams = [[current.get(email) or model.rating(name=email)] for email in emails]
        rated = model.rate(teams, ranks=list(rec.ranks))
        for email, team in zip(emails, rated, strict=True):
            current[email] = team[0]
    return {email: Rating(r.mu, r.sigma) for email, r in current.items()}


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
        """Who has not played yet comes last; then points, wins, rating, name."""
        rating = self.rating.ordinal if self.rating else 0.0
        return (self.played == 0, -self.points, -self.wins, -rating, self.name, self.email)


def season_rows(season: Season, records: list[GameRecord], rated: dict[str, Rating]) -> list[Row]:
    """The season's standings: every member (played or not), and everyone who held a seat."""
    rows: dict[str, Row] = {}
    names = dict(Player.objects.values_list("email", "name").filter(seasons=season))

    def row(email: str) -> Row:
        if email not in rows:
            name = (
                names.get(email) or Player.objects.filter(email=email).values_list("name", flat=True).first()
            )
            # the log keeps addresses as they were: one corrected since names nobody now, and
            # the standings are public, so the address itself is never shown for a name
            rows[email] = Row(email, name or "—")
        return rows[email]

    for email in names:
        row(email)
    for rec in records:
        if rec.season_id != season.pk:
            continue
        for seat, held in enumerate(rec.holdings):
            final = row(held[-1].email)
            final.played += 1
            final.wins += rec.ranks[seat] == 1
            final.points += rec.points(seat)
            for holding in held:
                row(holding.email).missed += holding.defaults
                if holding.bot:
                    row(holding.email).bot_games.append(rec.game.pk)
            for holding in held[:-1]:
                row(holding.email).left.append(rec.game.pk)
    for email, r in rows.items():
        r.rating = rated.get(email)
        r.left.sort()  # game ids, in id order (the order games ended in is not the standings')
        r.bot_games.sort()
    return sorted(rows.values(), key=lambda r: r.sort_key)


@dataclass
class Standings:
    season: Season
    rows: list[Row]
    games: int  # finished games of the season counted


def standings(
    season: Season, *, state_of: StateOf = services.head_state, upto: Game | None = None
) -> Standings:
    """A season's standings, with league ratings after the same games (``upto``: as they
    stood when that game ended)."""
    records = finished_records(season.league, state_of, upto)
    return _standings(season, records, ratings(records))


def league_standings(league: League, seasons: Iterable[Season]) -> list[Standings]:
    """The standings of several seasons of ``league``, from one reading of its finished
    games (each season's ``standings`` would read and rate them all again)."""
    records = finished_records(league)
    rated = ratings(records)
    return [_standings(season, records, rated) for season in seasons]


def _standings(season: Season, records: list[GameRecord], rated: dict[str, Rating]) -> Standings:
    rows = season_rows(season, records, rated)
    return Standings(season, rows, sum(1 for r in records if r.season_id == season.pk))
