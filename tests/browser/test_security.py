"""Every kind of page in Chromium under the site's Content-Security-Policy, DEBUG off: not one
violation (a script, a style, a picture, a fetch or a frame the policy refuses), while the pages'
scripts run (the local times, the replay's stepping).  A template that gains an inline
``<script>``, a ``style=`` attribute or an ``onclick`` fails here (issue 30)."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User
from django.urls import reverse

from games import services
from games.models import Game, RecordDraft
from games.services import links
from leagues.models import League, LeagueGame, Season
from notifications.localmail.models import LocalMail
from tests.browser.conftest import screenshot
from tests.games.factories import players, running_game, whose_turn
from tests.games.helpers import play, vs_game
from tests.notifications.localplay import local_play  # noqa: F401  (a fixture)

# every violation the page sees, and the console's word for those it cannot (a frame's)
WATCH = """
window.__csp = [];
document.addEventListener('securitypolicyviolation', e => window.__csp.push(
    e.violatedDirective + ' blocked ' + (e.blockedURI || 'inline')
    + ' at ' + e.sourceFile + ':' + e.lineNumber));
"""


class Violations:
    def __init__(self, page: Any) -> None:
        self.page = page
        self.console: list[str] = []
        page.add_init_script(WATCH)
        page.on("console", self._console)

    def _console(self, message: Any) -> None:
        if "Content Security Policy" in message.text or "Content-Security-Policy" in message.text:
            self.console.append(message.text)

    def visit(self, url: str, expect: int = 200) -> None:
        response = self.page.goto(url)
        assert response is not None and response.status == expect, f"{url}: {response and response.status}"
        assert "script-src 'self'" in (response.headers.get("content-security-policy") or ""), url
        self.page.wait_for_load_state("networkidle")
        self.check(url)

    def check(self, where: str) -> None:
        seen = list(self.page.evaluate("() => window.__csp || []")) + self.console
        self.console.clear()
        assert not seen, f"{where}: Content-Security-Policy violations:\n" + "\n".join(seen)


def _finished(seed: str) -> Game:
    game = running_game(3, seed=seed)
    while game.status == Game.Status.RUNNING:
        services.apply_default(game, whose_turn(game))
        game.refresh_from_db()
    return game


@pytest.mark.usefixtures("local_play")
def test_no_page_of_any_kind_meets_a_content_security_policy_violation(live_server, page, request, settings):
    settings.DEBUG = False
    settings.SITE_URL = live_server.url
    page.set_viewport_size({"width": 390, "height": 844})
    base = live_server.url
    watch = Violations(page)

    running = running_game(4, seed="csp-running", name="Silk Road")
    seat = running.seats.get(position=whose_turn(running))
    finished = _finished("csp-finished")
    second = vs_game(3, seed="csp-vs")
    play(second, 6)
    league = League.objects.create(name="Autumn Lotus League", slug="autumn")
    season = Season.objects.create(league=league, name="2026 Autumn", signup_open=True, ready_hours=0)
    for player in players(4):
        season.memberships.create(player=player)
    LeagueGame.objects.create(game=finished, season=season, round=1)

    for url in (
        "/",
        "/games/",
        "/games/?q=Silk&status=running&order=-id",
        f"/games/{running.pk}/",
        f"/games/{finished.pk}/",
        f"/games/{second.pk}/",
        reverse("games:seat", args=[links.seat_key(seat)]),
        reverse("games:seat", args=[links.seat_key(second.seats.get(position=0))]),
        reverse("games:player", args=[links.player_key(seat.player)]),
        "/leagues/",
        "/leagues/autumn/",
        f"/leagues/autumn/{season.pk}/",
        "/mailbox/",
    ):
        watch.visit(base + url)

    # the replay steps by script (a fetch the policy must allow) and marks local times
    watch.visit(f"{base}/games/{finished.pk}/replay/3/")
    page.click("#replay-next")
    page.wait_for_function("() => location.pathname.endsWith('/replay/4/')")
    watch.check("the replay after a step by script")

    address = seat.player.email
    mail = LocalMail.objects.filter(to_address=address).latest("pk")
    watch.visit(f"{base}/mailbox/{address}/{mail.pk}/")  # the mail's HTML in its sandboxed frame

    watch.visit(f"{base}/games/999999/", expect=404)
    watch.visit(f"{base}/me/%00/", expect=400)

    User.objects.create_superuser("root", "root@example.org", "a long enough password")
    watch.visit(f"{base}/admin/login/")
    page.fill("#id_username", "root")
    page.fill("#id_password", "a long enough password")
    page.click("input[type=submit]")
    page.wait_for_selector("#user-tools")
    watch.check("the admin's index")
    draft = RecordDraft.objects.create(name="Club night")
    for url in (
        reverse("admin:games_game_changelist"),
        reverse("admin:games_game_audit", args=[running.pk]),
        reverse("admin:games_game_state", args=[running.pk, 2]),
        reverse("admin:games_recorddraft_enter", args=[draft.pk]),
        reverse("admin:leagues_season_change", args=[season.pk]),
    ):
        watch.visit(base + url)
    screenshot(page, request, "admin-under-csp")


@pytest.mark.usefixtures("live_db")
def test_the_watch_reports_an_inline_script_and_style_that_the_sites_policy_refuses(
    live_server, page, settings
):
    """The check above can fail: a page under the site's own header with inline code is caught."""
    from django.test import Client

    settings.DEBUG = False
    policy = Client().get("/health/").headers["Content-Security-Policy"]
    url = f"{live_server.url}/inline-on-purpose/"
    page.route(
        url,
        lambda route: route.fulfill(
            status=200,
            content_type="text/html",
            headers={"Content-Security-Policy": policy},
            body='<!doctype html><p style="color: red">x</p><script>document.title = "ran";</script>',
        ),
    )
    watch = Violations(page)
    page.goto(url)
    page.wait_for_load_state("networkidle")
    assert page.title() != "ran"
    with pytest.raises(AssertionError, match="script-src") as caught:
        watch.check(url)
    assert "style-src" in str(caught.value)
