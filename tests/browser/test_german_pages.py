"""Every page a German player meets (issue 27), in a real browser that asks for German: both
games running and finished, a seat, the replay, /me/, a league, its season, the archive and
the error pages, at a phone's size (390x844) and a desktop's.  Each is in German (``<html
lang="de">`` and no English word, ``tests.test_no_english``), does not scroll sideways,
passes the accessibility checks and is saved as a screenshot (artifacts/screenshots/)."""

from __future__ import annotations

from urllib.parse import urlsplit

import pytest

from tests.browser.conftest import SIZES, accessible, check_page, screenshot
from tests.english import english_in, the_pages


@pytest.mark.slow
@pytest.mark.usefixtures("live_db")
def test_the_pages_a_german_player_meets_read_german_on_a_phone(live_server, page, request, settings):
    settings.DEBUG = False  # the error pages as players meet them
    page.set_extra_http_headers({"Accept-Language": "de-DE,de;q=0.9"})
    english = []
    for what, url, status in the_pages("de"):
        address = live_server.url + urlsplit(url).path
        if status == 200:
            check_page(page, request, address, what)
        else:
            for size, (width, height) in SIZES.items():
                page.set_viewport_size({"width": width, "height": height})
                response = page.goto(address)
                assert response is not None and response.status == status, (
                    what,
                    response and response.status,
                )
                accessible(page, f"{what} at {size} size")
                screenshot(page, request, f"{what}-{size}")
        assert page.get_attribute("html", "lang") == "de", what
        english += [f"{what}: {hit}" for hit in english_in(page.content(), "de")]
    assert not english, "English on German pages:\n" + "\n".join(english)
