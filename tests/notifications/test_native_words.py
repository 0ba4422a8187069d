"""German and French mails as a native reader reads them: the game's own words (tiles,
directions, lists) in the reader's language and grammar, rendered from real games."""

from __future__ import annotations

import html
import random
import re

import pytest
from django.db import transaction
from django.test import Client
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext

from games import services
from games.models import Game
from games.presentation import steps
from games.rules import registry
from games.rules import whitelotus as wl
from games.rules.base import LogEntry, Message
from games.services import links
from notifications.models import OutboundMail
from notifications.outbound import emails
from tests.games.factories import players, running_game
from tests.notifications.mailkinds import handed_over_mails, seat_mail, speak

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def no_language_left_behind():
    """A page asked for in German or French leaves its language active: put English back."""
    yield
    translation.activate("en")


# what a drawn tile is called, by language; never the engine's English word
TILES = {
    "de": {
        "palace": "Palast",
        "temple": "Tempel",
        "fort": "Festung",
        "ricefield": "Reisfeld",
        "village": "Dorf",
    },
    "fr": {
        "palace": "palais",
        "temple": "temple",
        "fort": "fort",
        "ricefield": "rizière",
        "village": "village",
    },
}
DREW = {"de": "Dein gezogenes Plättchen:", "fr": "La tuile que vous avez piochée\u00a0:"}


def drawing_seat(game) -> int:
    """Plays a Kosmos game at random until a seat has drawn a tile; that seat."""
    rng = random.Random(5)
    state = services.head_state(game)
    for _ in range(400):
        for seat in range(state.players):
            if wl.view(state, seat).get("drawn"):
                game.refresh_from_db()
                return seat
        decision = rng.choice(wl.pending(state))
        services.submit(game, decision.seat, rng.choice(wl.legal(state, decision.seat)))
        state = services.head_state(game)
    raise AssertionError("no tile was drawn")


@pytest.mark.parametrize("language", ["de", "fr"])
def test_the_tile_a_seat_drew_is_named_in_the_readers_language(language):
    game = running_game(4, edition="kosmos", seed="drawn-tile")
    seat = drawing_seat(game)
    drawn = wl.view(services.head_state(game), seat)["drawn"]
    speak(game.seats.get(position=seat).player, language)
    rendered = emails.render(seat_mail("decision", game, seat))
    for text in (rendered.text, rendered.html):
        assert f"{DREW[language]} {TILES[language][drawn]}" in text.replace("</strong>", "")


# how a direction is said in a sentence, and what a bare compass word after a move looks like
DIRECTIONS = {
    "de": (r"nach (?:Norden|Osten|Süden|Westen)", r"(?:ein Feld|zieht \S+ \(\S+\)) (?:nord|ost|süd|west)\b"),
    "fr": (
        r"vers (?:le nord|l’est|le sud|l’ouest)",
        r"(?:d’une case|déplace \S+ \(\S+\)) (?:nord|est|sud|ouest)\b",
    ),
}


def city_played(moves: int, seed: str):
    """A game of Die Verbotene Stadt for three, ``moves`` bots' moves into it."""
    game = services.create_game(players(3), rules="verbotenestadt", seed=seed)
    services.start_game(game)
    rules = registry.get("verbotenestadt")
    bots = [rules.about.Bot(f"{seed}:{seat}") for seat in range(3)]
    state = services.head_state(game)
    for _ in range(moves):
        pending = rules.pending(state)
        if not pending:
            break
        seat = pending[0].seat
        services.submit(game, seat, bots[seat].choose(state, seat))
        state = services.head_state(game)
    game.refresh_from_db()
    return game


@pytest.mark.parametrize("language", ["de", "fr"])
def test_a_move_of_die_verbotene_stadt_names_its_directions_as_the_reader_says_them(language):
    game = city_played(60, seed="directions")
    page = Client(HTTP_ACCEPT_LANGUAGE=language).get(reverse("games:game", args=[game.pk]))
    text = html.unescape(re.sub(r"<[^>]+>", " ", page.content.decode())).replace("\u00a0", " ")
    said, bare = DIRECTIONS[language]
    assert re.search(said, text), "no move named its direction"
    assert not re.findall(bare, text)
    if language == "de":
        assert "ein Feld nach" in text or not re.search(r"\bein Feld\b", text)


def page_text(game, language: str) -> str:
    page = Client(HTTP_ACCEPT_LANGUAGE=language).get(reverse("games:game", args=[game.pk]))
    assert page.status_code == 200
    return html.unescape(re.sub(r"<[^>]+>", " ", page.content.decode())).replace("\u00a0", " ")


@pytest.fixture(scope="module")
def lotus_played(django_db_setup, django_db_blocker):
    """A whole White Lotus game for four, played at random through the service."""
    with django_db_blocker.unblock(), transaction.atomic():
        game = running_game(4, edition="kosmos", seed="native-reader")
        state = services.head_state(game)
        rng = random.Random(3)
        while wl.outcome(state) is None:
            decision = rng.choice(wl.pending(state))
            services.submit(game, decision.seat, rng.choice(wl.legal(state, decision.seat)))
            state = services.head_state(game)
        game.refresh_from_db()
        yield game
        transaction.set_rollback(True)
    services.clear_caches()  # the rolled-back game's id may be reused
    steps.clear_cache()


# a list of seats in a sentence ends with the reader's "and"
LISTS = {
    "de": (r"zwischen (?:\w+, )*\w+ und \w+", r"zwischen (?:\w+, )+\w+[.;)]"),
    "fr": (r"entre (?:\w+, )*\w+ et \w+", r"entre (?:\w+, )+\w+[.;)]"),
}


@pytest.mark.parametrize("language", ["de", "fr"])
def test_a_list_of_seats_ends_with_and_in_the_readers_language(lotus_played, language):
    text = page_text(lotus_played, language)
    joined, bare = LISTS[language]
    assert re.search(joined, text)
    assert not re.findall(bare, text)


def test_german_narration_says_a_forced_move_was_played_and_the_game_is_a_partie(lotus_played):
    text = page_text(lotus_played, "de")
    assert "hatte nur eine Möglichkeit; sie wurde gespielt." in text
    assert "wird gespielt" not in text
    assert "Die Partie ist zu Ende." in text
    assert not re.search(r"\b(?:das|dieses|des) Spiel(?:s)?\b", text)


@pytest.mark.parametrize(
    ("language", "n", "said"),
    [
        ("de", 1, "Rot wird mit 1 Palast Kaiser."),
        ("de", 2, "Rot wird mit 2 Palästen Kaiser."),
        ("fr", 0, "(Choix secret : 0 palais en armée.)"),
        ("en", 0, "(You sealed: 0 palaces as army.)"),
        ("en", 1, "Red becomes emperor with 1 palace."),
    ],
)
def test_a_count_of_palaces_takes_the_form_its_number_asks_for(language, n, said):
    state = services.head_state(running_game(4, edition="kosmos", seed="palaces"))
    kind, data = (
        ("sealed", {"seat": 0, "palaces_as_army": n})
        if "(" in said
        else ("emperor", {"seat": 0, "palaces": n})
    )
    message = wl.narration(state, LogEntry(kind, data))
    stored = Message.from_data(message.to_data())  # as the narration projection keeps it
    assert stored is not None
    with translation.override(language):
        assert stored.render(gettext).replace("\u00a0", " ") == said
    assert "/" not in gettext_in("de", message) and "(s)" not in message.render()


def gettext_in(language: str, message: Message) -> str:
    with translation.override(language):
        return message.render(gettext)


def test_french_says_points_without_a_bracketed_plural(lotus_played):
    assert "(s)" not in page_text(lotus_played, "fr")


@pytest.fixture
def city_mail_fr():
    """A decision mail of Die Verbotene Stadt to a French reader, in the middle of a game,
    and the text board the game draws for that seat."""
    game = city_played(12, seed="french-city")
    rules = registry.get("verbotenestadt")
    state = services.head_state(game)
    seat = rules.pending(state)[0].seat
    speak(game.seats.get(position=seat).player, "fr")
    row = OutboundMail.objects.filter(game=game, seat=seat, kind="decision").order_by("seq").last()
    assert row is not None and row.seq == game.head_seq
    rendered = emails.render(row)
    names = {s.colour: s.player.name for s in game.seats.select_related("player")}
    with translation.override("fr"):
        board = rules.text_board(rules.view(state, seat), names, gettext)
    return rendered, board


def test_the_french_typography_leaves_the_text_board_as_the_game_draws_it(city_mail_fr):
    rendered, board = city_mail_fr
    grid = [line for line in board if re.search(r"\S {2,}\S", line)]
    assert any(" : " in line for line in grid)  # a start square, spaced like every square
    lines = rendered.text.splitlines()
    for line in grid:
        assert line.rstrip() in lines, line


def test_the_french_mail_of_die_verbotene_stadt_reads_as_french(city_mail_fr):
    rendered, _board = city_mail_fr
    text = rendered.text
    assert "La Cité interdite par courriel" in text and "Die Verbotene Stadt" not in text
    assert "La Cité interdite" in rendered.subject or "Partie" in rendered.subject
    assert not re.search(r"[^\W\d_]'[^\W\d_]", text), "a straight apostrophe in French prose"
    assert "’" in text
    # a seat is a name: "Est" wherever it stands, never the compass word "est"
    assert not re.search(r"(?:jouez|trait\s:|\()\s?(?:nord|est|sud|ouest)\b", text)
    assert not re.search(r"^(?:nord|est|sud|ouest) ", text, re.MULTILINE)
    assert "re-corruption" not in text.lower()


def test_a_new_year_heads_the_news_that_follow_it_not_an_item_among_them(lotus_played):
    game = lotus_played
    for holder in game.seats.select_related("player"):
        speak(holder.player, "de")
    for row in OutboundMail.objects.filter(game=game, kind__in=("decision", "year")).order_by("seq")[:80]:
        rendered = emails.render(row)
        if "--- Jahr" not in rendered.text:
            continue
        assert re.search(r"^--- Jahr \d+ \(Kaiser: \w+\) ---$", rendered.text, re.MULTILINE), rendered.text
        assert not re.search(r"^\s+- ---", rendered.text, re.MULTILINE)
        assert "<li>--- Jahr" not in rendered.html and "<strong>--- Jahr" in rendered.html
        return
    raise AssertionError("no mail told of a new year")


def test_a_heading_of_the_status_answer_keeps_its_closing_marks_on_its_last_line():
    game = running_game(4, edition="kosmos", seed="status-heading")
    Game.objects.filter(pk=game.pk).update(
        name="Herbstliga der Freunde des gepflegten Brettspiels, Kreis Nordland 1"
    )
    player = game.seats.get(position=0).player
    speak(player, "de")
    answer = OutboundMail(
        kind="account", player=player, to_email=player.email, context={"topics": ["status"]}
    )
    lines = emails.render(answer).text.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("== Herbstliga"))
    assert not lines[start].endswith("==") and lines[start + 1].endswith(" ==")
    assert all(line.strip() != "==" for line in lines)


@pytest.mark.parametrize(("language", "vienna"), [("de", "Wien (Österreich)"), ("fr", "Vienne (Autriche)")])
def test_the_players_page_names_the_time_zones_in_the_readers_language(language, vienna):
    (player,) = players(1)
    speak(player, language)
    page = Client(HTTP_ACCEPT_LANGUAGE=language).get(links.player_page_url(player)).content.decode()
    select = re.search(r'(?s)<select\b[^>]*name="time_zone".*?</select>', page)
    assert select is not None
    options = html.unescape(select.group(0))
    assert f'value="Europe/Vienna">{vienna}<' in options
    assert ">Europe / Vienna<" not in options and ">Vienna<" not in options


def test_a_game_without_a_name_is_never_dropped_into_a_french_sentence_as_partie_3():
    game = running_game(4, edition="kosmos", seed="unnamed")
    assert not game.name
    for mail in handed_over_mails(game, 1, "fr"):
        text = emails.render(mail).text.replace("\u00a0", " ")
        assert f"Partie {game.pk}" in text
        assert not re.search(rf"\b(?:pour|dans|de|à) Partie {game.pk}\b", text), text
