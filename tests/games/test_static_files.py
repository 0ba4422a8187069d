"""The application serves /static/ itself (WhiteNoise): from the apps' folders while DEBUG is on,
as ``./scripts/serve`` runs, and from ``STATIC_ROOT`` after ``collectstatic`` when it is off, as
gunicorn runs in production with no proxy serving them."""

from __future__ import annotations

from django.core.management import call_command
from django.test import Client

STYLESHEET = "/static/games/pages.css"


def _body(response: object) -> bytes:
    return b"".join(response.streaming_content)  # type: ignore[attr-defined]


def test_with_debug_on_the_stylesheet_comes_from_the_apps_folder(settings):
    settings.DEBUG = True
    response = Client().get(STYLESHEET)
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/css")
    assert b".board-text" in _body(response)


def test_with_debug_off_collected_files_are_served_compressed(settings, tmp_path):
    settings.DEBUG = False
    settings.STATIC_ROOT = tmp_path
    call_command("collectstatic", interactive=False, verbosity=0)
    assert (tmp_path / "games/pages.css.gz").exists()
    response = Client().get(STYLESHEET, HTTP_ACCEPT_ENCODING="gzip")
    assert response.status_code == 200
    assert response["Content-Encoding"] == "gzip"
    assert Client().get("/static/games/local-times.js").status_code == 200
    assert Client().get("/static/games/none-such.css").status_code == 404
