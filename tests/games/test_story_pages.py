"""A German or French reader reads the game's story and the game's words in their language on
the pages: the log, the replay's narration and chance, private lines, the seats' names, Die
Verbotene Stadt's state (edition, phase, dice, pavilions, cards, the dial), a season's rules."""

from __future__ import annotations

import random
import re

import pytest
from django.test import Client
from django.urls import reverse

from games.models import Game
from games.services import links
from leagues.models import League, LeagueGame
from tests.games.factories import play_randomly, running_game
from tests.games.helpers import play, text_of, vs_game
from tests.leagues.helpers import season_of

pytestmark = pytest.mark.django_db


def page(url: str, language: str = "de") -> str:
    return text_of(Client(headers={"accept-language": language}).get(url).content.decode())


def seat_page(game: Game, position: int, language: str = "de") -> str:
    seat = game.seats.get(position=position)
    seat.player.language = language
    seat.player.save()
    return page(reverse("games:seat", args=[links.seat_key(seat)]), language)


@pytest.fixture
def lotus() -> Game:
    game = running_game(4, seed="story-pages")
    play_randomly(game, random.Random(3), 40)
    return game


def test_a_german_reader_reads_the_white_lotus_log_in_german(lotus):
    html = page(f"/games/{lotus.pk}/")
    assert "setzt einen Gebietsmarker auf" in html and "--- Jahr 2 (Kaiser:" in html
    assert "places a marker" not in html and "--- Year" not in html


def test_a_french_reader_reads_the_log_and_the_private_lines_in_french(lotus):
    html = seat_page(lotus, 1, "fr")
    assert "place un pion sur" in html and "places a marker" not in html
    assert "[à Bleu seulement]" in html and "[to blue only]" not in html


def test_the_seat_pages_title_names_the_seat_in_the_readers_language(lotus):
    seat = lotus.seats.get(position=1)
    seat.player.language = "de"
    seat.player.save()
    raw = Client().get(reverse("games:seat", args=[links.seat_key(seat)])).content.decode()
    assert re.search(r"<title>[^<]*: Blau ·", raw)


def test_a_finished_games_replay_says_the_chance_in_the_readers_words(lotus):
    play_randomly(lotus, random.Random(4))
    html = page(reverse("games:replay-step", args=[lotus.pk, 1]))  # the setup's draws
    chance = html.split("Zufall:")[1][:300]
    assert "fülle " in chance and not re.search(r"\b(first|draw|fill)\b", chance)
    assert "Sieger" in page(f"/games/{lotus.pk}/") or "Gewinner" in page(f"/games/{lotus.pk}/")


def test_die_verbotene_stadt_speaks_german_on_its_pages():
    game = vs_game(3, seed="story-vs")
    play(game, 40)
    html = seat_page(game, 1)
    assert "Ravensburger (veröffentlichte Regeln)" in html and "ravensburger ·" not in html
    assert re.search(r"Phase (Tafeln einstellen|Beamte ziehen|eine Karte nehmen|die Herausforderung)", html)
    assert "Pavillon" in html and not re.search(
        r"\d (red|orange|yellow|white|blue|purple|green|black) \d", html
    )
    assert not re.search(r"\b(north|east|south) \(", html)  # "Ost (Bao)", not "east (Bao)"
    assert not re.search(r"\b(red|yellow|blue|green|black) (Hut|Gewand)", html)  # "Hut Blau", not "blue Hut"
    assert not re.search(r"\b(large|middle|small) Würfel", html)
    assert "Nord zieht" in html or "Süd zieht" in html or "Ost zieht" in html


def test_a_seasons_rules_are_said_in_the_readers_language():
    league = League.objects.create(name="Autumn Lotus League", slug="autumn")
    season = season_of(
        league, ["Ada", "Bao", "Chen"], signup_open=False, edition="designer", options={"negotiation": True}
    )
    LeagueGame.objects.create(game=running_game(3, seed="story-season"), season=season, round=1)
    html = Client(headers={"accept-language": "de"}).get(f"/leagues/autumn/{season.pk}/").content.decode()
    facts = dict(re.findall(r"<dt>(.*?)</dt><dd>(.*?)</dd>", html))
    assert facts["Partie"] == "Der weiße Lotus" and facts["Edition"] == "Autor (Wallaces Regeln)"
    assert facts["Geschenke zwischen Spielern (Variante für eifrige Verhandler)"] == "ja"
    assert facts["Ein neuer Gebietsmarker neben"] == "dem Marker eines beliebigen Spielers"
    assert facts["Zusätzlicher Gebietsmarker durch ein Reisfeld"] == "darf abgelehnt werden"
    assert facts["Spielbrett"].startswith("China (")
    english = {"zero card", "negotiation", "open hands", "adjacency", "any", "may", "public (only to all)"}
    assert not english & set(facts) and not english & set(facts.values())


def test_table_talk_names_the_seats_in_the_readers_language():
    from games.services import press as table_talk

    game = running_game(4, seed="story-talk", press="full")
    table_talk.say(game, 1, ["yellow"], "Let us share Ningxia.")
    html = seat_page(game, 1)
    assert "Blau → Gelb:" in html and "blue → yellow" not in html


def test_the_audit_narrates_in_the_moderators_language(mod, lotus):
    html = mod.get(
        reverse("admin:games_game_audit", args=[lotus.pk]), HTTP_ACCEPT_LANGUAGE="fr"
    ).content.decode()
    assert "place un pion sur" in html and "places a marker" not in html
