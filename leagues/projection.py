"""Per season, its standings; per league, its ratings: projections of the finished games'
results (``games.SeatResult``), so that no page, command or mail replays a game.

What it holds: ``StandingLine`` (per season and player: games, wins, points, missed moves,
games left, games the bot played for them) with ``SeasonTally`` (per season: the finished
games counted), ``PlayerRating`` (per league and player: the
openskill rating after every game so far) and ``RatedSeat`` (per seat of a finished league
game: the rating after it, in the order the games were rated).

Who writes it: this module alone, from ``leagues.receivers`` inside the transaction that
appended the event ending a game (right after ``games.projections.results`` wrote the game's result in
the same transaction: inline, for the same reasons), and from ``manage.py
rebuild_projections``.

Incremental when a game ends: its seats' lines get its points and its players are rated
from their current ratings, in one go, as the live computation rated game after game in
the order they finished (``finished_at``, then the game's id).  A game that does not come
last in that order (a rollback past a game's end, a game finished again) rates the league
again from its results: a moderator's rare act, whose cost grows with the league's games.
Figures are exactly the live computation's: the same additions in the same order, and the
ratings are floats stored as they came out of openskill.  The writers of one league take its
row lock first, so two of its games ending at once are counted one after the other.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from django.db import transaction
from django.db.models import F, Q
from openskill.models import PlackettLuce

from games.models import Game, SeatResult
from games.projections import results
from leagues.models import League, LeagueGame, PlayerRating, RatedSeat, Season, SeasonTally, StandingLine

Key = tuple[int | None, str]  # (player id, "") for a final holder, (None, address) for an earlier one


def league_points(rank: int, tied: int, players: int) -> float:
    """The points of one of ``tied`` players sharing ``rank`` in a game of ``players``."""
    places = range(rank, rank + tied)
    return sum(players - p for p in places) / tied


@dataclass(frozen=True)
class Finished:
    """A finished league game's result, as its ``SeatResult`` rows have it."""

    game_id: int
    season_id: int
    finished_at: datetime
    ranks: tuple[int, ...]  # per seat
    players: tuple[int, ...]  # per seat: who held it at the end
    holders: tuple[list[dict[str, Any]], ...]  # per seat: every holder in order

    @property
    def order(self) -> tuple[datetime, int]:
        return (self.finished_at, self.game_id)

    @property
    def bot_seats(self) -> tuple[int, ...]:
        return tuple(s for s, held in enumerate(self.holders) if any(h["bot"] for h in held))

    def points(self, seat: int) -> float:
        rank = self.ranks[seat]
        return league_points(rank, self.ranks.count(rank), len(self.ranks))


def finished(where: Q) -> list[Finished]:
    """The finished league games whose results match ``where`` (on ``SeatResult``), in the
    order they finished: one query."""
    rows = (
        SeatResult.objects.filter(where)
        .filter(game__league_game__isnull=False)
        .order_by("finished_at", "game_id", "position")
        .values_list("game_id", "game__league_game__season_id", "finished_at", "rank", "player_id", "holders")
    )
    games: dict[int, list[Any]] = {}
    for row in rows:
        games.setdefault(row[0], []).append(row)
    return [
        Finished(
            game_id=game_id,
            season_id=seats[0][1],
            finished_at=seats[0][2],
            ranks=tuple(s[3] for s in seats),
            players=tuple(s[4] for s in seats),
            holders=tuple(s[5] for s in seats),
        )
        for game_id, seats in games.items()
    ]


def of_league(league: League) -> Q:
    return Q(game__league_game__season__league=league)


# --- the figures --------------------------------------------------------------------------------


@dataclass
class Tally:
    played: int = 0
    wins: int = 0
    points: float = 0.0
    missed: int = 0
    left: list[int] = field(default_factory=list)
    bot_games: list[int] = field(default_factory=list)


def add_up(line: Any, t: Tally) -> None:
    """Add a tally to a line that counts the same figures (a stored ``StandingLine``, a
    standings ``Row``): the one place a season's figures are summed."""
    line.played += t.played
    line.wins += t.wins
    line.points += t.points
    line.missed += t.missed
    # game ids in id order, whatever order they were counted in (a rebuild reads them by id)
    line.left = sorted([*line.left, *t.left])
    line.bot_games = sorted([*line.bot_games, *t.bot_games])


def tally(games: Iterable[Finished], lines: dict[Key, Tally]) -> dict[Key, Tally]:
    """Add the games (in the order they finished) to a season's lines: a result counts for
    whoever held the seat at the end; every holder keeps their missed moves, the games they
    left and the games the bot played for them."""
    for game in games:
        for seat, held in enumerate(game.holders):
            final = lines.setdefault((game.players[seat], ""), Tally())
            final.played += 1
            final.wins += game.ranks[seat] == 1
            final.points += game.points(seat)
            for n, holding in enumerate(held):
                key: Key = (game.players[seat], "") if n == len(held) - 1 else (None, holding["email"])
                line = lines.setdefault(key, Tally())
                line.missed += holding["defaults"]
                if holding["bot"]:
                    line.bot_games.append(game.game_id)
            for holding in held[:-1]:
                lines.setdefault((None, holding["email"]), Tally()).left.append(game.game_id)
    return lines


def rate(
    games: Iterable[Finished], current: dict[int, tuple[float, float]]
) -> list[tuple[Finished, list[Any]]]:
    """Rate the games in order from the players' ``current`` (mu, sigma), which is updated;
    each game with its seats' ratings after it."""
    model = PlackettLuce()
    out = []
    for game in games:
        teams = [[model.rating(*current[p]) if p in current else model.rating()] for p in game.players]
        rated = [team[0] for team in model.rate(teams, ranks=list(game.ranks))]
        for player, rating in zip(game.players, rated, strict=True):
            current[player] = (rating.mu, rating.sigma)
        out.append((game, rated))
    return out


# --- writing ------------------------------------------------------------------------------------


def game_changed(game: Game) -> None:
    """Called in the transaction that ended the game or rolled it back: its league's
    projections follow its result rows."""
    link = LeagueGame.objects.select_related("season__league").filter(game=game).first()
    if link is None:
        return
    # one writer at a time per league: two of its games ending together (in two seasons, or
    # two rounds of one) would otherwise both add to a player's line and rating from the
    # same old figures; the second waits, then finds the first's rows
    league = League.objects.select_for_update().get(pk=link.season.league_id)
    now = finished(Q(game=game))
    counted = RatedSeat.objects.filter(game=game).exists()
    if now and not counted:
        later = RatedSeat.objects.filter(league=league).filter(
            Q(finished_at__gt=now[0].finished_at) | Q(finished_at=now[0].finished_at, game_id__gt=game.pk)
        )
        if not later.exists():
            _add(link.season, league, now[0])
            return
    if now or counted:  # withdrawn, or finished again: counted from the results once more
        rebuild_season(link.season)
        rebuild_ratings(league)


def _add(season: Season, league: League, game: Finished) -> None:
    keys = tally([game], {})
    players = [p for p, _ in keys if p is not None]
    emails = [e for p, e in keys if p is None]
    found = StandingLine.objects.filter(season=season).filter(
        Q(player_id__in=players) | Q(player__isnull=True, email__in=emails)
    )
    have = {(line.player_id, "" if line.player_id else line.email): line for line in found}
    new, changed = [], []
    for key, add in keys.items():
        line = have.get(key)
        if line is None:
            new.append(_line(season, key, add))
            continue
        add_up(line, add)
        changed.append(line)
    StandingLine.objects.bulk_create(new)
    StandingLine.objects.bulk_update(changed, ["played", "wins", "points", "missed", "left", "bot_games"])
    if not SeasonTally.objects.filter(season=season).update(games=F("games") + 1):
        SeasonTally.objects.create(season=season, games=1)
    existing = {
        r.player_id: r for r in PlayerRating.objects.filter(league=league, player_id__in=game.players)
    }
    current = {p: (r.mu, r.sigma) for p, r in existing.items()}
    rated = rate([game], current)
    for player, r in existing.items():
        r.mu, r.sigma = current[player]
    PlayerRating.objects.bulk_update(list(existing.values()), ["mu", "sigma"])
    PlayerRating.objects.bulk_create(
        PlayerRating(league=league, player_id=p, mu=current[p][0], sigma=current[p][1])
        for p in game.players
        if p not in existing
    )
    RatedSeat.objects.bulk_create(_rated_seats(league, rated))


def _line(season: Season, key: Key, t: Tally) -> StandingLine:
    player, email = key
    return StandingLine(
        season=season,
        player_id=player,
        email=email,
        played=t.played,
        wins=t.wins,
        points=t.points,
        missed=t.missed,
        left=sorted(t.left),
        bot_games=sorted(t.bot_games),
    )


def _rated_seats(league: League, rated: Sequence[tuple[Finished, list[Any]]]) -> list[RatedSeat]:
    return [
        RatedSeat(
            league=league,
            game_id=game.game_id,
            position=seat,
            player_id=player,
            mu=rating.mu,
            sigma=rating.sigma,
            finished_at=game.finished_at,
        )
        for game, ratings in rated
        for seat, (player, rating) in enumerate(zip(game.players, ratings, strict=True))
    ]


def rebuild_season(season: Season) -> None:
    """The season's lines again, from its games' results."""
    StandingLine.objects.filter(season=season).delete()
    games = finished(Q(game__league_game__season=season))
    SeasonTally.objects.filter(season=season).delete()
    if games:  # as the games ending write it: none before the first
        SeasonTally.objects.create(season=season, games=len(games))
    lines = tally(games, {})
    StandingLine.objects.bulk_create([_line(season, key, t) for key, t in lines.items()], batch_size=500)


def rebuild_ratings(league: League) -> None:
    """The league's ratings again, rating its games' results in the order they finished."""
    RatedSeat.objects.filter(league=league).delete()
    PlayerRating.objects.filter(league=league).delete()
    current: dict[int, tuple[float, float]] = {}
    rated = rate(finished(of_league(league)), current)
    RatedSeat.objects.bulk_create(_rated_seats(league, rated), batch_size=500)
    PlayerRating.objects.bulk_create(
        [PlayerRating(league=league, player_id=p, mu=mu, sigma=sigma) for p, (mu, sigma) in current.items()],
        batch_size=500,
    )


def rebuild(*, game: Game | None = None, season: Season | None = None) -> str:
    """Write the projections again from the log: one game's result (and its season's lines
    and league's ratings), one season's games, or everything.  What was done, in words."""
    if game is not None:
        games = [game]
    elif season is not None:
        games = list(Game.objects.filter(league_game__season=season).order_by("pk"))
    else:
        games = list(
            Game.objects.filter(Q(status=Game.Status.FINISHED) | Q(results__isnull=False)).distinct()
        )
    for one in games:
        with transaction.atomic():
            results.rebuild(Game.objects.select_for_update().get(pk=one.pk))
    if game is not None:
        link = LeagueGame.objects.select_related("season").filter(game=game).first()
        seasons = [link.season] if link else []
    elif season is not None:
        seasons = [season]
    else:
        seasons = list(Season.objects.all())
    leagues = {s.league_id: s.league for s in seasons}
    with transaction.atomic():
        list(League.objects.select_for_update().filter(pk__in=list(leagues)).order_by("pk"))
        for s in seasons:
            rebuild_season(s)
        for league in leagues.values():
            rebuild_ratings(league)
    return f"{len(games)} game(s), {len(seasons)} season(s), {len(leagues)} league(s) rebuilt from the log"
