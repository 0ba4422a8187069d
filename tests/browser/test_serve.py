"""The site as its two start commands serve it, styled, in Chromium at a phone's width:
``./scripts/serve`` in a fresh clone (a newcomer's first command: it makes its own ``.venv``,
so this takes minutes), and gunicorn with DEBUG off after ``collectstatic`` (production, where
the application serves /static/ itself with WhiteNoise; deploy/README.md)."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from tests.browser import serving
from tests.waiting import wait_for

PHONE = {"width": 390, "height": 844}
# every page's stylesheet and script, each answered 200
SCRIPTS = {"games/pages.css": 200, "games/local-times.js": 200}
INSTALL = 900  # seconds: a fresh .venv from the package index on a busy machine


@pytest.mark.slow
def test_scripts_serve_in_a_fresh_clone_serves_styled_pages_that_fit_a_phone(page, tmp_path):
    clone = serving.clone(tmp_path / "clone")
    port, smtpd = serving.free_port(), serving.free_port()
    site = f"http://127.0.0.1:{port}"
    env = serving.plain_environment(PORT=str(port), SMTPD_PORT=str(smtpd))
    log = tmp_path / "serve.log"
    served = serving.start(["./scripts/serve"], clone, env, log)
    try:
        wait_for(lambda: serving.answers(f"{site}/", served, log), "scripts/serve's site", INSTALL)
        demo = subprocess.run(
            [".venv/bin/python", "manage.py", "demo", "--seed", "fresh-clone"],
            cwd=clone,
            env=env | {"SITE_URL": site},
            capture_output=True,
            text=True,
            check=True,
        )
        game = re.search(r"The game: +(\S+)", demo.stdout)
        assert game, demo.stdout
        page.set_viewport_size(PHONE)
        for url in (f"{site}/", game[1]):
            shown = serving.styled(page, url)
            assert shown["header"] == serving.HEADER_COLOUR, f"{url} is unstyled: {shown}"
            assert shown["overflow"] <= 0, f"{url} scrolls sideways by {shown['overflow']} px"
            assert SCRIPTS.items() <= dict(shown["static"]).items(), shown["static"]
    finally:
        serving.stop(served)
    said = log.read_text(encoding="utf-8", errors="replace")
    assert "Not Found: /static/" not in said, serving.tail(log)


def test_gunicorn_with_debug_off_serves_the_collected_static_files(page, tmp_path):
    port = serving.free_port()
    site = f"http://127.0.0.1:{port}"
    env = serving.plain_environment(
        DEBUG="false",
        SECRET_KEY="a-test-key-" + "x" * 40,
        ALLOWED_HOSTS="127.0.0.1",
        SECURE_SSL_REDIRECT="false",
        STATIC_ROOT=str(tmp_path / "static"),
        DATABASE_URL=f"sqlite:///{tmp_path / 'db.sqlite3'}",
    )
    python = Path(sys.executable)
    for step in (["migrate", "--no-input", "-v0"], ["collectstatic", "--no-input", "-v0"]):
        subprocess.run([str(python), "manage.py", *step], cwd=serving.ROOT, env=env, check=True)
    log = tmp_path / "gunicorn.log"
    gunicorn = [str(python.parent / "gunicorn"), "whitelotus.wsgi:application", f"--bind=127.0.0.1:{port}"]
    web = serving.start(gunicorn, serving.ROOT, env, log)
    try:
        wait_for(lambda: serving.answers(f"{site}/", web, log), "gunicorn")
        page.set_viewport_size(PHONE)
        shown = serving.styled(page, f"{site}/")
        assert shown["header"] == serving.HEADER_COLOUR, f"the front page is unstyled: {shown}"
        assert shown["overflow"] <= 0
        assert SCRIPTS.items() <= dict(shown["static"]).items(), shown["static"]
        assert all(status == 200 for _, status in shown["static"]), shown["static"]
    finally:
        serving.stop(web)
