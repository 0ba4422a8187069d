"""The read side's projections (``games.projections.results``, ``leagues.projection``): the rows written
game by game as the games are played equal the rows ``rebuild_projections`` writes from the
log, and the standings read from them equal the live computation they replace
(``live_standings``, the code of main 22186c1), figure for figure, in the same order —
over random seasons of both games, with seats replaced, handed to the bot, moves left to
their deadline and moderators rolling games back past their end."""

from __future__ import annotations

import random
from io import StringIO
from typing import Any

import pytest
from django.core.management import call_command
from django.db import transaction
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games import services
from games.models import Event, Game, PendingDecision, Player, SeatResult
from games.services import bots
from leagues.models import League, PlayerRating, RatedSeat, Season, SeasonTally, StandingLine
from leagues.projection import rebuild
from leagues.seating import seat_round
from leagues.standings import Row, standings
from tests.leagues import live_standings as live
from tests.leagues.helpers import season_of, step

pytestmark = pytest.mark.django_db

NAMES = ["Ada", "Bao", "Chen", "Dara", "Emil", "Fang", "Gita"]
GAMES = {
    "whitelotus": {},
    "verbotenestadt": {"edition": "ravensburger", "board": "forbidden_city"},
}


def act(game: Game, rng: random.Random, stranger: Player) -> None:
    """Now and then, what happens to a game besides its moves (to a game still running: the
    move just played may have ended it)."""
    roll = rng.random()
    game.refresh_from_db()
    if game.status != Game.Status.RUNNING:
        return
    if roll < 0.01:
        owed = PendingDecision.objects.owed().filter(game=game).order_by("seat").first()
        if owed is not None:
            services.apply_default(game, owed.seat)
    elif roll < 0.012 and not game.seats.filter(player=stranger).exists():
        services.replace_seat(game, rng.randrange(game.seats.count()), stranger, by=None, reason="moved")
    elif roll < 0.014:
        seat = rng.randrange(game.seats.count())
        if seat not in bots.bot_seats(game):
            bots.hand_to_bot(game, seat, by=None, source=Event.Source.SYSTEM, reason="dropped")


def play_out(game: Game, rng: random.Random, stranger: Player) -> None:
    for _ in range(3000):
        game.refresh_from_db()
        if not step(game, rng):
            return
        act(game, rng, stranger)
    pytest.fail("the game did not end")


def rows_of() -> dict[str, list[tuple[Any, ...]]]:
    """Every projection row, as plain values, in a fixed order (ids apart)."""

    def values(model: Any, *order: str) -> list[tuple[Any, ...]]:
        names = [f.attname for f in model._meta.concrete_fields if f.name != "id"]
        return [tuple(str(v) for v in row) for row in model.objects.order_by(*order).values_list(*names)]

    return {
        "results": values(SeatResult, "game_id", "position"),
        "lines": values(StandingLine, "season_id", "player_id", "email"),
        "tallies": values(SeasonTally, "season_id"),
        "ratings": values(PlayerRating, "league_id", "player_id"),
        "rated": values(RatedSeat, "game_id", "position"),
    }


def same_rows(projected: list[Row], computed: list[Any]) -> None:
    """The projection's lines are the live computation's: same order, same figures (the
    lists of games compared as sets: the page shows only their lengths)."""

    def plain(r: Any) -> tuple[Any, ...]:
        rating = (r.rating.mu, r.rating.sigma) if r.rating else None
        return (
            r.email,
            r.name,
            r.played,
            r.wins,
            r.points,
            r.missed,
            sorted(r.left),
            sorted(r.bot_games),
            rating,
        )

    assert [plain(r) for r in projected] == [plain(r) for r in computed]


@settings(
    max_examples=4,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    rules=st.sampled_from(sorted(GAMES)),
    seed=st.integers(0, 10**6),
    rollback=st.sampled_from(["none", "past the end", "past the end and again"]),
)
def test_incremental_projections_equal_the_rebuilt_ones_and_the_live_standings(rules, seed, rollback):
    with transaction.atomic():
        rng = random.Random(seed)
        league = League.objects.create(name="Random League", slug=f"random-{seed}")
        season = season_of(league, NAMES, rules=rules, **GAMES[rules])
        stranger = Player.objects.create(name="Gus", email=f"gus-{seed}@example.org")
        # an earlier season of three of them: ratings carried over to members who have not
        # played yet in this one (as the first game of this one ends, the other table's)
        earlier = season_of(league, NAMES[2:5], rules=rules, **GAMES[rules])
        for game in seat_round(earlier, seed=f"e{seed}"):
            play_out(game, rng, stranger)
        first = seat_round(season, seed=f"s{seed}")
        for game in first:
            play_out(game, rng, stranger)
        undone = first[rng.randrange(len(first))]
        if rollback != "none":  # a moderator takes back the end of a game, maybe more
            kept = [
                e for e in services.effective(undone.events.order_by("seq")) if e.kind == Event.Kind.COMMAND
            ]
            to = kept[rng.randrange(len(kept) // 2, len(kept) - 1)].seq
            services.rollback(undone, to, by=None, reason="a wrong move")
            undone.refresh_from_db()
            assert not SeatResult.objects.filter(game=undone).exists()
            if rollback == "past the end and again":
                play_out(undone, rng, stranger)  # it ends again, after the others: rated last
        services.clear_caches()
        incremental = rows_of()
        for one in (earlier, season):
            same_rows(standings(one).rows, live.standings(one).rows)
        for game in first:
            if game.status == Game.Status.FINISHED:
                same_rows(standings(season, upto=game).rows, live.standings(season, upto=game).rows)
        rebuild()
        assert rows_of() == incremental
        same_rows(standings(season).rows, live.standings(season).rows)
        transaction.set_rollback(True)


def test_the_rebuild_command_takes_a_game_or_a_season(monkeypatch):
    league = League.objects.create(name="Autumn League", slug="autumn")
    season = season_of(league, NAMES[:3])
    (game,) = seat_round(season, seed="c")
    play_out(game, random.Random(1), Player.objects.create(name="Gus", email="gus@example.org"))
    written = rows_of()
    SeatResult.objects.all().delete()
    StandingLine.objects.all().delete()
    out = StringIO()
    call_command("rebuild_projections", "--game", str(game.pk), stdout=out)
    assert "1 game(s), 1 season(s), 1 league(s) rebuilt" in out.getvalue()
    assert rows_of() == written
    Season.objects.create(league=league, name="Winter")
    call_command("rebuild_projections", "--season", str(season.pk), stdout=out)
    call_command("rebuild_projections", stdout=out)
    assert "1 game(s), 2 season(s), 1 league(s)" in out.getvalue()
    assert rows_of() == written
