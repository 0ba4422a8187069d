"""Tables that fit a phone (390 x 844, Chromium; issue 30): a season's standings as wrapped rows
with points and rating in view, /me/'s games as cards with no word broken inside, and the
archive's filters folded so that the results start on the first screen.  Each page also passes
``check_page`` (no sideways scrolling, axe-core's WCAG 2.1 A/AA rules, both sizes)."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.urls import reverse
from django.utils import timezone

from games import services
from games.models import Game, PendingDecision
from games.services import links
from leagues.models import League, LeagueGame, Season
from tests.browser.conftest import check_page, screenshot
from tests.games.factories import players, running_game, whose_turn

pytestmark = pytest.mark.usefixtures("live_db")

PHONE = {"width": 390, "height": 844}
# every element that scrolls sideways inside the page (a table in a .scroll box)
SWIPED = """() => [...document.querySelectorAll('main *')]
    .filter(e => e.scrollWidth > e.clientWidth + 1 && getComputedStyle(e).overflowX !== 'visible'
                 && !e.closest('pre'))
    .map(e => e.tagName.toLowerCase() + '.' + e.className + ' ' + e.scrollWidth + '>' + e.clientWidth)"""


def _finished(seed: str, name: str) -> Game:
    game = running_game(6, seed=seed, name=name)
    while game.status == Game.Status.RUNNING:
        services.apply_default(game, whose_turn(game))
        game.refresh_from_db()
    return game


def test_a_seasons_standings_fit_a_phone_with_points_and_rating_in_view(live_server, page, request):
    league = League.objects.create(name="Autumn Lotus League", slug="autumn")
    season = Season.objects.create(league=league, name="2026 Autumn", signup_open=True, ready_hours=0)
    for player in players(6):
        season.memberships.create(player=player)
    LeagueGame.objects.create(game=_finished("phone-standings", "Jade Court"), season=season, round=1)
    url = f"{live_server.url}/leagues/autumn/{season.pk}/"
    check_page(page, request, url, "season")
    page.set_viewport_size(PHONE)
    page.goto(url)
    assert page.evaluate(SWIPED) == []
    first = page.locator("table.standings tbody tr").first
    labels = first.evaluate(
        "tr => [...tr.querySelectorAll('td')].map(td => getComputedStyle(td, '::before').content)"
    )
    assert '"Points "' in labels and '"Rating "' in labels, labels  # each value says what it is
    box = first.bounding_box()
    assert box is not None and box["x"] + box["width"] <= 390
    screenshot(page, request, "standings-phone")


def test_the_players_own_page_on_a_phone_breaks_no_word_and_scrolls_nothing_sideways(
    live_server, page, request
):
    game = running_game(3, seed="phone-me", name="Ravensburger Abend")
    seat = game.seats.get(position=whose_turn(game))
    seat.player.time_zone = "Europe/Berlin"
    seat.player.language = "de"
    seat.player.save()
    PendingDecision.objects.filter(game=game, seat=seat.position).update(
        deadline_at=timezone.now() + timedelta(hours=5)
    )
    url = live_server.url + reverse("games:player", args=[links.player_key(seat.player)])
    check_page(page, request, url, "me")
    page.set_viewport_size(PHONE)
    page.goto(url)
    assert page.evaluate(SWIPED) == []
    cells: list[dict[str, Any]] = page.evaluate(
        """() => [...document.querySelectorAll('table.mine td')].map(td => ({
            wrap: getComputedStyle(td).overflowWrap, hyphens: getComputedStyle(td).hyphens,
            text: td.innerText}))"""
    )
    assert cells and all(c["wrap"] != "anywhere" and c["hyphens"] != "auto" for c in cells), cells
    decide = page.inner_text("#decide")
    assert "Berlin (Deutschland)" in decide and "Stunden" in decide and "Ravensburger" in decide
    screenshot(page, request, "me-phone")


def test_the_archives_filters_are_folded_so_the_results_start_on_a_phones_first_screen(
    live_server, page, request
):
    for n in range(3):
        running_game(3, seed=f"phone-archive-{n}", name=f"Evening {n}")
    url = f"{live_server.url}/games/"
    check_page(page, request, url, "archive")
    page.set_viewport_size(PHONE)
    page.goto(url)
    assert not page.locator("#more-filters").evaluate("d => d.open")
    assert page.locator("#results").bounding_box()["y"] < PHONE["height"]
    screenshot(page, request, "archive-folded")
    page.fill("#id_player", "Ada")
    page.click("form.archive-search button[type=submit]")
    page.wait_for_url("**/games/?*")
    assert not page.locator("#more-filters").evaluate("d => d.open")
    page.goto(url + "?status=running")
    assert page.locator("#more-filters").evaluate("d => d.open")  # a filter in use stays in view
