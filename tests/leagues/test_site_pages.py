"""The front page, the leagues' index, a league's page and a season's page: what they show,
what they link to, and that no player's address appears on any of them."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from games import services
from games.models import Game
from leagues.models import League, LeagueGame
from leagues.projection import rebuild
from tests.contract import sealedbids
from tests.contract.helpers import registered
from tests.games.factories import running_game, whose_turn
from tests.leagues.helpers import season_of

pytestmark = pytest.mark.django_db


@pytest.fixture
def league() -> League:
    return League.objects.create(name="Autumn Lotus League", slug="autumn", description="Four rounds.")


def text(url: str) -> str:
    response = Client().get(url)
    assert response.status_code == 200, url
    return response.content.decode()


def no_address(html: str) -> None:
    addresses = set(re.findall(r"[\w.+-]+@[\w-]+\.[\w.]+", html)) - {"play@lotus.test"}
    assert not addresses, f"addresses on a public page: {addresses}"


def finished(game: Game) -> Game:
    while game.status == Game.Status.RUNNING:
        services.apply_default(game, whose_turn(game))
        game.refresh_from_db()
    return game


def test_the_front_page_says_what_this_is_how_to_join_and_what_runs(league):
    season_of(league, ["Ada", "Bao", "Chen"], signup_open=True)
    game = running_game(3, seed="front", name="Jade Court")
    html = text("/")
    assert "White Lotus" in html and "Die Verbotene Stadt" in html
    assert "<code>join autumn</code>" in html and "play@lotus.test" in html
    assert 'href="/games/' + str(game.pk) + '/"' in html and "Jade Court" in html
    assert 'href="/leagues/autumn/"' in html and 'href="/leagues/"' in html and 'href="/games/"' in html
    no_address(html)


def lead(language: str) -> str:
    response = Client().get("/", HTTP_ACCEPT_LANGUAGE=language)
    assert response.status_code == 200
    found = re.search(r'<p class="lead">(.*?)</p>', response.content.decode(), re.S)
    assert found
    return found.group(1)


@pytest.mark.parametrize(
    ("language", "said"),
    [
        ("en", "Play entirely by email, at your own pace: {games}."),
        ("de", "Spiele ganz per E-Mail, in deinem eigenen Tempo: {games}."),
        ("fr", "Jouez entièrement par courriel, à votre rythme\u00a0: {games}."),  # (the page's typography)
    ],
)
def test_the_front_page_lead_lists_every_registered_game_by_its_title_in_the_reader_s_words(language, said):
    """No game is named by the page: the lead lists the registry's games, a game registered
    (Sealed Bids, with its own catalogue) too, each title said in the reader's language."""
    titles = {
        "en": ["White Lotus", "Die Verbotene Stadt", "Sealed Bids"],
        "de": ["Der weiße Lotus", "Die Verbotene Stadt", "Verdeckte Gebote"],
        "fr": ["Le Lotus blanc", "La Cité interdite", "Enchères scellées"],
    }[language]
    both = {"en": "{} and {}", "de": "{} und {}", "fr": "{} et {}"}[language]
    assert lead(language) == said.format(games=both.format(titles[0], titles[1]))
    with registered("sealedbids", sealedbids):
        games = both.format(", ".join(titles[:-1]), titles[-1])
        assert lead(language) == said.format(games=games)


def test_the_front_page_without_leagues_or_games_says_so():
    html = text("/")
    assert "No game is running just now." in html and "There are no leagues yet." in html


def test_the_leagues_index_lists_each_league_with_its_seasons(league):
    open_season = season_of(league, [], signup_open=True)
    League.objects.create(name="Spring Cup", slug="spring")
    html = text("/leagues/")
    assert "Autumn Lotus League" in html and "Spring Cup" in html
    assert f'href="/leagues/autumn/{open_season.pk}/"' in html and "open for sign-up" in html


def test_the_league_page_shows_each_seasons_games_standings_and_how_to_join(league):
    season = season_of(league, ["Ada", "Bao", "Chen"], signup_open=True)
    game = finished(running_game(3, seed="league-page"))
    LeagueGame.objects.create(game=game, season=season, round=1)
    rebuild(season=season)  # linked after it ended (seating links a game first): counted now
    html = text("/leagues/autumn/")
    assert '<header class="site">' in html  # the site's layout
    assert "To join, mail one line, <code>join autumn</code>, to" in html and "mailto:play@lotus.test" in html
    assert f'href="/games/{game.pk}/"' in html and "Winner" in html
    assert "Standings after 1 finished game" in html
    for name in ("Ada", "Bao", "Chen"):
        assert f'<th scope="row">{name}</th>' in html
    assert f'href="/leagues/autumn/{season.pk}/"' in html
    no_address(html)


def test_the_season_page_says_its_rules_in_words(league):
    season = season_of(
        league,
        ["Ada", "Bao", "Chen"],
        signup_open=False,
        edition="designer",
        options={"negotiation": True},
        time_controls={"hours_per_decision": 72, "quiet_weekends": True},
    )
    game = running_game(3, seed="season-page")
    LeagueGame.objects.create(game=game, season=season, round=1)
    html = text(f"/leagues/autumn/{season.pk}/")
    assert "This season takes no sign-ups." in html and "join autumn" not in html
    facts = dict(re.findall(r"<dt>(.*?)</dt><dd>(.*?)</dd>", html))
    assert facts["Game"] == "White Lotus" and facts["Edition"].startswith("Designer")
    assert (
        facts["Gifts between players (variant for keen negotiators)"] == "yes"
        and facts["Time per decision"] == "72 hours"
    )
    assert "Quiet weekends" in facts
    assert f'href="/games/{game.pk}/"' in html
    no_address(html)


def test_an_unknown_league_or_a_season_of_another_league_is_not_found(league):
    other = season_of(League.objects.create(name="Spring Cup", slug="spring"), [])
    assert Client().get("/leagues/nowhere/").status_code == 404
    assert Client().get(f"/leagues/autumn/{other.pk}/").status_code == 404


def test_the_favicon_is_there_for_pages_that_do_not_name_it():
    response = Client().get("/favicon.ico")
    assert response.status_code == 301 and response["Location"].endswith("/games/favicon.svg")
