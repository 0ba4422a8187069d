"""In a real browser, at phone and desktop size: the front page, the leagues' index, a
league's page and a season's page."""

from __future__ import annotations

import pytest

from games import services
from games.models import Game
from leagues.models import League, LeagueGame, Season
from tests.browser.conftest import check_page
from tests.games.factories import players, running_game, whose_turn

pytestmark = pytest.mark.usefixtures("live_db")


def test_the_front_page_and_the_league_pages_fit_a_phone_and_a_desktop(live_server, page, request):
    league = League.objects.create(
        name="Autumn Lotus League", slug="autumn", description="Four rounds, two a month."
    )
    season = Season.objects.create(league=league, name="2026 Autumn", signup_open=True, ready_hours=0)
    for player in players(6):
        season.memberships.create(player=player)
    done = running_game(6, seed="site-finished", name="Jade Court")
    while done.status == Game.Status.RUNNING:
        services.apply_default(done, whose_turn(done))
        done.refresh_from_db()
    LeagueGame.objects.create(game=done, season=season, round=1)
    LeagueGame.objects.create(
        game=running_game(4, seed="site-running", name="Silk Road"), season=season, round=2
    )

    check_page(page, request, f"{live_server.url}/", "front")
    assert "join autumn" in page.inner_text("#join + p + ul, .open-leagues")
    page.click("header.site nav >> text=Leagues")
    page.wait_for_url("**/leagues/")
    check_page(page, request, f"{live_server.url}/leagues/", "leagues")
    check_page(page, request, f"{live_server.url}/leagues/autumn/", "league")
    assert page.locator("table.standings tbody tr").count() == 6
    check_page(page, request, f"{live_server.url}/leagues/autumn/{season.pk}/", "season")
    assert page.locator("ol.archive > li").count() == 2
