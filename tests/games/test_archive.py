"""The games list and archive (``/games/``): each search filter, paging, who must move and the
deadline, the winners, and the downloads of a game's record (text and JSON) — nothing of a
running game's hidden information or seed, no player's address, and a JSON record that
``import_game`` turns back into the same game."""

from __future__ import annotations

import html
import json
import random
import re
from datetime import UTC, timedelta
from pathlib import Path
from typing import Any

import pytest
from django.core.management import call_command
from django.test import Client
from django.urls import reverse
from django.utils import timezone, translation

from games import services
from games.models import Game, PendingDecision
from games.presentation import steps
from games.rules import whitelotus as wl
from games.web import archive
from leagues.models import League, LeagueGame, Season
from tests.games.factories import play_randomly, players, running_game

pytestmark = pytest.mark.django_db

INDEX = "/games/"


@pytest.fixture(autouse=True)
def _fresh_timelines() -> None:
    steps.clear_cache()  # kept per (game id, creation time, head): tests reuse ids and times


def listed(query: dict[str, Any] | None = None) -> list[int]:
    """The ids of the games the archive lists for ``query``, in its order."""
    response = Client().get(INDEX, query or {})
    assert response.status_code == 200
    return [int(n) for n in re.findall(r'data-game="(\d+)"', response.content.decode())]


def text_of(url: str, query: dict[str, Any] | None = None) -> str:
    response = Client().get(url, query or {})
    assert response.status_code == 200, (url, response.status_code)
    return html.unescape(response.content.decode()).replace("\xa0", " ")


def finished_game(seed: str = "archive-finished") -> Game:
    game = running_game(3, seed=seed)
    play_randomly(game, random.Random(5))
    assert game.status == Game.Status.FINISHED
    return game


def test_the_player_filter_finds_a_players_games_by_part_of_their_name():
    three = running_game(3, seed="archive-three")
    four = running_game(4, seed="archive-four")  # Dara plays only here
    assert listed({"player": "dar"}) == [four.pk]
    assert listed({"player": "ADA"}) == [four.pk, three.pk]  # latest first
    assert listed({"player": "nobody"}) == []


def test_the_player_count_filter():
    three = running_game(3, seed="archive-count3")
    running_game(4, seed="archive-count4")
    assert listed({"players": "3"}) == [three.pk]
    assert listed({"players": "3", "player": "ada"}) == [three.pk]  # all three seats counted, not Ada's


def test_the_edition_and_game_filters():
    designer = running_game(3, edition="designer", seed="archive-designer")
    kosmos = running_game(3, seed="archive-kosmos")
    stadt = services.create_game(players(4), rules="verbotenestadt", seed="archive-stadt")
    assert listed({"edition": "designer"}) == [designer.pk]
    assert listed({"game": "whitelotus"}) == [kosmos.pk, designer.pk]
    assert listed({"game": "verbotenestadt"}) == [stadt.pk]


def test_the_status_filter_counts_a_paused_game_as_running():
    new = services.create_game(players(3), seed="archive-new")
    paused = running_game(3, seed="archive-paused")
    Game.objects.filter(pk=paused.pk).update(status=Game.Status.PAUSED)
    done = finished_game()
    assert listed({"status": "new"}) == [new.pk]
    assert listed({"status": "running"}) == [paused.pk]
    assert listed({"status": "finished"}) == [done.pk]
    assert listed({"order": "finished"})[0] == done.pk  # the unfinished after it, on any database
    assert listed({"order": "oldest"}) == [new.pk, paused.pk, done.pk]


def test_the_date_filters_read_creation_and_finishing_days():
    old = running_game(3, seed="archive-old")
    recent = running_game(3, seed="archive-recent")
    now = timezone.now()
    Game.objects.filter(pk=old.pk).update(created_at=now - timedelta(days=400))
    Game.objects.filter(pk=recent.pk).update(
        status=Game.Status.FINISHED, created_at=now - timedelta(days=30), finished_at=now - timedelta(days=10)
    )
    day = timedelta(days=1)
    assert listed({"since": (now - 40 * day).date().isoformat()}) == [recent.pk]
    assert listed({"until": (now - 300 * day).date().isoformat()}) == [old.pk]
    # finished ten days ago: not "on or before" eleven days ago
    assert listed({"until": (now - 11 * day).date().isoformat()}) == [old.pk]
    assert listed(
        {"since": (now - 31 * day).date().isoformat(), "until": (now - 9 * day).date().isoformat()}
    ) == [recent.pk]


def test_the_league_and_season_filters_and_each_row_links_its_season():
    league = League.objects.create(name="Autumn league", slug="autumn")
    other = League.objects.create(name="Spring league", slug="spring")
    first = Season.objects.create(league=league, name="2025")
    second = Season.objects.create(league=league, name="2026")
    elsewhere = Season.objects.create(league=other, name="2026")
    a, b, c = (running_game(3, seed=f"archive-league-{n}") for n in range(3))
    loose = running_game(3, seed="archive-loose")
    LeagueGame.objects.create(game=a, season=first, round=1)
    LeagueGame.objects.create(game=b, season=second, round=1)
    LeagueGame.objects.create(game=c, season=elsewhere, round=1)
    assert listed({"league": "autumn"}) == [b.pk, a.pk]
    assert listed({"season": str(second.pk)}) == [b.pk]
    assert listed({"league": "spring", "season": str(first.pk)}) == []
    assert loose.pk in listed() and len(listed()) == 4
    text = text_of(INDEX, {"season": str(first.pk)})
    assert "Autumn league: 2025" in text and f'href="/leagues/autumn/{first.pk}/"' in text


def test_a_search_the_form_cannot_read_shows_every_game_and_says_so():
    game = running_game(3, seed="archive-bad")
    response = Client().get(INDEX, {"players": "many", "since": "yesterday"})
    assert response.status_code == 200
    text = html.unescape(response.content.decode())
    assert "could not be read" in text and f'data-game="{game.pk}"' in text


def test_fifty_games_a_page_and_the_search_kept_from_page_to_page():
    made = Game.objects.bulk_create(
        Game(name=f"Table {n}", engine_version="x", board_digest="x", seed_hash=f"{n:064x}")
        for n in range(53)
    )
    first = listed({"status": "new"})
    assert len(first) == archive.PER_PAGE == 50
    second = listed({"status": "new", "page": "2"})
    assert len(second) == 3 and not set(first) & set(second)
    assert set(first) | set(second) == {g.pk for g in made}
    text = text_of(INDEX, {"status": "new"})
    assert "page 1 of 2" in text and 'href="?status=new&page=2"' in text
    assert listed({"status": "new", "page": "99"}) == second  # past the end: the last page


def test_a_running_row_names_whose_move_it_is_and_the_deadline_without_addresses():
    game = running_game(3, seed="archive-move")
    mover = wl.pending(services.head_state(game))[0].seat
    seat = game.seats.select_related("player").get(position=mover)
    due = PendingDecision.objects.get(game=game, seat=mover).deadline_at
    assert due is not None
    text = text_of(INDEX)
    row = text[text.index(f'data-game="{game.pk}"') :]
    move = row[row.index('class="move"') : row.index("</p>", row.index('class="move"'))]
    assert seat.player.name in move
    assert due.astimezone(UTC).strftime("%Y-%m-%dT%H:%M") in move
    for other in game.seats.select_related("player"):
        assert other.player.name in row
    assert "@" not in text


def test_a_finished_row_names_the_winners_and_offers_the_records_and_replay():
    game = finished_game()
    outcome = wl.outcome(services.head_state(game))
    assert outcome is not None
    best = min(outcome.rank)
    winners = {s.player.name for s in game.seats.select_related("player") if outcome.rank[s.position] == best}
    text = text_of(INDEX)
    result = re.search(r'<p class="result">(.*?)</p>', text, re.S)
    assert result is not None
    assert {name for name in ("Ada", "Bao", "Chen") if name in result.group(1)} == winners
    for url in ("games:replay", "games:record", "games:record-json"):
        assert f'href="{reverse(url, args=[game.pk])}"' in text
    assert "@" not in text


def test_a_running_game_offers_no_download_and_shows_no_seed():
    game = running_game(3, seed="archive-secret-seed")
    for url in ("games:record", "games:record-json"):
        assert Client().get(reverse(url, args=[game.pk])).status_code == 404
    index = text_of(INDEX)
    page = text_of(reverse("games:game", args=[game.pk]))
    for text in (index, page):
        assert "archive-secret-seed" not in text
        assert "record.json" not in text and "record.txt" not in text
    assert "can be downloaded when the game is over" in page


def test_the_finished_games_downloads_hold_no_address_and_the_page_links_them():
    game = finished_game()
    record = text_of(reverse("games:record", args=[game.pk]))
    data = json.loads(text_of(reverse("games:record-json", args=[game.pk])))
    assert "@" not in record and "@" not in json.dumps(data)
    assert data["header"]["seed"] == "archive-finished"  # revealed at the end
    assert [p["name"] for p in data["players"]] == ["Ada", "Bao", "Chen"]
    assert len(data["moves"]) == len(record.partition("\n\n")[2].splitlines())
    page = text_of(reverse("games:game", args=[game.pk]))
    assert f'href="/games/{game.pk}/record.json"' in page and f'href="/games/{game.pk}/record.txt"' in page


@pytest.mark.parametrize("suffix", ["json", "txt"])
def test_a_downloaded_record_imports_to_the_same_final_state(tmp_path: Path, suffix: str):
    game = finished_game(seed=f"archive-round-trip-{suffix}")
    path = tmp_path / f"game.{suffix}"
    path.write_text(text_of(f"/games/{game.pk}/record.{suffix}"), encoding="utf-8")
    call_command("import_game", str(path), stdout=open("/dev/null", "w"))  # noqa: SIM115
    imported = Game.objects.exclude(pk=game.pk).get()
    assert imported.status == Game.Status.FINISHED and imported.name == str(game)
    assert wl.state_to_dict(services.head_state(imported)) == wl.state_to_dict(services.head_state(game))
    # a public record has no addresses: the seats go to placeholders, never mailed
    assert all(e.endswith("@import.invalid") for e in imported.seats.values_list("player__email", flat=True))


def test_a_json_text_that_is_not_a_record_is_refused_by_import_game(tmp_path: Path):
    path = tmp_path / "other.json"
    path.write_text('{"format": "something else"}', encoding="utf-8")
    with pytest.raises(Exception, match="Not a valid game record"):
        call_command("import_game", str(path))
    assert not Game.objects.exists()


def test_the_page_reads_a_bounded_number_of_queries_however_many_games(django_assert_max_num_queries):
    league = League.objects.create(name="Autumn league", slug="autumn")
    season = Season.objects.create(league=league, name="2026")
    done = finished_game()
    LeagueGame.objects.create(game=done, season=season, round=1)
    for n in range(12):
        game = running_game(3 + n % 3, seed=f"archive-many-{n}")
        LeagueGame.objects.create(game=game, season=season, round=2 + n)
    services.create_game(players(4), seed="archive-many-new")
    Client().get(INDEX)  # a first request warms up; the winners are read from the result rows
    with django_assert_max_num_queries(9):
        assert len(listed({"league": "autumn"})) == 13
    with django_assert_max_num_queries(9):
        assert len(listed()) == 14


def test_the_archive_speaks_the_readers_language():
    running_game(3, seed="archive-german")
    with translation.override("de"):
        response = Client().get(INDEX, HTTP_ACCEPT_LANGUAGE="de")
    text = html.unescape(response.content.decode())
    assert "Partien durchsuchen" in text and "Am Zug:" in text and "Name eines Spielers" in text
    with translation.override("fr"):
        response = Client().get(INDEX, {"player": "zzz"}, HTTP_ACCEPT_LANGUAGE="fr")
    assert "Aucune partie ne correspond à cette recherche." in html.unescape(response.content.decode())
