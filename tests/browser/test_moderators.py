"""In a real browser: a moderator logs in and reads the audit page of a long game (folded by
year, filtered, a rollback asked for first), and a season's form, at phone and desktop size."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import Group, User
from django.urls import reverse

from games import services
from games.models import Event, Game
from leagues.models import League, Season
from tests.browser.conftest import check_page, check_shown_page, screenshot
from tests.games.factories import running_game, whose_turn

pytestmark = pytest.mark.usefixtures("live_db")


def _login(page, live_server) -> None:
    user = User.objects.create_user("mod", "mod@example.org", "a long enough password", is_staff=True)
    user.groups.add(Group.objects.get_or_create(name="moderators")[0])
    page.goto(f"{live_server.url}/admin/login/")
    page.fill("#id_username", "mod")
    page.fill("#id_password", "a long enough password")
    page.click("input[type=submit]")
    page.wait_for_selector("#user-tools")


def test_the_audit_page_of_a_long_game_fits_a_phone_and_folds_by_year(live_server, page, request):
    game = running_game(6, seed="browser-long")
    while game.events.count() < 300 and game.status == Game.Status.RUNNING:  # a whole game, near enough
        services.apply_default(game, whose_turn(game))
        game.refresh_from_db()
    assert game.events.count() > 200
    _login(page, live_server)
    audit = live_server.url + reverse("admin:games_game_audit", args=[game.pk])
    check_page(page, request, audit, "audit")
    folds = page.locator("details.wl-fold")
    assert folds.count() >= 3
    assert page.locator("details.wl-fold[open]").count() == 1
    height = page.evaluate("document.documentElement.scrollHeight")
    assert height < 7000, f"the audit page is {height}px tall"

    blue = game.seats.get(colour="blue").position
    page.select_option("#filter-seat", str(blue))
    page.click("#log-filter input[type=submit]")
    page.wait_for_url("**seat=*")
    seats = page.locator("details.wl-fold tr[id^=event-] td[data-label=Seat]").all_inner_texts()
    assert seats and all(text.startswith("blue") for text in seats)
    screenshot(page, request, "audit-filtered")

    target = game.head_seq - 4
    page.goto(audit)
    fold = page.locator(f"details.wl-fold:has(#event-{target})")
    if fold.get_attribute("open") is None:  # an earlier year: unfold it first
        fold.locator("> summary").click()
    page.click(f"#event-{target} a.wl-rollback")
    page.wait_for_selector("#undone")
    assert page.locator("#undone tbody tr").count() == 4
    screenshot(page, request, "rollback-confirm")
    page.fill("#id_rollback_reason", "a misread province")
    page.click("#rollback-confirm input[type=submit]")
    page.wait_for_selector(".messagelist")
    last = game.events.order_by("-seq").first()
    assert last.kind == Event.Kind.ROLLED_BACK and last.payload == {"to_seq": target}


def test_a_seasons_options_and_clock_are_fields_on_a_phone(live_server, page, request):
    league = League.objects.create(name="East Cup", slug="east")
    season = Season.objects.create(league=league, name="Autumn", time_controls={"hours_per_decision": 72})
    User.objects.create_superuser("root", "root@example.org", "a long enough password")
    page.goto(f"{live_server.url}/admin/login/")
    page.fill("#id_username", "root")
    page.fill("#id_password", "a long enough password")
    page.click("input[type=submit]")
    page.wait_for_selector("#user-tools")
    url = live_server.url + reverse("admin:leagues_season_change", args=[season.pk])
    check_page(page, request, url, "season")
    assert page.locator("textarea").count() == 0
    assert page.input_value("#id_clock__hours_per_decision") == "72"


def test_a_game_played_elsewhere_is_entered_line_by_line_on_a_phone(live_server, page, request):
    from pathlib import Path

    from games.models import RecordDraft

    record = (
        Path(__file__).resolve().parents[2] / "docs" / "records" / "club-night-2024-03-14.txt"
    ).read_text()
    header, body = record.split("\n\n", 1)
    _login(page, live_server)
    draft = RecordDraft.objects.create(
        name="Club night", text=header + "\n\n" + "\n".join(body.splitlines()[:10]) + "\n"
    )
    url = live_server.url + reverse("admin:games_recorddraft_enter", args=[draft.pk])
    check_page(page, request, url, "entry")
    page.fill("#id_lines", "red: place Dadu")
    page.click("button[value=lines]")
    page.wait_for_selector("#answers .refused")
    assert "Refused: line" in page.inner_text("#answers")
    assert "place <province>" in page.inner_text("#legal")
    page.click("button[value=board]")
    page.wait_for_selector("#board")
    assert "Ningxia" in page.inner_text("#board")
    check_page(page, request, page.url, "entry-board")


def test_a_german_moderator_confirms_a_pause_and_hands_a_seat_to_a_new_address(live_server, page, request):
    """Each act opens a page that says what it will do, in German; only its button acts.  A
    seat goes to an address the service does not know yet, in the one form."""
    from games.models import Player

    game = running_game(4, seed="browser-acts")
    page.set_extra_http_headers({"Accept-Language": "de"})
    _login(page, live_server)
    audit = live_server.url + reverse("admin:games_game_audit", args=[game.pk])
    page.goto(audit)
    assert "Eingriffe der Spielleitung" in page.inner_text("#content-main")

    page.fill("#id_pause_reason", "Streit um ein Gebot")
    page.click("#action-pause input[type=submit]")
    page.wait_for_selector("#happens")
    check_shown_page(page, request, "confirm-pause")  # a POST's answer
    assert "wird angehalten" in page.inner_text("#happens")
    game.refresh_from_db()
    assert game.status == Game.Status.RUNNING  # asking did nothing
    page.click("#confirm input[type=submit]")
    page.wait_for_selector(".messagelist")
    game.refresh_from_db()
    assert game.status == Game.Status.PAUSED

    page.select_option("#id_replace_position", "1")
    page.fill("#id_replace_email", "gus@example.org")
    page.fill("#id_replace_name", "Gus")
    page.fill("#id_replace_reason", "hat die Liga verlassen")
    page.click("#action-replace input[type=submit]")
    page.wait_for_selector("#happens")
    said = page.inner_text("#happens")
    assert "Gus <gus@example.org>" in said and "als Person angelegt" in said
    screenshot(page, request, "confirm-replace")
    assert not Player.objects.filter(email="gus@example.org").exists()
    page.click("#confirm input[type=submit]")
    page.wait_for_selector(".messagelist")
    assert game.seats.get(position=1).player.name == "Gus"
    assert game.events.order_by("-seq").first().kind == Event.Kind.SEAT_REPLACED
