"""The error pages with DEBUG off: the site's layout, a viewport, the reader's language, and what
to do next (games.web.errors)."""

from __future__ import annotations

import pytest
from django.test import Client, override_settings
from django.utils import translation

from games.web import errors

pytestmark = [pytest.mark.django_db, pytest.mark.urls("tests.games.error_urls")]


def _looks_like_the_site(html: str, language: str) -> None:
    assert f'<html lang="{language}">' in html
    assert '<meta name="viewport" content="width=device-width, initial-scale=1">' in html
    assert '<header class="site">' in html and 'id="language-switch"' in html


@override_settings(DEBUG=False)
def test_an_old_seat_link_gets_a_german_page_that_says_how_to_get_the_current_one(client):
    response = client.get("/games/seat/no-such-key/", HTTP_ACCEPT_LANGUAGE="de")
    assert response.status_code == 404
    html = response.content.decode()
    _looks_like_the_site(html, "de")
    assert "Seite nicht gefunden" in html
    assert "nur mit dem Wort stand" in html  # the status command, in the reader's words
    assert "Not Found" not in html and "requested resource" not in html


@override_settings(DEBUG=False)
def test_the_404_page_is_french_for_a_french_browser_and_english_by_default(client):
    french = client.get("/nowhere/", HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    _looks_like_the_site(french, "fr")
    assert "Page introuvable" in french and "état" in french
    english = client.get("/nowhere/").content.decode()
    _looks_like_the_site(english, "en")
    assert "reply to any mail of the game with the single word status" in english


@override_settings(DEBUG=False)
def test_the_language_switch_cookie_chooses_the_error_pages_language(client):
    client.cookies["django_language"] = "fr"
    html = client.get("/nowhere/", HTTP_ACCEPT_LANGUAGE="de").content.decode()
    assert '<html lang="fr">' in html and "Page introuvable" in html


@override_settings(DEBUG=False)
def test_a_form_sent_without_its_csrf_token_gets_the_expired_form_page_in_german():
    client = Client(enforce_csrf_checks=True)
    response = client.post("/i18n/setlang/", {"language": "fr"}, HTTP_ACCEPT_LANGUAGE="de")
    assert response.status_code == 403
    html = response.content.decode()
    _looks_like_the_site(html, "de")
    assert "Das Formular ist abgelaufen" in html and "Es wurde nichts geändert" in html
    assert "CSRF verification failed" not in html


@override_settings(DEBUG=False)
def test_a_server_error_gets_a_page_in_the_readers_language_that_says_the_games_are_safe():
    client = Client(raise_request_exception=False)
    response = client.get("/broken/", HTTP_ACCEPT_LANGUAGE="fr")
    assert response.status_code == 500
    html = response.content.decode()
    _looks_like_the_site(html, "fr")
    assert "Une erreur s’est produite" in html and "Vos parties n’en sont pas touchées" in html


@override_settings(DEBUG=False)
def test_bad_request_and_forbidden_pages_speak_german(rf):
    request = rf.get("/", HTTP_ACCEPT_LANGUAGE="de")
    with translation.override("de"):
        bad = errors.bad_request(request).content.decode()
        denied = errors.permission_denied(request).content.decode()
    assert "Ungültige Anfrage" in bad and '<html lang="de">' in bad
    assert "Kein Zugang" in denied and '<html lang="de">' in denied
