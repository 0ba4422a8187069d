"""A seat page as a phone shows it (390 x 844, Chromium), for both games (issue 30): the
decision and its one-tap replies on the first screen, the board's smallest text at least 12 CSS
px, no sideways scrolling, the page before the log at most three screens, and axe-core's WCAG
2.1 A/AA checks (``check_page``)."""

from __future__ import annotations

import pytest
from django.urls import reverse

from games.services import links
from tests.browser.conftest import check_page, screenshot
from tests.browser.playing import deciding_seat, played_vs
from tests.games.factories import running_game

pytestmark = pytest.mark.usefixtures("live_db")

SCREEN = 844
# the board written out (the picture's names are a few px high at 390 px): its text's size
BOARD_TEXT = "() => parseFloat(getComputedStyle(document.querySelector('#board-text pre')).fontSize)"
BEFORE_LOG = "() => document.getElementById('log').getBoundingClientRect().top + window.scrollY"


@pytest.mark.parametrize(
    ("label", "make"),
    [
        ("whitelotus", lambda: running_game(4, seed="phone-wl", name="Silk Road")),
        ("verbotenestadt", lambda: played_vs()),
    ],
)
def test_a_seat_page_on_a_phone_reads_and_answers_without_zooming(live_server, page, request, label, make):
    game = make()
    seat = deciding_seat(game)
    url = live_server.url + reverse("games:seat", args=[links.seat_key(seat)])
    check_page(page, request, url, f"seat-{label}")  # no sideways scroll, axe, both sizes

    page.set_viewport_size({"width": 390, "height": SCREEN})
    page.goto(url)
    decision = page.locator("#decision")
    assert "Your move" in decision.inner_text() and "in 5\xa0hours" in decision.inner_text()
    first_reply = page.locator("a.reply").first
    box = first_reply.bounding_box()
    assert box is not None and box["y"] + box["height"] <= SCREEN, (
        "the first reply is not on the first screen"
    )
    assert box["height"] >= 44  # a finger's target
    assert first_reply.get_attribute("href").startswith("mailto:")

    written = page.locator("#board-text pre")
    assert written.is_visible() and page.evaluate(BOARD_TEXT) >= 12
    assert (
        rules_word := {"whitelotus": "Ningxia", "verbotenestadt": "Officials"}[label]
    ) in written.inner_text(), rules_word
    before_log = page.evaluate(BEFORE_LOG)
    assert before_log <= 3 * SCREEN, f"the page before the log is {before_log:.0f} px (> three screens)"
    open_parts = page.locator("#log details[open]").count()
    assert open_parts == 1 and page.locator("#log details").count() >= 1
    screenshot(page, request, "phone")
