"""The pages and the command that show finished games read their projections: the number of
queries is the same after two finished games as after six (it grew by seven per finished game
when standings replayed every game)."""

from __future__ import annotations

import random
from collections.abc import Callable
from io import StringIO
from urllib.parse import urlsplit

import pytest
from django.core.management import call_command
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from games.models import Game, Player
from games.services import links
from leagues.models import League, Season
from leagues.seating import seat_round
from tests.leagues.helpers import season_of, step

pytestmark = pytest.mark.django_db

SIX = ["Ada", "Bao", "Chen", "Dara", "Emil", "Fang"]
# the queries of each read (two seasons on the league page), at any number of finished games
MOST = {
    "league page": 13,
    "season page": 12,
    "standings command": 6,
    "/me/": 14,
    "archive": 8,
    "archive of the league": 8,
}


def play_round(season: Season, n: int) -> None:
    rng = random.Random(n)
    for game in seat_round(season, seed=f"q{n}"):
        while step(game, rng):
            game.refresh_from_db()
        assert game.status == Game.Status.FINISHED


def reads(season: Season) -> dict[str, Callable[[], object]]:
    ada = Player.objects.get(email="ada@example.org")
    me = urlsplit(links.player_page_url(ada)).path
    client = Client()

    def ok(url: str) -> Callable[[], object]:
        def get() -> object:
            response = client.get(url)
            assert response.status_code == 200
            return response

        return get

    return {
        "league page": ok("/leagues/quick/"),
        "season page": ok(f"/leagues/quick/{season.pk}/"),
        "standings command": lambda: call_command("league_standings", "quick", stdout=StringIO()),
        "/me/": ok(me),
        "archive": ok("/games/?status=finished"),
        "archive of the league": ok("/games/?league=quick"),
    }


def counted(season: Season) -> dict[str, int]:
    out = {}
    for name, read in reads(season).items():
        read()  # once before: what a first read sets up (a session, a key) is not counted
        with CaptureQueriesContext(connection) as queries:
            read()
        out[name] = len(queries)
    return out


def test_reads_of_finished_games_cost_the_same_at_two_and_at_six(django_assert_max_num_queries):
    league = League.objects.create(name="Quick League", slug="quick")
    season = season_of(league, SIX)
    Season.objects.create(league=league, name="Winter", signup_open=False)
    play_round(season, 1)
    at_two = counted(season)
    play_round(season, 2)
    play_round(season, 3)
    assert Game.objects.filter(status=Game.Status.FINISHED).count() == 6
    at_six = counted(season)
    assert at_six == at_two, (at_two, at_six)
    for name, read in reads(season).items():
        with django_assert_max_num_queries(MOST[name]):
            read()


def test_the_season_page_and_a_player_s_own_page_show_one_page_of_finished_games(monkeypatch):
    """Neither page grows with the season: the season's games and a player's finished games
    come a page at a time, with links to the others; every seat's page key is made with the
    seat, so a page never issues keys by the hundred on its first view."""
    from games.models import Seat, SeatKey
    from games.web import archive, player_games

    league = League.objects.create(name="Quick League", slug="quick")
    season = season_of(league, SIX)
    for n in (1, 2, 3):
        play_round(season, n)
    assert SeatKey.objects.count() == Seat.objects.count() > 0
    monkeypatch.setattr(archive, "PER_PAGE", 4)
    monkeypatch.setattr(player_games, "FINISHED_PER_PAGE", 1)
    client = Client()
    first = client.get(f"/leagues/quick/{season.pk}/").content.decode()
    assert first.count('<li class="archive-game') == 4 and "page 1 of 2" in first
    assert 'href="?page=2#games" rel="next"' in first
    second = client.get(f"/leagues/quick/{season.pk}/?page=2").content.decode()
    assert second.count('<li class="archive-game') == 2 and 'start="5"' in second
    ada = Player.objects.get(email="ada@example.org")
    mine = Seat.objects.filter(player=ada, game__status=Game.Status.FINISHED).count()
    me = urlsplit(links.player_page_url(ada)).path
    page = client.get(me).content.decode()
    finished = page.split('<section id="finished">')[1].split("</section>")[0]
    assert finished.count("data-game=") == 1 and f"page 1 of {mine}" in finished
    last = client.get(f"{me}?page={mine}").content.decode()
    assert f"page {mine} of {mine}" in last and 'rel="prev"' in last
