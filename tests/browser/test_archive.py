"""In a real browser: the games list and archive, unfiltered and searched through its form
(a plain GET form, so the search is the page's address), at phone and desktop size."""

from __future__ import annotations

import random

import pytest

from games.models import Game
from leagues.models import League, LeagueGame, Season
from tests.browser.conftest import check_page
from tests.games.factories import play_randomly, running_game


@pytest.mark.usefixtures("live_db")
def test_the_archive_lists_and_searches_games(live_server, page, request):
    league = League.objects.create(name="Autumn league", slug="autumn")
    season = Season.objects.create(league=league, name="2026")
    finished = running_game(3, seed="browser-archive-done")
    play_randomly(finished, random.Random(3))
    assert finished.status == Game.Status.FINISHED
    LeagueGame.objects.create(game=finished, season=season, round=1)
    running_game(4, seed="browser-archive-four")
    running_game(3, edition="designer", seed="browser-archive-three")

    check_page(page, request, f"{live_server.url}/games/", "archive")
    assert page.locator("li.archive-game").count() == 3
    assert page.locator("li.archive-game p.move").count() == 2  # whose move, in both running games

    # the search as a person makes it: the form (its filters past the first folded), submitted
    page.click("#more-filters summary")
    page.select_option("#id_players", "3")
    page.select_option("#id_status", "finished")
    page.click("form.archive-search button[type=submit]")
    page.wait_for_url("**/games/?*")
    assert "players=3" in page.url and "status=finished" in page.url
    rows = page.locator("li.archive-game")
    assert rows.count() == 1 and rows.first.get_attribute("data-game") == str(finished.pk)
    assert "Autumn league: 2026" in rows.first.inner_text()
    check_page(page, request, page.url, "archive-searched")
