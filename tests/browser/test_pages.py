"""In a real browser: the public game page, the replay stepped with the keyboard, and a reply
sent from the local mailbox that goes in by SMTP and moves the game."""

from __future__ import annotations

import re

import pytest

from games import services
from games.models import Event
from games.rules import whitelotus as wl
from notifications.models import InboundMail
from tests.browser.conftest import accessible, screenshot
from tests.browser.playing import played
from tests.games.factories import running_game
from tests.notifications.localplay import local_play  # noqa: F401  (a fixture)


def _board(page) -> str:
    return str(page.locator("#board").inner_html())


@pytest.mark.usefixtures("live_db")
def test_the_game_page_shows_the_board_the_players_and_the_log(live_server, page, request):
    game = played(3)
    page.goto(f"{live_server.url}/games/{game.pk}/")
    assert page.locator("#board svg").count() == 1
    body = page.inner_text("body")
    for seat in game.seats.select_related("player"):
        assert seat.player.name in body
    log = page.locator("#log li")
    assert log.count() == game.events.count()  # created, started and the three moves
    last = Event.objects.filter(game=game, kind=Event.Kind.COMMAND).latest("seq")
    colour = game.seats.get(position=last.seat).colour
    assert (
        f"{colour.capitalize()} places a marker in {last.command_text.split()[-1]}" in log.last.inner_text()
    )
    screenshot(page, request, "game")


@pytest.mark.usefixtures("live_db")
def test_the_replay_steps_with_the_arrow_keys_and_the_board_follows(live_server, page, request):
    game = played(6)
    page.goto(f"{live_server.url}/games/{game.pk}/replay/3/")
    step = page.locator("#replay-step")
    assert step.inner_text().strip() == "3"
    at_three = _board(page)
    screenshot(page, request, "step3")

    page.keyboard.press("ArrowRight")
    # each wait a function: the site's policy refuses Playwright's eval of a bare expression
    page.wait_for_function("() => document.querySelector('#replay-step').textContent.trim() === '4'")
    assert _board(page) != at_three
    assert re.search(r"/replay/4/?$", page.url) or page.locator("#replay-slider").input_value() == "4"
    screenshot(page, request, "step4")

    page.keyboard.press("ArrowLeft")
    page.wait_for_function("() => document.querySelector('#replay-step').textContent.trim() === '3'")
    page.keyboard.press("ArrowLeft")
    page.wait_for_function("() => document.querySelector('#replay-step').textContent.trim() === '2'")
    assert page.locator("#replay-slider").input_value() == "2"
    screenshot(page, request, "step2")
    page.keyboard.press("ArrowRight")
    page.wait_for_function("() => document.querySelector('#replay-step').textContent.trim() === '3'")
    assert _board(page) == at_three  # the same step shows the same board again


@pytest.mark.usefixtures("local_play")
def test_a_reply_from_the_mailbox_goes_in_by_smtp_and_the_board_changes(live_server, page, request, settings):
    settings.SITE_URL = live_server.url
    game = running_game(3, seed="browser-mailbox")
    state = services.head_state(game)
    seat = wl.pending(state)[0].seat
    me = game.seats.get(position=seat)
    command = wl.format_command(state, wl.legal(state, seat)[0])
    page.goto(f"{live_server.url}/games/{game.pk}/")
    board_before = _board(page)

    page.goto(f"{live_server.url}/mailbox/")
    page.click(f"text={me.player.email}")
    page.wait_for_selector("#mail-html")
    assert "What you can do now:" in page.locator("#mail-text").text_content()
    # the HTML part, with its inline picture, is drawn in the sandboxed frame
    page.frame_locator("#mail-html").locator("img[src*='/cid/']").wait_for()
    assert "place <province>" in page.inner_text("#menu")
    screenshot(page, request, "mailbox")

    page.fill("#commands", command)
    screenshot(page, request, "reply")
    page.click("#reply button[type=submit]")
    page.wait_for_selector("#since")
    flash = page.inner_text(".flash")
    assert "to the game by SMTP" in flash and "commands applied" in flash, flash
    screenshot(page, request, "answered")

    inbound = InboundMail.objects.get()
    assert (inbound.via, inbound.status) == (InboundMail.Via.SMTP, InboundMail.Status.APPLIED)
    event = Event.objects.filter(game=game, kind=Event.Kind.COMMAND).get()
    assert (event.seat, event.source, event.command_text) == (seat, Event.Source.MAIL, command)
    following = wl.pending(services.head_state(game))[0].seat
    next_address = game.seats.get(position=following).player.email
    page.click(f"#since a:has-text('{next_address}')")
    page.wait_for_selector("#mail-text", state="attached")
    assert "What you can do now:" in page.locator("#mail-text").text_content()
    page.frame_locator("#mail-html").locator("img[src*='/cid/']").wait_for()
    screenshot(page, request, "next-mail")

    page.goto(f"{live_server.url}/games/{game.pk}/")
    assert _board(page) != board_before
    province = command.split()[-1]
    assert f"{me.colour.capitalize()} places a marker in {province}" in page.inner_text("#log")
    screenshot(page, request, "game-after")


@pytest.mark.usefixtures("live_db")
def test_a_verbotene_stadt_game_and_seat_page_fit_a_phone_and_a_desktop(live_server, page, request):
    from django.urls import reverse

    from games.services import links
    from tests.games.factories import players

    game = services.create_game(
        players(4), rules="verbotenestadt", seed="browser-vs", options={"partners": True}
    )
    services.start_game(game)
    rules = services.rules_of(game)
    bots = [rules.about.Bot(f"browser:{s}") for s in range(4)]
    state = services.head_state(game)
    while not state.terrace or state.phase != "move":  # after the first entry: cards, terrace, a target
        seat = rules.pending(state)[0].seat
        services.submit(game, seat, bots[seat].choose(state, seat))
        state = services.head_state(game)
    active = rules.pending(state)[0].seat
    key = links.seat_key(game.seats.get(position=active))
    seat_url = live_server.url + reverse("games:seat", args=[key])
    for size, (width, height) in {"phone": (390, 844), "desktop": (1280, 900)}.items():
        page.set_viewport_size({"width": width, "height": height})
        for label, url in (("game", f"{live_server.url}/games/{game.pk}/"), ("seat", seat_url)):
            page.goto(url)
            assert page.locator("#board svg").count() == 1
            assert page.locator("#vs-terrace").count() == 1 and page.locator("#vs-pavilions tr").count() == 9
            if label == "seat":
                assert page.locator("#you .dial code").inner_text() == state.dials[active]
                assert page.locator("#menu li").count() >= 2
            else:
                assert page.locator("#you").count() == 0
            overflow = page.evaluate(
                "document.documentElement.scrollWidth - document.documentElement.clientWidth"
            )
            assert overflow <= 0, f"{label} page scrolls sideways by {overflow}px at {width}px"
            accessible(page, f"the {label} page at {size} size")
            screenshot(page, request, f"{label}-{size}")
