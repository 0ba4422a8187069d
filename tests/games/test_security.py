"""The site against a hostile visitor, with DEBUG off: a Content-Security-Policy on every
response that lets no inline script run, the admin login throttled per account and per address
(django-axes), no 500 from a NUL or a broken byte in any route, the language cookie, and
``check --deploy`` clean but for the HSTS choices (issue 30)."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from django.contrib.auth.models import User
from django.test import Client, RequestFactory, override_settings
from django.urls import URLPattern, URLResolver, get_resolver

from games.services import links
from tests.games.factories import running_game
from whitelotus import security

pytestmark = [pytest.mark.django_db]

ROOT = Path(__file__).resolve().parents[2]


def _policy(response) -> dict[str, list[str]]:
    header = response.headers.get("Content-Security-Policy", "")
    assert header, f"{response.status_code} {response.get('Content-Type')}: no Content-Security-Policy"
    return {d.split()[0]: d.split()[1:] for d in (p.strip() for p in header.split(";")) if d}


def _keys() -> dict[str, str]:
    game = running_game(3, seed="security")
    seat = game.seats.get(position=0)
    return {
        "game": f"/games/{game.pk}/",
        "seat": f"/games/seat/{links.seat_key(seat)}/",
        "me": f"/me/{links.player_key(seat.player)}/",
    }


@override_settings(DEBUG=False)
def test_every_kind_of_response_carries_a_policy_under_which_no_inline_script_runs(client):
    pages = _keys()
    urls = [
        "/",
        "/games/",
        pages["game"],
        pages["game"] + "replay/2/",
        pages["game"] + "record.txt",
        pages["seat"],
        pages["me"],
        "/leagues/",
        "/admin/login/",
        "/games/999999/",  # 404
        "/me/%00/",  # 400
        "/health/",
    ]
    for url in urls:
        response = client.get(url)
        policy = _policy(response)
        scripts = policy.get("script-src", policy["default-src"])
        assert scripts == ["'self'"], f"{url}: script-src {scripts}"
        assert "'unsafe-inline'" not in str(policy) and "'unsafe-eval'" not in str(policy), url
        assert policy["object-src"] == ["'none'"] and policy["base-uri"] == ["'none'"], url
    response = client.post("/anymail/mailgun/inbound_mime/", {})  # a refused webhook call too
    assert _policy(response)["default-src"] == ["'self'"]


@override_settings(DEBUG=False)
def test_no_page_template_holds_inline_script_style_or_event_handlers():
    """What the policy would block, found before a browser meets it (the browser test,
    tests/browser/test_security.py, catches what a template builds at run time)."""
    inline = re.compile(r"<script(?![^>]*\bsrc=)[^>]*>|<style\b|\sstyle=|\son[a-z]+=|javascript:", re.I)
    found = []
    for folder in ("games/templates", "leagues/templates", "whitelotus/templates"):
        for template in (ROOT / folder).rglob("*.html"):
            found += [
                f"{template.relative_to(ROOT)}: {m.group()}" for m in inline.finditer(template.read_text())
            ]
    mailbox = ROOT / "notifications/templates/notifications/mailbox"
    for template in mailbox.rglob("*.html"):
        found += [f"{template.relative_to(ROOT)}: {m.group()}" for m in inline.finditer(template.read_text())]
    assert not found, found


def _admin() -> User:
    return User.objects.create_superuser("moderator", "mod@example.org", "the-right-password-42")


def _login(client: Client, username: str, password: str, address: str):
    return client.post(
        "/admin/login/?next=/admin/",
        {"username": username, "password": password},
        REMOTE_ADDR=address,
    )


@override_settings(DEBUG=False, AXES_FAILURE_LIMIT=5)
def test_five_wrong_passwords_lock_the_account_even_from_another_address_and_with_the_right_password():
    _admin()
    client = Client()
    for attempt in range(4):
        assert _login(client, "moderator", f"wrong-{attempt}", f"198.51.100.{attempt}").status_code == 200
    assert _login(client, "moderator", "wrong-4", "198.51.100.4").status_code == 429  # the fifth locks
    refused = _login(Client(), "moderator", "the-right-password-42", "203.0.113.9")
    assert refused.status_code == 429
    assert "Too many failed logins" in refused.content.decode()
    assert "_auth_user_id" not in Client().session


@override_settings(DEBUG=False, AXES_FAILURE_LIMIT=5)
def test_five_wrong_passwords_from_one_address_lock_that_address_for_every_account():
    _admin()
    User.objects.create_superuser("other", "other@example.org", "another-right-password-42")
    for attempt in range(5):
        _login(Client(), f"guess-{attempt}", "wrong", "198.51.100.7")
    assert _login(Client(), "other", "another-right-password-42", "198.51.100.7").status_code == 429
    welcome = _login(Client(), "other", "another-right-password-42", "198.51.100.8")
    assert welcome.status_code == 302 and welcome["Location"] == "/admin/"


@override_settings(DEBUG=False, AXES_FAILURE_LIMIT=5, TRUSTED_PROXIES=["127.0.0.1"])
def test_behind_the_proxy_the_throttle_counts_the_address_the_proxy_saw_not_one_a_client_wrote():
    _admin()
    for attempt in range(5):
        Client().post(
            "/admin/login/",
            {"username": f"guess-{attempt}", "password": "wrong"},
            REMOTE_ADDR="127.0.0.1",  # the proxy
            HTTP_X_FORWARDED_FOR=f"10.0.0.{attempt}, 198.51.100.7",  # forged, then what the proxy saw
        )
    locked = Client().post(
        "/admin/login/",
        {"username": "moderator", "password": "the-right-password-42"},
        REMOTE_ADDR="127.0.0.1",
        HTTP_X_FORWARDED_FOR="198.51.100.7",
    )
    assert locked.status_code == 429
    elsewhere = Client().post(
        "/admin/login/",
        {"username": "moderator", "password": "the-right-password-42"},
        REMOTE_ADDR="127.0.0.1",
        HTTP_X_FORWARDED_FOR="198.51.100.8",
    )
    assert elsewhere.status_code == 302


@override_settings(DEBUG=False, AXES_FAILURE_LIMIT=5, TRUSTED_PROXIES=["127.0.0.1/8", "::1"])
def test_a_client_that_reaches_gunicorn_without_the_proxy_cannot_forge_its_address():
    _admin()
    for attempt in range(5):
        Client().post(
            "/admin/login/",
            {"username": f"guess-{attempt}", "password": "wrong"},
            REMOTE_ADDR="203.0.113.5",  # not the proxy: gunicorn reached directly
            HTTP_X_FORWARDED_FOR=f"198.51.100.{attempt}",  # a new address each time, forged
        )
    again = Client().post(
        "/admin/login/",
        {"username": "moderator", "password": "the-right-password-42"},
        REMOTE_ADDR="203.0.113.5",
        HTTP_X_FORWARDED_FOR="192.0.2.44",
    )
    assert again.status_code == 429


@pytest.mark.parametrize(
    ("remote", "forwarded", "trusted", "client"),
    [
        ("203.0.113.5", "198.51.100.7", ["127.0.0.1/8"], "203.0.113.5"),  # no proxy: the header is a lie
        ("127.0.0.1", "198.51.100.7", ["127.0.0.1/8"], "198.51.100.7"),
        ("127.0.0.1", "10.9.9.9, 198.51.100.7", ["127.0.0.1/8"], "198.51.100.7"),  # forged, then real
        ("127.0.0.1", "10.9.9.9, 198.51.100.7, 10.0.0.2", ["127.0.0.1", "10.0.0.0/24"], "198.51.100.7"),
        ("::1", "2001:db8::7", ["127.0.0.1/8", "::1"], "2001:db8::7"),
        ("127.0.0.1", "", ["127.0.0.1/8"], "127.0.0.1"),  # the proxy itself (a health check)
        ("127.0.0.1", "not-an-address, 198.51.100.7", ["127.0.0.1/8"], "198.51.100.7"),
        ("127.0.0.1", "198.51.100.7", [], "127.0.0.1"),  # no proxy trusted: the header is never read
    ],
)
def test_the_client_address_is_read_from_the_right_only_past_trusted_proxies(
    settings, remote, forwarded, trusted, client
):
    settings.TRUSTED_PROXIES = trusted
    request = RequestFactory().get("/", REMOTE_ADDR=remote, HTTP_X_FORWARDED_FOR=forwarded)
    assert security.client_address(request) == client


@pytest.mark.parametrize(
    ("variable", "value", "said"),
    [
        ("PROXY_COUNT", "1", "the reverse proxies are TRUSTED_PROXIES"),
        ("TRUSTED_PROXIES", "nginx", "TRUSTED_PROXIES"),
    ],
)
def test_a_proxy_setting_that_cannot_be_right_stops_the_start(variable, value, said):
    env = {k: v for k, v in os.environ.items() if k in ("PATH", "HOME", "LANG", "PYTHONPATH")}
    env.update({"DJANGO_SETTINGS_MODULE": "whitelotus.settings", variable: value})
    run = subprocess.run(
        [sys.executable, "-c", "import django; django.setup()"],
        env=env,
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert run.returncode != 0 and said in run.stderr, run.stderr


def _routes(resolver: URLResolver, prefix: str = "") -> list[str]:
    """Every route as a path template, with ``{}`` where each parameter goes."""
    found = []
    for entry in resolver.url_patterns:
        pattern = str(entry.pattern)
        if hasattr(entry.pattern, "_regex"):
            pattern = pattern.lstrip("^").rstrip("$").replace("\\", "")
            pattern = re.sub(r"\(\?P<\w+>(?:[^()]|\([^()]*\))*\)", "{}", pattern)
        pattern = re.sub(r"<(?:\w+:)?\w+>", "{}", pattern)
        if isinstance(entry, URLResolver):
            found += _routes(entry, prefix + pattern)
        elif isinstance(entry, URLPattern):
            found.append(prefix + pattern)
    return found


@override_settings(DEBUG=False, LOCAL_MAILBOX=True)
@pytest.mark.parametrize("bad", ["%00", "%FF", "a%00b", "%C3%28"])
def test_a_nul_or_a_broken_byte_in_any_route_is_a_400_or_404_never_a_500(bad):
    client = Client(raise_request_exception=False)
    routes = _routes(get_resolver())
    assert "games/seat/{}/" in routes and "me/{}/" in routes and len(routes) > 40
    for route in routes:
        if "{}" in route:
            paths = ["/" + route.replace("{}", bad)]
        else:
            paths = [f"/{route}{bad}", f"/{route}?q={bad}&page={bad}"]
        for path in paths:
            for response in (client.get(path), client.post(path, {"x": "1"})):
                assert response.status_code in (400, 404, 405), f"{path}: {response.status_code}"


@override_settings(DEBUG=False)
def test_the_bad_request_page_is_the_sites_own_in_the_readers_language(client):
    response = client.get("/games/seat/%00/", HTTP_ACCEPT_LANGUAGE="de")
    assert response.status_code == 400
    assert '<html lang="de">' in response.content.decode()


def _production(*command: str) -> subprocess.CompletedProcess[str]:
    env = {
        **os.environ,
        "DEBUG": "false",
        "SECRET_KEY": "a-production-like-secret-key-" + "x" * 40,
        "ALLOWED_HOSTS": "lotus.example.org",
    }
    return subprocess.run(
        [sys.executable, "manage.py", *command],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_in_production_the_language_cookie_is_secure_and_same_site_lax():
    shown = _production(
        "shell",
        "-c",
        "from django.conf import settings as s; "
        "print('cookie', s.LANGUAGE_COOKIE_SECURE, s.LANGUAGE_COOKIE_SAMESITE)",
    )
    assert "cookie True Lax" in shown.stdout, shown.stdout + shown.stderr


@override_settings(LANGUAGE_COOKIE_SECURE=True, LANGUAGE_COOKIE_SAMESITE="Lax")
def test_the_language_switch_sets_its_cookie_secure_and_same_site(client):
    response = client.post("/i18n/setlang/", {"language": "de", "next": "/"})
    cookie = response.cookies["django_language"]
    assert cookie["secure"] is True and cookie["samesite"] == "Lax"


def test_check_deploy_with_production_settings_warns_only_about_the_hsts_choices():
    result = _production("check", "--deploy")
    warnings = set(re.findall(r"\((\w+\.[WE]\d+)\)", result.stdout + result.stderr))
    assert warnings <= {"security.W005", "security.W021"}, result.stdout + result.stderr
