"""In a real browser: a public page shows times in the browser's own zone (UTC where scripts
do not run), a seat page in its player's zone, and the page in German when the browser asks."""

from __future__ import annotations

from typing import Any

import pytest
from django.urls import reverse

from games.services import links
from tests.browser.conftest import check_page
from tests.games.factories import running_game

pytestmark = pytest.mark.usefixtures("live_db")


def _context(page: Any, **options: Any) -> Any:
    """A second context in the same browser, with its own zone, language or scripts."""
    return page.context.browser.new_context(**options)


def test_public_times_follow_the_browsers_zone_and_say_utc_without_scripts(live_server, page, request):
    game = running_game(3, seed="local-times")
    deadline = game.decisions.owed().get().deadline_at
    url = f"{live_server.url}/games/"
    new_york = _context(page, timezone_id="America/New_York", locale="en-US")
    try:
        there = new_york.new_page()
        there.goto(url)
        instants = there.locator(".move time").evaluate_all("ts => ts.map(t => t.getAttribute('datetime'))")
        assert deadline.strftime("%Y-%m-%dT%H:%M:%SZ") in instants, instants  # the instant stays UTC
        texts = " ".join(there.locator(".move time").all_inner_texts())
        assert "EST" in texts or "EDT" in texts, texts
    finally:
        new_york.close()
    no_script = _context(page, java_script_enabled=False, timezone_id="America/New_York")
    try:
        plain = no_script.new_page()
        plain.goto(url)
        texts = " ".join(plain.locator(".move time").all_inner_texts())
        assert "UTC" in texts and deadline.strftime("%Y-%m-%d %H:%M") in texts, texts
    finally:
        no_script.close()


def test_a_seat_page_is_in_its_players_zone_and_language(live_server, page, request):
    game = running_game(3, seed="seat-zone")
    seat = game.seats.get(position=game.decisions.owed().get().seat)
    seat.player.language, seat.player.time_zone = "de", "Asia/Tokyo"
    seat.player.save()
    url = live_server.url + reverse("games:seat", args=[links.seat_key(seat)])
    check_page(page, request, url, "seat-de")
    assert page.locator("html").get_attribute("lang") == "de"
    waiting = page.inner_text("#waiting")
    assert "JST" in waiting and "Frist" in waiting, waiting


def test_a_german_browser_gets_the_game_page_in_german_and_can_switch(live_server, page, request):
    game = running_game(3, seed="page-de")
    german = _context(page, locale="de-DE", extra_http_headers={"Accept-Language": "de-DE,de;q=0.9"})
    try:
        there = german.new_page()
        there.goto(f"{live_server.url}/games/{game.pk}/")
        assert there.locator("html").get_attribute("lang") == "de"
        assert "Spieler" in there.inner_text("main")
        there.select_option("#language-switch", "fr")
        there.click("form.languages button")
        there.wait_for_load_state()
        assert there.url.endswith(f"/games/{game.pk}/")
        assert there.locator("html").get_attribute("lang") == "fr"
    finally:
        german.close()
