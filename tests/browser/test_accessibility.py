"""Every page a player or a spectator meets, in a real browser at phone and desktop size:
it does not scroll sideways and axe-core finds no serious or critical violation of WCAG 2.1
A/AA (``check_page``).  The front, league, archive and moderators' pages have their own
browser tests, which check them the same way."""

from __future__ import annotations

import pytest
from django.urls import reverse

from games import services
from games.models import Game
from games.rules import whitelotus as wl
from games.services import links
from notifications.localmail.models import LocalMail
from tests.browser.conftest import check_page
from tests.browser.playing import played
from tests.games.factories import running_game, whose_turn
from tests.notifications.localplay import local_play  # noqa: F401  (a fixture)


@pytest.mark.usefixtures("live_db")
def test_the_game_seat_player_and_replay_pages_pass_the_checks(live_server, page, request):
    game = played(5, "a11y-pages")
    base = live_server.url
    check_page(page, request, f"{base}/games/{game.pk}/", "game")
    seat = game.seats.get(position=wl.pending(services.head_state(game))[0].seat)
    check_page(page, request, base + reverse("games:seat", args=[links.seat_key(seat)]), "seat")
    check_page(page, request, base + reverse("games:player", args=[links.player_key(seat.player)]), "player")
    check_page(page, request, f"{base}/games/{game.pk}/replay/3/", "replay")


@pytest.mark.usefixtures("live_db")
def test_a_finished_games_page_and_replay_with_every_hand_pass_the_checks(live_server, page, request):
    game = running_game(3, seed="a11y-finished")
    while game.status == Game.Status.RUNNING:
        services.apply_default(game, whose_turn(game))
        game.refresh_from_db()
    check_page(page, request, f"{live_server.url}/games/{game.pk}/", "finished")
    check_page(page, request, f"{live_server.url}/games/{game.pk}/replay/12/", "finished-replay")


@pytest.mark.usefixtures("live_db")
def test_a_game_played_elsewhere_its_page_and_a_commented_replay_step_pass_the_checks(
    live_server, page, request
):
    from pathlib import Path

    from games import jobs

    record = Path(__file__).resolve().parents[2] / "docs" / "records" / "club-night-2024-03-14.txt"
    game = jobs.import_record(record.read_text(encoding="utf-8"), origin=record.name)
    check_page(page, request, f"{live_server.url}/games/{game.pk}/", "elsewhere")
    check_page(page, request, f"{live_server.url}/games/{game.pk}/replay/3/", "elsewhere-replay")
    assert "Katrin opens in the north" in page.inner_text("#replay-comments")


@pytest.mark.usefixtures("live_db")
def test_the_not_found_page_passes_the_checks(live_server, page, request, settings):
    settings.DEBUG = False
    response = page.goto(f"{live_server.url}/games/999999/")
    assert response is not None and response.status == 404
    from tests.browser.conftest import accessible

    accessible(page, "the 404 page")


@pytest.mark.usefixtures("local_play")
def test_the_local_mailbox_pages_pass_the_checks(live_server, page, request, settings):
    settings.SITE_URL = live_server.url
    game = running_game(3, seed="a11y-mailbox")
    address = game.seats.get(position=0).player.email
    mail = LocalMail.objects.filter(to_address=address).latest("pk")
    check_page(page, request, f"{live_server.url}/mailbox/", "mailbox")
    check_page(page, request, f"{live_server.url}/mailbox/{address}/", "mailbox-address")
    check_page(page, request, f"{live_server.url}/mailbox/{address}/{mail.pk}/", "mailbox-mail")
