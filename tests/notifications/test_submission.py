"""Sending through an ordinary mailbox's account by SMTP submission (587 STARTTLS or 465),
at the provider's pace: the outbox drains at MAIL_SEND_PER_MINUTE and MAIL_SEND_PER_DAY with
decision mails first, and a refusal for rate (421, 450, 451, 452, 454) holds the outbox and
loses nothing.  Against a real SMTP server on loopback (``submission.py``)."""

from __future__ import annotations

import os
import smtplib
import ssl
import subprocess
import sys
from datetime import timedelta
from pathlib import Path

import pytest
import time_machine
from django.utils import timezone

from games import services
from notifications import tasks
from notifications.models import OutboundMail, SendingPace
from notifications.outbound import queues, sending, throttle
from tests.games.factories import players
from tests.notifications.submission import PASSWORD, USER, start_provider

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def provider(request, settings, monkeypatch, tmp_path):
    mode = getattr(request, "param", "starttls")
    box, server, cert = start_provider(tmp_path, mode)
    monkeypatch.setenv("SSL_CERT_FILE", str(cert))  # the provider's certificate, trusted
    settings.EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    settings.EMAIL_HOST, settings.EMAIL_PORT = "127.0.0.1", server.port
    settings.EMAIL_HOST_USER, settings.EMAIL_HOST_PASSWORD = USER, PASSWORD
    settings.EMAIL_USE_TLS, settings.EMAIL_USE_SSL = mode == "starttls", mode == "ssl"
    settings.EMAIL_TIMEOUT = 30
    try:
        yield box
    finally:
        server.stop()


@pytest.fixture
def private_ca_provider(request, settings, monkeypatch, tmp_path):
    """A provider whose certificate a CA of its own signed; nothing but EMAIL_CA_FILE trusts it."""
    mode = request.param
    box, server, ca = start_provider(tmp_path, mode, signed_by_private_ca=True)
    monkeypatch.delenv("SSL_CERT_FILE", raising=False)
    monkeypatch.delenv("SSL_CERT_DIR", raising=False)
    settings.EMAIL_HOST, settings.EMAIL_PORT = "127.0.0.1", server.port
    settings.EMAIL_HOST_USER, settings.EMAIL_HOST_PASSWORD = USER, PASSWORD
    settings.EMAIL_USE_TLS, settings.EMAIL_USE_SSL = mode == "starttls", mode == "ssl"
    settings.EMAIL_TIMEOUT = 30
    try:
        yield box, ca
    finally:
        server.stop()


def games(count: int) -> None:
    """``count`` games of three started: an invitation each, one of them a decision mail."""
    people = players(6)
    for n in range(count):
        game = services.create_game(people[n % 2 * 3 : n % 2 * 3 + 3], seed=f"sub-{n}")
        services.start_game(game)


def drain() -> str:
    return str(tasks.drain_outbox())


# aiosmtpd warns of AUTH without STARTTLS on its implicit-TLS (465) server, which is TLS throughout
@pytest.mark.filterwarnings("ignore:Requiring AUTH while not requiring TLS")
@pytest.mark.parametrize("provider", ["starttls", "ssl"], indirect=True)
def test_mail_goes_out_by_submission_with_the_accounts_password(db, provider, settings):
    games(1)
    for row in OutboundMail.objects.order_by("pk"):
        assert sending.deliver(row.pk) == "sent"
    assert len(provider.mails) == 3
    assert {m.message["Reply-To"].split("@")[0].split("+")[0] for m in provider.mails} == {"play"}


@pytest.mark.filterwarnings("ignore:Requiring AUTH while not requiring TLS")
@pytest.mark.parametrize("private_ca_provider", ["starttls", "ssl"], indirect=True)
@pytest.mark.parametrize(
    "backend", ["notifications.imap.submission.EmailBackend", "notifications.imap.smtp_oauth2.EmailBackend"]
)
def test_a_provider_with_a_private_ca_is_trusted_through_email_ca_file(
    db, private_ca_provider, settings, backend
):
    box, ca = private_ca_provider
    settings.EMAIL_BACKEND = backend
    settings.EMAIL_OAUTH2_TOKEN_HOOK = "tests.notifications.submission.token_of"
    games(1)
    first, *rest = OutboundMail.objects.order_by("pk")
    settings.EMAIL_CA_FILE = ""  # the system's CAs: they do not know the provider's
    with pytest.raises(ssl.SSLCertVerificationError):
        sending.deliver(first.pk)
    assert not box.mails
    settings.EMAIL_CA_FILE = str(ca)
    assert [sending.deliver(r.pk) for r in (first, *rest)] == ["sent"] * 3
    assert len(box.mails) == 3


def test_email_ca_file_with_djangos_own_smtp_backend_is_refused_at_start():
    env = {
        **{k: v for k, v in os.environ.items() if k in ("PATH", "HOME", "LANG", "PYTHONPATH")},
        "DJANGO_SETTINGS_MODULE": "whitelotus.settings",
        "EMAIL_BACKEND": "django.core.mail.backends.smtp.EmailBackend",
        "EMAIL_CA_FILE": "/etc/ssl/certs/league-ca.pem",
    }
    run = subprocess.run(
        [sys.executable, "-c", "import django; django.setup()"],
        env=env,
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert run.returncode != 0
    assert "EMAIL_BACKEND=notifications.imap.submission.EmailBackend" in run.stderr


def test_the_outbox_drains_at_the_rate_limit_with_decision_mails_first(db, provider, settings):
    settings.MAIL_SEND_PER_MINUTE, settings.MAIL_SEND_PER_DAY = 2, 5
    with time_machine.travel(timezone.now(), tick=False) as clock:
        games(2)  # 6 invitations: 2 decision mails (the first movers'), 4 others
        rows = list(OutboundMail.objects.order_by("pk"))
        first = [r.pk for r in rows if queues.goes_first(r.kind, r.context)]
        assert len(first) == 2
        # the send tasks as the broker hands them out: oldest first, whatever their kind
        results = [sending.deliver(r.pk) for r in rows]
        assert results.count("sent") == 2 and all(r.startswith("held") for r in results if r != "sent")
        assert sorted(r.pk for r in OutboundMail.objects.filter(status="sent")) == sorted(first)

        clock.shift(timedelta(seconds=61))
        drain()
        assert OutboundMail.objects.filter(status="sent").count() == 4
        clock.shift(timedelta(seconds=61))
        drain()  # 5 a day: one more, the oldest of the rest
        sent = OutboundMail.objects.filter(status="sent")
        assert sent.count() == 5
        [waiting] = OutboundMail.objects.filter(status="pending")
        assert waiting.pk == max(r.pk for r in rows if r.pk not in first)
        clock.shift(timedelta(hours=24))
        drain()
    assert OutboundMail.objects.filter(status="sent").count() == 6
    assert len(provider.mails) == 6  # each once
    assert OutboundMail.objects.filter(attempts__gt=1).count() == 0


@pytest.mark.parametrize("code", [421, 450, 451, 452, 454])
def test_a_refusal_for_rate_holds_the_outbox_and_loses_nothing(db, provider, settings, code):
    settings.MAIL_SEND_PER_MINUTE, settings.MAIL_SEND_PER_DAY = 20, 500
    provider.refusals = [f"{code} 4.7.0 Too many messages, try again later"] * 2
    with time_machine.travel(timezone.now(), tick=False) as clock:
        games(1)
        rows = list(OutboundMail.objects.order_by("pk"))
        results = [sending.deliver(r.pk) for r in rows]
        assert results[0].startswith("held: the provider refused for rate"), results
        assert all(r.startswith("held") for r in results)  # the whole outbox waits
        pace = SendingPace.objects.get()
        assert pace.refusals == 1 and pace.paused_until == timezone.now() + timedelta(minutes=1)
        assert str(code) in pace.last_refusal

        clock.shift(timedelta(seconds=30))
        assert drain() == "0 held mails sent"  # still paused
        clock.shift(timedelta(seconds=31))
        drain()  # refused again: twice as long
        pace.refresh_from_db()
        assert pace.refusals == 2 and pace.paused_until == timezone.now() + timedelta(minutes=2)
        clock.shift(timedelta(minutes=2, seconds=1))
        assert drain() == "3 held mails sent"
    pace.refresh_from_db()
    assert (pace.refusals, pace.paused_until) == (0, None)
    assert provider.refused == 2 and len(provider.mails) == 3
    assert list(OutboundMail.objects.values_list("status", "attempts").distinct()) == [("sent", 1)]


@pytest.mark.parametrize("code", [421, 451])
def test_without_limits_a_refusal_for_rate_pauses_the_outbox_however_often_it_comes(
    db, provider, settings, code
):
    """``MAIL_SEND_PER_MINUTE`` and ``MAIL_SEND_PER_DAY`` at 0 (the .env.example default): ten
    refusals in a row, more than a mail's tries, and every mail still goes once, with one try."""
    settings.MAIL_SEND_PER_MINUTE = settings.MAIL_SEND_PER_DAY = 0
    assert "drain-outbox" in settings.CELERY_BEAT_SCHEDULE  # beat drains without limits too
    provider.refusals = [f"{code} 4.7.1 Try again later"] * (throttle.MAX_ATTEMPTS + 2)
    with time_machine.travel(timezone.now(), tick=False) as clock:
        games(1)
        rows = list(OutboundMail.objects.order_by("pk"))
        results = [sending.send_mail.apply((r.pk,)).get() for r in rows]  # the send tasks, as queued
        assert all(r.startswith("held") for r in results), results
        for _ in range(throttle.MAX_ATTEMPTS + 2):
            pace = SendingPace.objects.get()
            clock.move_to(pace.paused_until + timedelta(seconds=1))
            drain()
            if not OutboundMail.objects.filter(status="pending").exists():
                break
    assert provider.refused == throttle.MAX_ATTEMPTS + 2 and len(provider.mails) == 3
    assert list(OutboundMail.objects.values_list("status", "attempts").distinct()) == [("sent", 1)]
    assert SendingPace.objects.get().refusals == 0


def test_without_limits_and_without_a_refusal_the_drain_leaves_the_outbox_to_the_send_tasks(
    db, provider, settings
):
    settings.MAIL_SEND_PER_MINUTE = settings.MAIL_SEND_PER_DAY = 0
    games(1)
    assert drain() == "nothing held"
    assert OutboundMail.objects.filter(status="pending").count() == 3 and not provider.mails


def test_a_refusal_that_is_not_for_rate_is_a_failed_attempt_as_before(db, provider, settings):
    settings.MAIL_SEND_PER_MINUTE = 20
    provider.refusals = ["550 5.1.1 No such user"]
    games(1)
    row = OutboundMail.objects.order_by("pk").first()
    with pytest.raises(Exception) as raised:
        sending.deliver(row.pk)
    assert not throttle.refused_for_rate(raised.value)
    assert SendingPace.objects.filter(refusals__gt=0).count() == 0


def test_without_limits_nothing_is_held(db, provider, settings):
    settings.MAIL_SEND_PER_MINUTE = settings.MAIL_SEND_PER_DAY = 0
    games(2)
    assert [sending.deliver(r.pk) for r in OutboundMail.objects.order_by("pk")] == ["sent"] * 6
    assert not SendingPace.objects.exists()


def test_mail_goes_out_with_an_oauth2_token_where_the_provider_takes_no_password(db, provider, settings):
    settings.EMAIL_BACKEND = "notifications.imap.smtp_oauth2.EmailBackend"
    settings.EMAIL_OAUTH2_TOKEN_HOOK = "tests.notifications.submission.token_of"
    settings.EMAIL_HOST_PASSWORD = ""
    games(1)
    assert [sending.deliver(r.pk) for r in OutboundMail.objects.order_by("pk")] == ["sent"] * 3
    assert len(provider.mails) == 3
    settings.EMAIL_HOST_USER = "someone-else@lotus.test"  # a token the provider refuses
    games(1)
    row = OutboundMail.objects.filter(status="pending").first()
    with pytest.raises(smtplib.SMTPAuthenticationError):
        sending.deliver(row.pk)
