"""Browser tests in real headless Chromium (Debian's ``chromium`` package) driven by Playwright.

Never ``playwright install``: the browser is the system's ``/usr/bin/chromium`` (``.ci/run``
installs it).  Away from CI the tests are skipped when it is missing; in CI they fail.
Each test saves screenshots to ``artifacts/screenshots/`` (``WL_SCREENSHOTS`` moves it).
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from django.db import connections

from tests.conftest import IN_CI
from tests.notifications.localplay import empty_event_log_on_sqlite

CHROMIUM = Path(os.environ.get("WL_CHROMIUM", "/usr/bin/chromium"))
SCREENSHOTS = Path(
    os.environ.get("WL_SCREENSHOTS", Path(__file__).resolve().parents[2] / "artifacts/screenshots")
)
ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


@pytest.fixture
def live_db(transactional_db: None) -> Iterator[None]:
    """Committed data, as the live server's thread must see it; emptied after the test (on
    SQLite the append-only event log needs help for that, see ``empty_event_log_on_sqlite``)."""
    yield
    empty_event_log_on_sqlite()


@pytest.fixture
def page(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> Iterator[Any]:
    """A fresh Chromium page, per test: Playwright's sync API keeps an event loop running in
    this thread while it is started, which Django takes for an async context; so the loop
    lives only as long as one test, and Django is told that database calls here are fine."""
    if not CHROMIUM.exists():
        if IN_CI:
            pytest.fail(f"CI must have Chromium at {CHROMIUM} (.ci/run installs the chromium package)")
        pytest.skip(f"no Chromium at {CHROMIUM}: apt-get install chromium (see README, Test)")
    from playwright.sync_api import sync_playwright

    monkeypatch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=ARGS, headless=True)
        context = browser.new_context(viewport={"width": 1100, "height": 900})
        context.set_default_timeout(30_000)
        try:
            yield context.new_page()
        finally:
            context.close()
            browser.close()
            # while Playwright's loop runs, Django keeps its connections apart from the test's
            # own (per async context): close them, or the test database cannot be dropped
            connections.close_all()


def screenshot(page: Any, request: pytest.FixtureRequest, label: str) -> Path:
    """Save the whole page as ``<test name>-<label>.png`` in the screenshots folder."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    name = re.sub(r"[^\w.-]+", "_", f"{request.node.name}-{label}")
    path = SCREENSHOTS / f"{name}.png"
    # a sandboxed frame (the mailbox's HTML part) is painted by a process of its own, a moment
    # after it has loaded: without the pause the artefact shows an empty frame
    page.wait_for_load_state("networkidle")
    page.wait_for_timeout(500)
    page.screenshot(path=str(path), full_page=True)
    return path


SIZES = {"phone": (390, 844), "desktop": (1280, 900)}


def check_page(page: Any, request: pytest.FixtureRequest, url: str, label: str) -> None:
    """Every page of the site, checked the same way at a phone's and a desktop's size: it opens
    (2xx), does not scroll sideways, passes the accessibility checks (``accessible``) and is
    saved as ``<test>-<label>-phone.png`` and ``…-desktop.png``.  Leaves the page at desktop
    size, on ``url``."""
    for size, (width, height) in SIZES.items():
        page.set_viewport_size({"width": width, "height": height})
        response = page.goto(url)
        assert response is not None and response.ok, f"{url}: {response and response.status}"
        _check_as_shown(page, request, label, size)


def check_shown_page(page: Any, request: pytest.FixtureRequest, label: str) -> None:
    """``check_page`` for the page the browser shows now without loading it again: the answer
    to a form's POST, which an address alone does not bring back."""
    for size, (width, height) in SIZES.items():
        page.set_viewport_size({"width": width, "height": height})
        _check_as_shown(page, request, label, size)


def _check_as_shown(page: Any, request: pytest.FixtureRequest, label: str, size: str) -> None:
    width = page.viewport_size["width"]
    overflow = page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth")
    assert overflow <= 0, f"{label} scrolls sideways by {overflow}px at {width}px: {_too_wide(page)}"
    accessible(page, f"{label} at {size} size")
    screenshot(page, request, f"{label}-{size}")


def _too_wide(page: Any) -> str:
    """The innermost elements that reach past the right edge (what to fix when a page scrolls
    sideways)."""
    return str(
        page.evaluate(
            """() => {
            const edge = document.documentElement.clientWidth;
            const clipped = e => {
                for (let p = e.parentElement; p && p !== document.body; p = p.parentElement) {
                    if (getComputedStyle(p).overflowX !== 'visible') return true;
                }
                return false;
            };
            const past = e => e.getBoundingClientRect().right > edge + 0.5 && !clipped(e);
            const wide = [...document.querySelectorAll('body *')].filter(
                e => past(e) && ![...e.children].some(past));
            const classes = e => typeof e.className === 'string' && e.className
                ? '.' + e.className.split(' ').join('.') : '';
            return wide.slice(0, 5).map(e => e.tagName.toLowerCase() + (e.id ? '#' + e.id : '')
                + classes(e) + ' (' + Math.round(e.getBoundingClientRect().right) + 'px)');
        }"""
        )
    )


AXE = Path(__file__).resolve().parents[2] / "node_modules/axe-core/axe.min.js"
AXE_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]
AXE_FAILS = {"serious", "critical"}


@cache
def _axe_source() -> str:
    return AXE.read_text(encoding="utf-8")


def accessible(page: Any, what: str) -> None:
    """The accessibility checks of a page as it is shown now: axe-core (from the npm registry,
    ``package.json``; ``scripts/test`` installs it) injected into the page, WCAG 2.1 A and AA
    rules; any serious or critical violation fails, each named with the elements it found.
    Without axe-core: skipped away from CI, failed in CI."""
    if not AXE.exists():
        if IN_CI:
            pytest.fail(f"CI must have axe-core at {AXE} (scripts/test runs npm ci)")
        pytest.skip("axe-core is not installed: npm ci (scripts/test does)")
    # evaluated, not added as a <script>: the site's Content-Security-Policy lets no inline
    # script run, and a test must not make the page break it (tests/browser/test_security.py)
    if not page.evaluate("() => typeof window.axe !== 'undefined'"):
        page.evaluate(_axe_source())
    results = page.evaluate(
        "tags => axe.run(document, {runOnly: {type: 'tag', values: tags}, resultTypes: ['violations']})",
        AXE_TAGS,
    )
    bad = [v for v in results["violations"] if v.get("impact") in AXE_FAILS]
    report = [
        f"{v['impact']} {v['id']}: {v['help']} — "
        + "; ".join(" ".join(node["target"]) for node in v["nodes"][:4])
        + (f" (and {len(v['nodes']) - 4} more)" if len(v["nodes"]) > 4 else "")
        for v in bad
    ]
    assert not bad, f"{what}: accessibility violations:\n" + "\n".join(report)
