"""The public game page, the private seat page behind its secret link, and the privacy of
every page a spectator can open: random whole games through the service, every page read
for another seat's hand, sealed choice or drawn tile."""

from __future__ import annotations

import html
import random
import re
from datetime import UTC, datetime, timedelta
from urllib.parse import urlsplit

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from games import services
from games.models import Game, PendingDecision, Player, SeatKey
from games.presentation import display as pages
from games.presentation import steps
from games.rules import whitelotus as wl
from games.rules.base import LogEntry
from games.services import links
from tests.games.factories import play_randomly, players, running_game

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _fresh_timelines() -> None:
    steps.clear_cache()  # kept per (game id, creation time, head): tests reuse ids and times


def get(client: Client, url: str) -> str:
    response = client.get(url)
    assert response.status_code == 200, (url, response.status_code)
    return html.unescape(response.content.decode()).replace("\xa0", " ")


def path_of(url: str) -> str:
    return urlsplit(url).path


def test_public_page_of_a_running_game_shows_board_players_whose_move_and_deadline():
    game = running_game(4, seed="page-public")
    text = get(Client(), reverse("games:game", args=[game.pk]))
    assert re.search(r'<div id="board" class="board"[^>]*><svg', text) and 'class="province"' in text
    for name, colour in zip(("Ada", "Bao", "Chen", "Dara"), ("red", "blue", "green", "yellow"), strict=True):
        assert re.search(rf'data-colour="{colour}" data-score="0"', text) and name in text
    deadline = PendingDecision.objects.owed().get(game=game).deadline_at
    assert deadline is not None
    assert "Whose move" in text and deadline.astimezone(UTC).strftime("%Y-%m-%d %H:%M UTC") in text
    assert "in 1 day, 23 hours" in text or "in 2 days" in text
    assert "The game started." in text


def test_a_deadline_reads_in_utc_with_how_far_off_it_is():
    now = datetime(2026, 11, 23, 8, 0, tzinfo=UTC)
    assert pages.deadline_text(now + timedelta(days=2), now) == ("2026-11-25 08:00 UTC", "in 2\xa0days")
    assert pages.deadline_text(now - timedelta(minutes=1), now)[1] == "overdue"
    assert pages.deadline_text(None, now) == ("", "")


def test_a_paused_games_page_shows_the_time_left_standing_still_not_a_running_countdown():
    game = running_game(4, seed="page-paused")
    deadline = PendingDecision.objects.owed().get(game=game).deadline_at
    assert deadline is not None
    services.pause(game, by=None, reason="a holiday")
    game.refresh_from_db()
    assert game.clock_stopped_at is not None
    # three days on, still paused: the seat is not overdue, its two days are kept for later
    later = game.clock_stopped_at + timedelta(days=3)
    _, due_in = pages.deadline_text(deadline, later, stopped_at=game.clock_stopped_at)
    assert "overdue" not in due_in and "the clock is stopped" in due_in
    assert due_in.startswith(("1\xa0day, 23\xa0hours left", "2\xa0days left"))
    text = get(Client(), reverse("games:game", args=[game.pk]))
    assert "The game is paused." in text and "the clock is stopped" in text


def test_index_lists_running_and_finished_games():
    game = running_game(3, seed="page-index")
    text = get(Client(), reverse("games:index"))
    assert reverse("games:game", args=[game.pk]) in text


def test_links_are_absolute_and_a_seat_keeps_its_key():
    game = running_game(3, seed="page-links")
    seat = game.seats.get(position=1)
    assert links.game_page_url(game) == f"http://localhost:8000/games/{game.pk}/"
    url = links.seat_page_url(seat)
    assert url.startswith("http://localhost:8000/games/seat/") and links.seat_page_url(seat) == url
    key = url.rstrip("/").rsplit("/", 1)[1]
    assert re.fullmatch(r"[a-z2-7]{26}", key)  # 128 bits in base32


def test_the_seat_page_shows_its_hand_and_menu_and_says_it_is_private():
    game = running_game(3, seed="page-seat")
    seat = game.seats.get(position=0)
    response = Client().get(path_of(links.seat_page_url(seat)))
    assert response.status_code == 200
    assert response["Referrer-Policy"] == "no-referrer"
    assert "noindex" in response["X-Robots-Tag"]
    text = html.unescape(response.content.decode())
    hand = wl.view(services.head_state(game), 0)["hand"]
    assert f"{hand['influence']} influence, {hand['army']} army and the 0 card" in text  # as the mails say
    assert "This page is private; do not share the link." in text
    assert "What you can do now" in text  # red places first
    assert text.count('<dl class="hand"') == 1


def test_a_paused_games_seat_page_offers_no_moves_the_service_would_refuse():
    game = running_game(3, seed="page-seat-paused")
    services.pause(game, by=None, reason="a holiday")
    text = get(Client(), path_of(links.seat_page_url(game.seats.get(position=0))))
    assert "The game is paused." in text
    assert "What you can do now" not in text and 'id="menu"' not in text


def test_a_bad_key_is_a_plain_404():
    running_game(3, seed="page-bad")
    response = Client().get(reverse("games:seat", args=["a" * 26]))
    assert response.status_code == 404


def test_a_replaced_seats_old_link_dies_and_the_new_player_gets_another():
    game = running_game(3, seed="page-replace")
    seat = game.seats.get(position=2)
    old = path_of(links.seat_page_url(seat))
    client = Client()
    assert client.get(old).status_code == 200
    newcomer = Player.objects.create(name="Zoe", email="zoe@example.org")
    services.replace_seat(game, 2, newcomer, by=None, reason="Chen left")
    seat.refresh_from_db()
    assert client.get(old).status_code == 404
    new = path_of(links.seat_page_url(seat))
    assert new != old and client.get(new).status_code == 200
    assert SeatKey.objects.filter(seat=seat).count() == 2


def test_a_seat_page_shows_its_own_private_lines_and_no_one_elses():
    game = running_game(3, seed="page-own-lines")
    rng = random.Random(21)
    state = services.head_state(game)
    said: dict[int, set[str]] = {}
    while len(said) < 3:  # until each seat has been told something private
        assert wl.outcome(state) is None, "the game ended before every seat was told a secret"
        decision = rng.choice(wl.pending(state))
        services.submit(game, decision.seat, rng.choice(wl.legal(state, decision.seat)))
        state = services.head_state(game)
        said = {}
        for _, after, log in services.walk(game):
            for entry in log:
                if entry.private_to is not None:
                    said.setdefault(entry.private_to, set()).add(wl.Presentation.narrate(after, entry))
    game.refresh_from_db()
    client = Client()
    for seat in game.seats.all():
        text = get(client, path_of(links.seat_page_url(seat)))
        assert any(line in text for line in said[seat.position]), seat.colour
        for other, lines in said.items():
            if other != seat.position:
                for line in lines - said[seat.position]:
                    assert line not in text, (seat.colour, line)


def test_a_new_move_shows_at_once_on_the_pages():
    game = running_game(3, seed="page-fresh")
    client = Client()
    before = get(client, reverse("games:game", args=[game.pk]))
    seat = wl.pending(services.head_state(game))[0].seat
    services.submit(game, seat, wl.legal(services.head_state(game), seat)[0])
    after = get(client, reverse("games:game", args=[game.pk]))
    assert 'id="step-3"' not in before and 'id="step-3"' in after
    assert get(client, reverse("games:replay-step", args=[game.pk, 3]))


def test_a_player_given_the_seat_back_does_not_get_the_old_link_back():
    game = running_game(3, seed="page-back")
    seat = game.seats.get(position=1)
    first = path_of(links.seat_page_url(seat))
    bao = seat.player
    services.replace_seat(
        game, 1, Player.objects.create(name="Zoe", email="zoe@example.org"), by=None, reason="away"
    )
    services.replace_seat(game, 1, bao, by=None, reason="back")
    seat.refresh_from_db()
    client = Client()
    assert client.get(first).status_code == 404
    again = path_of(links.seat_page_url(seat))
    assert again != first and client.get(again).status_code == 200
    assert links.seat_page_url(seat).endswith(again)


# --- privacy ----------------------------------------------------------------------------------


def secrets_of(state: wl.State, log: list[LogEntry]) -> set[str]:
    """Sentences the engine said to one seat only."""
    return {wl.Presentation.narrate(state, e) for e in log if e.private_to is not None}


# What only a seat's own view holds, as this site renders it (``_hand.html``).
PRIVATE_MARKS = ('<dl class="hand"', "Sealed choice", "Tile drawn", "This page is private")


def assert_public(text: str, said: set[str], where: str) -> None:
    for mark in PRIVATE_MARKS:
        assert mark not in text, (where, mark)
    for line in said:
        assert line not in text, (where, line)


def spectator_pages(client: Client, game: Game, rng: random.Random) -> dict[str, str]:
    """The public page, the replay at the head and at one earlier step, and a fragment."""
    head = len(steps.timeline(game))
    earlier = rng.randint(1, head)
    return {
        "game": get(client, reverse("games:game", args=[game.pk])),
        "replay-head": get(client, reverse("games:replay-step", args=[game.pk, head])),
        f"replay-{earlier}": get(client, reverse("games:replay-step", args=[game.pk, earlier])),
        "fragment": get(client, reverse("games:replay-step", args=[game.pk, head]) + "?fragment=1"),
    }


@pytest.mark.parametrize(("edition", "n", "seed"), [("kosmos", 3, 1), ("kosmos", 5, 2), ("designer", 4, 3)])
def test_no_spectator_page_shows_a_hand_a_sealed_choice_or_a_drawn_tile(
    edition: str, n: int, seed: int
) -> None:
    rng = random.Random(seed)
    game = services.create_game(players(n), edition=edition, seed=f"pages-privacy-{seed}")
    services.start_game(game)
    client = Client()
    said: set[str] = set()
    state = services.head_state(game)
    checked = sealed_seen = 0
    while wl.outcome(state) is None:
        decision = rng.choice(wl.pending(state))
        result = services.submit(game, decision.seat, rng.choice(wl.legal(state, decision.seat)))
        state = services.head_state(game)
        said |= secrets_of(result.state, result.log)
        game.refresh_from_db()
        # check while secrets are live: a sealed choice waiting or a tile in hand, and now and then
        live = any(wl.view(state, s).get("sealed") or "drawn" in wl.view(state, s) for s in range(n))
        if rng.random() < (0.4 if live else 0.05):
            sealed_seen += live
            for where, text in spectator_pages(client, game, rng).items():
                assert_public(text, said, where)
                checked += 1
    print(f"{checked} pages checked, {sealed_seen} times with a secret held")
    assert checked > 20 and sealed_seen > 5 and said
    # once over, the replay shows what was hidden: some step shows a sealed choice or drawn tile
    revealed = [
        get(client, reverse("games:replay-step", args=[game.pk, n]))
        for n in range(1, len(steps.timeline(game)) + 1, 7)
    ]
    assert any("Sealed choice" in text or "Tile drawn" in text for text in revealed)
    assert any(line in text for line in said for text in revealed)


def test_a_finished_game_shows_the_outcome_and_the_seed():
    game = running_game(3, seed="page-finished")
    play_randomly(game, random.Random(11))
    assert game.status == Game.Status.FINISHED and game.finished_at <= timezone.now()
    text = get(Client(), reverse("games:game", args=[game.pk]))
    assert 'id="outcome"' in text and "page-finished" in text
    assert len(re.findall(r'<td class="rank">[1-3]</td>', text)) == 3
    assert "Whose move" not in text
