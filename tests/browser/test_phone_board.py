"""What a phone (Chromium, 390 x 844) reads without zooming: the board written out before the
picture (whose own names and pieces are 2 to 8 px there) in 12 px with nothing to swipe
sideways, names with no space in them wrapped on every page, and a league's standings before
its lists of games."""

from __future__ import annotations

import random
import re
from typing import Any

import pytest
from django.urls import reverse

from games.models import Player
from games.services import links
from leagues.models import League, LeagueGame, Season
from tests.browser.conftest import check_page, screenshot
from tests.browser.playing import deciding_seat, played_vs
from tests.games.factories import play_randomly, players, running_game

pytestmark = pytest.mark.usefixtures("live_db")

PHONE = {"width": 390, "height": 844}
LONG = "Wilhelmine-Auguste-Charlotte-von-Hohenzollern-Sigmaringen"  # a name with no space

# the written board as it is laid out: its font size, where it and the picture start, whether it
# or a line of it scrolls sideways, and each line that would fit the box but was broken
WRITTEN = """() => {
    const pre = document.querySelector('#board-text pre');
    const style = getComputedStyle(pre);
    const probe = document.createElement('span');
    probe.textContent = '0'.repeat(40);
    probe.style.whiteSpace = 'pre';
    pre.appendChild(probe);
    const ch = probe.getBoundingClientRect().width / 40;
    probe.remove();
    const width = pre.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
    const lineHeight = parseFloat(style.lineHeight);
    const lines = [...pre.querySelectorAll('.line')];
    const top = e => e.getBoundingClientRect().top + window.scrollY;
    return {
        fontSize: parseFloat(style.fontSize),
        top: top(pre),
        pictureTop: top(document.getElementById('board')),
        lines: lines.length,
        swiped: [pre, ...lines].filter(e => e.scrollWidth > e.clientWidth).map(e => e.textContent),
        broken: lines.filter(l => l.textContent.length * ch <= width
                                  && l.getBoundingClientRect().height > 1.5 * lineHeight)
                     .map(l => l.textContent),
        wrapped: lines.filter(l => l.getBoundingClientRect().height > 1.5 * lineHeight).length,
    };
}"""
STANDINGS = """() => [...document.querySelectorAll('table.standings')]
    .map(t => t.getBoundingClientRect().top + window.scrollY)"""


def _midgame_with_a_long_name() -> Any:
    """A White Lotus game some turns in (chips and VP on the players' lines), its first player
    named with no space."""
    game = running_game(4, seed="phone-board-wl", name="Silk Road")
    Player.objects.filter(seats__game=game, seats__position=0).update(name=LONG)
    play_randomly(game, random.Random(7), moves=30)
    return game


@pytest.mark.parametrize(
    ("label", "make"), [("whitelotus", _midgame_with_a_long_name), ("verbotenestadt", played_vs)]
)
def test_on_a_phone_the_board_is_written_out_before_the_picture_in_12px_with_nothing_to_swipe(
    live_server, page, request, label, make
):
    seat = deciding_seat(make())
    page.set_viewport_size(PHONE)
    for url in (
        live_server.url + reverse("games:seat", args=[links.seat_key(seat)]),
        f"{live_server.url}/games/{seat.game.pk}/",
    ):
        page.goto(url)
        written = page.evaluate(WRITTEN)
        assert written["fontSize"] >= 12, written
        assert written["top"] < written["pictureTop"], "the picture comes before the written board"
        assert written["lines"] > 10
        assert written["swiped"] == [], f"lines to swipe sideways: {written['swiped']}"
        assert written["broken"] == [], f"lines that fit the box were broken: {written['broken']}"
        overflow = page.evaluate(
            "document.documentElement.scrollWidth - document.documentElement.clientWidth"
        )
        assert overflow <= 0, f"{url} scrolls sideways by {overflow} px"
    if label == "whitelotus":
        assert written["wrapped"] >= 1  # the long name's line wraps inside the box
        assert LONG in re.sub(r"\s+", "", page.inner_text("#board-text pre"))  # cut, not lost
    screenshot(page, request, "written-board")


def test_names_with_no_space_wrap_on_every_page_a_phone_shows(live_server, page, request):
    league = League.objects.create(name="Die" + "Lotusblütenliga" * 4, slug="long")
    season = Season.objects.create(league=league, name="Frühjahrsrunde" * 3, signup_open=True, ready_hours=0)
    for player in players(4):
        season.memberships.create(player=player)
    Player.objects.filter(email="ada@example.org").update(name=LONG)
    game = running_game(4, seed="phone-long-names", name="Seidenstraßenabend" * 3)
    LeagueGame.objects.create(game=game, season=season, round=1)
    seat = deciding_seat(game)
    for url, label in (
        ("/", "front"),
        ("/leagues/", "leagues"),
        ("/leagues/long/", "league"),
        (f"/leagues/long/{season.pk}/", "season"),
        (f"/games/{game.pk}/", "game"),
        (reverse("games:seat", args=[links.seat_key(seat)]), "seat"),
        (reverse("games:player", args=[links.player_key(seat.player)]), "me"),
    ):
        check_page(page, request, live_server.url + url, label)  # no sideways scroll at 390 px


def test_a_league_page_on_a_phone_shows_each_seasons_standings_before_its_games(live_server, page, request):
    league = League.objects.create(
        name="Autumn Lotus League", slug="autumn", description="Four rounds, two a month."
    )
    older = Season.objects.create(league=league, name="2026 Spring", signup_open=False, ready_hours=0)
    newer = Season.objects.create(league=league, name="2026 Autumn", signup_open=True, ready_hours=0)
    for season in (older, newer):
        for player in players(6):
            season.memberships.create(player=player)
    for n in range(12):
        LeagueGame.objects.create(
            game=running_game(4, seed=f"league-top-{n}", name=f"Evening {n}"), season=newer, round=n + 1
        )
    url = f"{live_server.url}/leagues/autumn/"
    check_page(page, request, url, "league")
    page.set_viewport_size(PHONE)
    page.goto(url)
    newest, second = page.evaluate(STANDINGS)
    assert newest < PHONE["height"] / 2, f"the season's standings start {newest:.0f} px down"
    assert second < 2 * PHONE["height"], f"the earlier season's standings start {second:.0f} px down"
    games = page.locator(f"#season-games-{newer.pk}")
    assert not games.evaluate("d => d.open") and "12 games" in games.inner_text()
    games.locator("summary").click()
    assert page.locator(f"#season-games-{newer.pk} li.archive-game").count() == 12
    screenshot(page, request, "league-phone")
