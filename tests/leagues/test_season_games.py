"""A season names its game: its rounds are games of that game, seated at that game's table
sizes, and the admin checks its edition, options and board against that game."""

from __future__ import annotations

import pytest

from games import services
from games.models import Game
from leagues.admin.seasonform import SeasonForm
from leagues.models import League
from leagues.seating import seat_round, table_sizes
from leagues.standings import standings
from tests import secondgame
from tests.leagues.helpers import play_out, season_of

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def second_game():
    with secondgame.installed():
        yield


@pytest.fixture
def league():
    return League.objects.create(name="Games League", slug="games")


def test_a_season_is_of_white_lotus_unless_it_says_otherwise(league):
    season = season_of(league, ["Ada", "Bao", "Chen"])
    assert season.rules == "whitelotus"
    (game,) = seat_round(season, seed="r")
    assert game.rules == "whitelotus"


def test_a_seasons_games_are_games_of_its_game_and_are_scored_from_their_outcome(league):
    season = season_of(league, ["Ada", "Bao", "Chen", "Dara", "Emil", "Fang", "Gita"], rules="second")
    games = seat_round(season, seed="r")
    assert [g.rules for g in games] == ["second", "second"]
    assert sorted(g.seats.count() for g in games) == [3, 4]  # the second game takes 3 or 4
    assert all(services.rules_of(g).about.VERSION == "second-1" for g in games)
    for game in games:
        play_out(game)
        game.refresh_from_db()
        assert game.status == Game.Status.FINISHED
    rows = standings(season).rows
    assert len(rows) == 7
    assert all(r.played == 1 for r in rows)
    assert sum(r.wins for r in rows) >= 2  # a winner at each table (or more, tied)
    assert sum(r.points for r in rows) == 3 + 6  # n - place: 2+1+0 and 3+2+1+0


def test_table_sizes_follow_the_games_player_counts():
    assert table_sizes(8) == [4, 4]  # White Lotus: 3 to 6, best at 4
    assert table_sizes(10) == [4, 3, 3]
    assert table_sizes(5) == [5]
    assert table_sizes(7, (3, 4)) == [4, 3]
    assert table_sizes(4, (2, 3, 4)) == [4]
    assert table_sizes(6, (2, 3, 4)) == [3, 3]
    for n in range(3, 40):
        assert all(3 <= size <= 6 for size in table_sizes(n))
        assert sum(table_sizes(n)) == n
    for n in range(2, 40):
        assert all(2 <= size <= 4 for size in table_sizes(n, (2, 3, 4)))


def _form(league, **fields):
    data = {
        "league": league.pk,
        "name": "Spring",
        "signup_open": "on",
        "rules": "second",
        "edition": "kosmos",
        "board": "china",
        **fields,
    }
    return SeasonForm(data=data)


def test_the_admin_offers_every_game_and_checks_the_season_against_its_game(league):
    assert ("second", "Second Game") in list(SeasonForm().fields["rules"].choices)
    assert _form(league).is_valid()
    refused = _form(league, edition="deluxe")
    assert not refused.is_valid() and "Second Game has no edition 'deluxe'" in refused.errors["edition"][0]
    refused = _form(league, rules="chess")
    assert not refused.is_valid() and "rules" in refused.errors


def test_the_season_form_refuses_a_ready_window_longer_than_two_weeks(league):
    refused = _form(league, ready_hours="337")
    assert not refused.is_valid() and "up to 336 hours" in refused.errors["ready_hours"][0]
    assert _form(league, ready_hours="336").is_valid()
