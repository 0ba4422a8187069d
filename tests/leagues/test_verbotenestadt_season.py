"""A season of Die Verbotene Stadt: its rounds are games of 2 to 4 players (only 4 in the
partner variant), and its standings score them from the games' Outcome.rank, partners
ranked equal."""

from __future__ import annotations

import pytest

from games import services
from games.models import Game
from leagues.models import League
from leagues.seating import SeatingError, season_counts, seat_round, table_sizes
from leagues.standings import league_points, standings
from tests.leagues.helpers import season_of

pytestmark = pytest.mark.django_db

NAMES = ["Ada", "Bao", "Chen", "Dara", "Emil", "Fang", "Gita", "Hana"]


@pytest.fixture
def league():
    return League.objects.create(name="City League", slug="city")


def vs_season(league, names, **options):
    return season_of(
        league, names, rules="verbotenestadt", edition="ravensburger", board="forbidden_city", options=options
    )


def play_out(game: Game) -> None:
    """Bots play every decision to the end (defaults would do too, but slowly)."""
    rules = services.rules_of(game)
    bots = [rules.about.Bot(f"league:{game.pk}:{s}") for s in range(services.seats_of(game))]
    state = services.head_state(game)
    while decisions := rules.pending(state):
        seat = decisions[0].seat
        services.submit(game, seat, bots[seat].choose(state, seat))
        state = services.head_state(game)
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED


def test_a_season_seats_its_members_at_tables_of_2_to_4(league):
    season = vs_season(league, NAMES[:7])
    assert season_counts(season) == (2, 3, 4)
    games = seat_round(season, seed="vs")
    assert [g.rules for g in games] == ["verbotenestadt"] * 2
    assert sorted(g.seats.count() for g in games) == [3, 4]
    assert all(g.board == "forbidden_city" and not g.options["partners"] for g in games)
    assert [s.colour for s in games[0].seats.order_by("position")] == ["north", "east", "south", "west"]
    assert table_sizes(5, (2, 3, 4)) == [3, 2]


def test_the_partner_variant_seats_only_tables_of_4_and_refuses_a_remainder(league):
    season = vs_season(league, NAMES, partners=True)
    assert season_counts(season) == (4,)
    games = seat_round(season, seed="p")
    assert sorted(g.seats.count() for g in games) == [4, 4]
    assert all(g.options["partners"] for g in games)
    six = vs_season(league, NAMES[:6], partners=True)
    with pytest.raises(SeatingError, match="6 players cannot sit at tables of 4 players each"):
        seat_round(six, seed="p")
    assert not six.league_games.exists()


def test_standings_score_the_games_from_their_outcome_rank_partners_ranked_equal(league):
    season = vs_season(league, NAMES[:4], partners=True)
    (game,) = seat_round(season, seed="s")
    play_out(game)
    rules = services.rules_of(game)
    outcome = rules.outcome(services.head_state(game))
    assert outcome is not None
    assert outcome.rank[0] == outcome.rank[2] and outcome.rank[1] == outcome.rank[3]  # partners equal
    rows = {r.email: r for r in standings(season).rows}
    by_seat = {s.position: s.player.email for s in game.seats.all()}
    for seat, email in by_seat.items():
        rank = outcome.rank[seat]
        assert rows[email].played == 1
        assert rows[email].points == league_points(rank, outcome.rank.count(rank), 4)
        assert rows[email].wins == (rank == 1)
    assert rows[by_seat[0]].points == rows[by_seat[2]].points
    assert sum(r.points for r in rows.values()) == 3 + 2 + 1 + 0


def test_a_season_without_partners_scores_each_seat_by_its_rank(league):
    season = vs_season(league, NAMES[:3])
    (game,) = seat_round(season, seed="t")
    play_out(game)
    outcome = services.rules_of(game).outcome(services.head_state(game))
    rows = {r.email: r for r in standings(season).rows}
    for seat in game.seats.all():
        rank = outcome.rank[seat.position]
        assert rows[seat.player.email].points == league_points(rank, outcome.rank.count(rank), 3)
