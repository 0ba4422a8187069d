"""Replies fetched from an ordinary mailbox by IMAP, against a real Dovecot (``dovecot.py``):
stored through the inbound store first, moved (or flagged) only after, never twice; the old
mail of the mailbox left alone; a renumbered mailbox (UIDVALIDITY) read again without doubles."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from email.message import EmailMessage
from email.utils import make_msgid
from pathlib import Path

import pytest

from games import services
from games.rules import whitelotus as wl
from notifications.imap.fetch import Tally, envelope_recipients, fetch_new
from notifications.imap.watching import watch
from notifications.inbound import routing as inbound
from notifications.models import FetchedMail, InboundMail, MailboxState
from notifications.services import tokens
from tests.games.factories import running_game, whose_turn
from tests.notifications.dovecot import Dovecot, running_dovecot

ROOT = Path(__file__).resolve().parents[2]
PROCESSED = "WhiteLotus.Processed"  # Dovecot's maildir names the hierarchy with dots
UNREADABLE = "WhiteLotus.Unreadable"


@pytest.fixture
def dovecot():
    with running_dovecot() as server:
        yield server


def reply_mail(
    to: str, sender: str, body: str, *, delivered_to: str | None = None, message_id: str | None = None
) -> bytes:
    """A player's reply as the provider stores it: its delivery header on top when it writes one."""
    message = EmailMessage()
    if delivered_to:
        message["Delivered-To"] = delivered_to
    message["Return-Path"] = f"<{sender}>"
    message["From"] = sender
    message["To"] = to
    message["Subject"] = "Re: White Lotus: your move"
    message["Message-ID"] = message_id or make_msgid(domain="player.test")
    message.set_content(body)
    return message.as_bytes()


def a_move(game) -> tuple[int, str, str, str]:
    seat = whose_turn(game)
    holder = game.seats.get(position=seat)
    state = services.head_state(game)
    return (
        seat,
        tokens.reply_address(holder),
        holder.player.email,
        wl.Notation.format_command(state, wl.legal(state, seat)[0]),
    )


def old_mail(n: int) -> bytes:
    message = EmailMessage()
    message["From"] = f"friend{n}@example.net"
    message["To"] = "play@lotus.test"
    message["Subject"] = f"old mail {n}"
    message["Message-ID"] = f"<old{n}@example.net>"
    message.set_content(f"an old mail of the mailbox's owner, number {n}")
    return message.as_bytes()


def process_new() -> list[InboundMail]:
    rows = list(InboundMail.objects.filter(status=InboundMail.Status.NEW).order_by("pk"))
    for row in rows:
        inbound.process(row.pk)
    return [InboundMail.objects.get(pk=row.pk) for row in rows]


def once(server: Dovecot, **changes) -> Tally:
    return watch(server.account(**changes), once=True)


@pytest.mark.parametrize("security", ["ssl", "starttls"])
def test_a_reply_is_stored_then_moved_to_the_processed_folder(db, dovecot, security):
    port = dovecot.imaps_port if security == "ssl" else dovecot.imap_port
    game = running_game(3, seed=f"imap-{security}")
    once(dovecot, security=security, port=port)  # the first look: the mailbox is empty, all is new
    seat, address, player, command = a_move(game)
    dovecot.deliver(reply_mail(address, player, command, delivered_to=address, message_id="<r1@player.test>"))

    tally = once(dovecot, security=security, port=port)

    assert (tally.stored, tally.done) == (1, 1)
    [row] = InboundMail.objects.filter(message_id="r1@player.test")
    assert (row.via, row.recipient, row.envelope_from) == ("imap", address.lower(), f"<{player}>")
    assert dovecot.uids() == [] and dovecot.message_ids(PROCESSED) == ["r1@player.test"]
    [done] = process_new()
    assert done.status == InboundMail.Status.APPLIED, done.outcome
    assert game.events.filter(seat=seat, source="mail", command_text=command).count() == 1


def test_without_a_delivery_header_the_to_header_names_the_seat(db, dovecot):
    game = running_game(3, seed="imap-to")
    once(dovecot)
    seat, address, player, command = a_move(game)
    # the mailbox's plain address in Delivered-To (some providers write it so): not a seat's
    dovecot.deliver(reply_mail(address, player, command, delivered_to="play@lotus.test"))
    once(dovecot)
    [row] = process_new()
    assert (row.recipient, row.status) == ("", InboundMail.Status.APPLIED), row.outcome
    assert game.events.filter(seat=seat, source="mail").count() == 1


def test_the_envelope_recipient_is_read_from_the_providers_delivery_headers(settings):
    raw = (
        b"Delivered-To: someone@gmail.com\r\nX-Original-To: play+abc@lotus.test\r\n"
        b"Delivered-To: PLAY+def@lotus.test\r\nFrom: a@b\r\nTo: play+zzz@lotus.test\r\n\r\nx\r\n"
    )
    assert envelope_recipients(raw) == ["PLAY+def@lotus.test", "play+abc@lotus.test"]
    settings.REPLY_SEPARATOR = "-"
    assert envelope_recipients(raw.replace(b"+", b"-")) == ["PLAY-def@lotus.test", "play-abc@lotus.test"]


def test_an_unreadable_message_is_stored_raw_and_moved_aside(db, dovecot):
    once(dovecot)
    garbage = b"\x00\x01 not a mail at all \xff\xfe\r\n\r\n\x00"
    dovecot.deliver(garbage)
    tally = once(dovecot)
    assert (tally.stored, tally.unreadable) == (1, 1)
    [row] = process_new()
    # as the server gave it (Dovecot turns NUL bytes into 0x80)
    assert row.status == InboundMail.Status.UNREADABLE and b"not a mail at all \xff\xfe" in bytes(row.raw)
    assert dovecot.count(UNREADABLE) == 1 and dovecot.count(PROCESSED) == 0 and dovecot.uids() == []


def test_in_flag_mode_a_reply_is_flagged_and_stays_in_the_inbox(db, dovecot):
    game = running_game(3, seed="imap-flag")
    once(dovecot, done="flag")
    seat, address, player, command = a_move(game)
    dovecot.deliver(reply_mail(address, player, command, delivered_to=address))
    assert once(dovecot, done="flag").stored == 1
    assert once(dovecot, done="flag").stored == 0  # flagged: not looked at again
    client = dovecot.client()
    client.select_folder("INBOX", readonly=True)
    [(_uid, data)] = client.fetch(client.search(["ALL"]), ["FLAGS"]).items()
    client.logout()
    assert b"$WhiteLotusDone" in data[b"FLAGS"]
    assert len(process_new()) == 1 and game.events.filter(seat=seat, source="mail").count() == 1


def test_a_mailbox_with_a_thousand_old_messages_at_start_only_new_ones_are_processed(db, dovecot):
    dovecot.append_many([old_mail(n) for n in range(1000)])
    started = time.monotonic()
    first = once(dovecot)
    took = time.monotonic() - started
    print(f"first look at a mailbox of 1,000 old messages: {took:.2f} s")
    assert (first.stored, first.done) == (0, 0)
    state = MailboxState.objects.get()
    assert state.first_uid == 1001  # the rule: from the UIDNEXT of the first look on

    game = running_game(3, seed="imap-old")
    _seat, address, player, command = a_move(game)
    dovecot.deliver(
        reply_mail(address, player, command, delivered_to=address, message_id="<new@player.test>")
    )
    later = once(dovecot)
    assert (later.stored, later.done) == (1, 1)
    assert InboundMail.objects.count() == 1 and len(dovecot.uids()) == 1000
    assert dovecot.message_ids(PROCESSED) == ["new@player.test"]


def test_after_a_uidvalidity_change_new_mail_is_read_and_nothing_is_stored_twice(db, dovecot, monkeypatch):
    dovecot.append_many([old_mail(n) for n in range(5)])
    time.sleep(1.1)  # INTERNALDATE has whole seconds: the old mail arrived before the first look
    once(dovecot)
    game = running_game(3, seed="imap-renumber")
    _seat, address, player, command = a_move(game)
    dovecot.deliver(
        reply_mail(address, player, command, delivered_to=address, message_id="<kept@player.test>")
    )
    # stored, and the fetcher stops before the move (as if killed there)
    from notifications.imap import fetch

    def killed(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(fetch, "_put_away", killed)
    with pytest.raises(KeyboardInterrupt):
        once(dovecot)
    monkeypatch.undo()
    assert InboundMail.objects.count() == 1 and len(dovecot.uids()) == 6

    before = MailboxState.objects.get().uidvalidity
    after = dovecot.renumber()
    assert after != before
    _, address_2, player_2, _ = a_move(game)
    dovecot.deliver(
        reply_mail(address_2, player_2, "help", delivered_to=address_2, message_id="<new@player.test>")
    )

    tally = once(dovecot)

    assert (tally.stored, tally.duplicates, tally.done) == (1, 1, 2)
    assert sorted(InboundMail.objects.values_list("message_id", flat=True)) == [
        "kept@player.test",
        "new@player.test",
    ]
    assert MailboxState.objects.get().uidvalidity == after
    assert len(dovecot.uids()) == 5  # the old mail stays where it was
    assert dovecot.message_ids(PROCESSED) == ["kept@player.test", "new@player.test"]
    assert FetchedMail.objects.filter(uidvalidity=after).count() == 2


def test_a_dropped_connection_is_opened_again(postgres_transactional, dovecot):
    """Dovecot throws the fetcher out (``doveadm kick``) while it IDLEs: it logs in again and
    reads the next reply."""
    import subprocess
    import threading

    from tests.notifications.dovecot import USER, tool
    from tests.waiting import wait_for

    game = running_game(3, seed="imap-kick")
    stop = threading.Event()
    tallies: list[Tally] = []
    thread = threading.Thread(target=lambda: tallies.append(watch(dovecot.account(), stop=stop)))
    thread.start()
    try:
        wait_for(lambda: MailboxState.objects.filter(looked_at__isnull=False).exists(), "the first look")
        kicked = subprocess.run(
            [tool("doveadm"), "-c", str(dovecot.config), "kick", USER], capture_output=True, timeout=60
        )
        assert kicked.returncode == 0, kicked.stderr
        _, address, player, command = a_move(game)
        dovecot.deliver(
            reply_mail(address, player, command, delivered_to=address, message_id="<k@player.test>")
        )
        wait_for(
            lambda: InboundMail.objects.filter(message_id="k@player.test").exists(),
            "the reply after the kick",
        )
        wait_for(lambda: dovecot.uids() == [], "the reply moved")
    finally:
        stop.set()
        thread.join(60)
    assert not thread.is_alive()
    assert tallies[0].reconnects >= 1 and tallies[0].stored == 1 and tallies[0].idles >= 2


def test_only_one_fetcher_holds_a_mailbox(db, dovecot):
    from notifications.imap.watching import claim, new_holder, release

    name = dovecot.account().name
    first, second = new_holder(), new_holder()
    assert claim(name, first) is not None
    assert claim(name, second) is None
    release(name, first)
    assert claim(name, second) is not None
    # a holder whose process is gone (killed) holds nothing
    MailboxState.objects.filter(name=name).update(holder="{}:999999999:dead".format(first.split(":")[0]))
    assert claim(name, first) is not None


def test_fetch_new_reads_the_oldest_first(db, dovecot):
    once(dovecot)
    game = running_game(3, seed="imap-order")
    _, address, player, _ = a_move(game)
    for n in range(3):
        dovecot.deliver(
            reply_mail(address, player, "help", delivered_to=address, message_id=f"<o{n}@player.test>")
        )
    client = dovecot.client()
    try:
        tally = Tally()
        from notifications.imap.watching import claim, new_holder

        state = claim(dovecot.account().name, new_holder())
        assert state is not None
        fetch_new(client, dovecot.account(), state, tally)
    finally:
        client.logout()
    assert list(InboundMail.objects.order_by("pk").values_list("message_id", flat=True)) == [
        "o0@player.test",
        "o1@player.test",
        "o2@player.test",
    ]


# --- the fetcher killed ------------------------------------------------------------------------

KILLED_AT = {
    # the store committed, the message not yet moved
    "between store and move": "fetch._put_away = die",
    # inside the store's transaction: the rows written, not committed
    "inside the store": (
        "stored = fetch.store_each\n"
        "def store_then_die(*args, **kwargs):\n"
        "    stored(*args, **kwargs)\n"
        "    die()\n"
        "fetch.store_each = store_then_die"
    ),
}
FETCHER = """\
import os, signal
import django
django.setup()
from notifications.imap import fetch, watching
def die(*args, **kwargs):
    os.kill(os.getpid(), signal.SIGKILL)
{patch}
watching.watch(fetch.Account.from_settings(), once=True)
"""


def fetcher_env(server: Dovecot) -> dict[str, str]:
    from tests.notifications.helpers import database_url

    account = server.account()
    keep = ("PATH", "HOME", "LANG", "PYTHONPATH")
    return {
        **{k: v for k, v in os.environ.items() if k in keep},
        "DJANGO_SETTINGS_MODULE": "whitelotus.settings",
        "DATABASE_URL": database_url(),
        "DB_CONN_MAX_AGE": "0",
        "DEBUG": "false",
        "SECRET_KEY": "imap-test",
        "LOCAL_MAILBOX": "false",
        "REPLY_DOMAIN": "lotus.test",
        "REPLY_PREFIX": "play",
        "EMAIL_BACKEND": "django.core.mail.backends.locmem.EmailBackend",
        # no worker: the fetcher processes what it stores itself, on commit
        "CELERY_TASK_ALWAYS_EAGER": "true",
        "CELERY_BROKER_URL": "memory://localhost",
        "LOG_LEVEL": "WARNING",
        "IMAP_HOST": account.host,
        "IMAP_PORT": str(account.port),
        "IMAP_USER": account.user,
        "IMAP_PASSWORD": account.password,
        "IMAP_CA_FILE": account.ca_file,
    }


@pytest.mark.parametrize("where", list(KILLED_AT))
def test_a_fetcher_killed_loses_nothing_and_doubles_nothing(where, postgres_transactional, dovecot):
    game = running_game(3, seed="imap-killed")
    env = fetcher_env(dovecot)
    manage = [sys.executable, "manage.py", "fetch_mail", "--once", "-v", "0"]
    first = subprocess.run(manage, env=env, cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert first.returncode == 0, first.stderr  # the first look: from now on all is new
    seat, address, player, command = a_move(game)
    dovecot.deliver(
        reply_mail(address, player, command, delivered_to=address, message_id="<kill@player.test>")
    )

    script = FETCHER.format(patch=KILLED_AT[where])
    killed = subprocess.run(
        [sys.executable, "-c", script], env=env, cwd=ROOT, capture_output=True, text=True, timeout=120
    )
    assert killed.returncode == -signal.SIGKILL, killed.stderr
    stored = InboundMail.objects.filter(message_id="kill@player.test").count()
    assert stored == (1 if where == "between store and move" else 0)
    assert len(dovecot.uids()) == 1  # still in the inbox

    again = subprocess.run(manage, env=env, cwd=ROOT, capture_output=True, text=True, timeout=120)

    assert again.returncode == 0, again.stderr
    [row] = InboundMail.objects.filter(message_id="kill@player.test")
    assert row.status == InboundMail.Status.APPLIED, row.outcome
    assert game.events.filter(seat=seat, source="mail", command_text=command).count() == 1
    assert dovecot.uids() == [] and dovecot.message_ids(PROCESSED) == ["kill@player.test"]
    assert FetchedMail.objects.filter(done_at__isnull=False).count() == 1


def test_without_idle_the_fetcher_polls(postgres_transactional):
    """A server that does not offer IDLE (Dovecot told to leave it out): the fetcher looks
    every ``poll_seconds`` and still finds each reply."""
    import threading

    from tests.waiting import wait_for

    game = running_game(3, seed="imap-poll")
    with running_dovecot(idle=False) as server:
        client = server.client()
        assert not client.has_capability("IDLE")
        client.logout()
        stop = threading.Event()
        tallies: list[Tally] = []
        thread = threading.Thread(target=lambda: tallies.append(watch(server.account(), stop=stop)))
        thread.start()
        try:
            wait_for(lambda: MailboxState.objects.filter(looked_at__isnull=False).exists(), "the first look")
            for n in range(2):
                _, address, player, _ = a_move(game)
                raw = reply_mail(
                    address, player, "help", delivered_to=address, message_id=f"<p{n}@player.test>"
                )
                server.deliver(raw)
                wait_for(
                    lambda n=n: InboundMail.objects.filter(message_id=f"p{n}@player.test").exists(), "a poll"
                )
        finally:
            stop.set()
            thread.join(60)
        assert not thread.is_alive()
        assert tallies[0].stored == 2 and tallies[0].passes >= 3
        assert tallies[0].idles == 0  # never asked: it polled


def test_the_beat_task_fetches_unless_another_fetcher_holds_the_mailbox(db, dovecot, settings, monkeypatch):
    from notifications import tasks
    from notifications.imap.watching import claim

    account = dovecot.account()
    settings.IMAP_HOST, settings.IMAP_PORT, settings.IMAP_USER = account.host, account.port, account.user
    settings.IMAP_PASSWORD, settings.IMAP_CA_FILE = account.password, account.ca_file
    monkeypatch.setattr(tasks, "FETCH_SECONDS", 3.0)
    assert claim(account.name, "elsewhere:1:fetch-mail") is not None  # manage.py fetch_mail, on another host
    started = time.monotonic()
    assert tasks.fetch_mail().startswith("0 passes")
    assert time.monotonic() - started < 2  # it did not even log in
    MailboxState.objects.update(leased_until=None)  # that fetcher stopped
    looked = tasks.fetch_mail()  # the first look, then IDLE until its time is up
    assert not looked.startswith("0 passes") and " 0 stored," in looked and "1 IDLE" in looked
    game = running_game(3, seed="imap-beat")
    _, address, player, _ = a_move(game)
    dovecot.deliver(
        reply_mail(address, player, "help", delivered_to=address, message_id="<beat@player.test>")
    )
    assert ": 1 stored," in tasks.fetch_mail()
    assert InboundMail.objects.filter(message_id="beat@player.test", via="imap").exists()


def test_fetch_mail_once_says_in_one_line_why_it_cannot_log_in(db, dovecot, settings):
    from django.core.management import CommandError, call_command

    account = dovecot.account()
    settings.IMAP_HOST, settings.IMAP_PORT, settings.IMAP_USER = account.host, account.port, account.user
    settings.IMAP_PASSWORD, settings.IMAP_CA_FILE = "not-the-password", account.ca_file
    with pytest.raises(CommandError) as refused:
        call_command("fetch_mail", "--once", verbosity=0)
    assert "LoginError" in str(refused.value) and "not-the-password" not in str(refused.value)
    settings.IMAP_PASSWORD = account.password
    call_command("fetch_mail", "--once", verbosity=0)
    assert MailboxState.objects.get().looked_at is not None


def oauth2_token(user: str) -> str:
    """An IMAP_OAUTH2_TOKEN_HOOK: the test Dovecot checks an XOAUTH2 token as the password."""
    from tests.notifications.dovecot import PASSWORD

    return PASSWORD if user == "league" else "not-a-token"


def test_the_fetcher_logs_in_with_an_oauth2_token_from_the_hook(db, dovecot):
    hook = "tests.notifications.test_imap_fetch.oauth2_token"
    assert once(dovecot, password="", oauth2_token_hook=hook).passes == 1
    assert "method=XOAUTH2" in dovecot.log()


def test_fetch_mail_started_while_beat_holds_the_mailbox_waits_says_so_and_takes_over(
    db, dovecot, settings, monkeypatch, caplog
):
    """A restart or an upgrade where beat starts first: its minute of fetching holds the
    mailbox as ``manage.py fetch_mail`` starts.  The fetcher says so in one line, waits, and
    fetches once the lease is free; it does not end (and stay down) for it."""
    import logging
    from datetime import timedelta

    from django.core.management import call_command
    from django.utils import timezone

    from notifications.imap import watching

    account = dovecot.account()
    settings.IMAP_HOST, settings.IMAP_PORT, settings.IMAP_USER = account.host, account.port, account.user
    settings.IMAP_PASSWORD, settings.IMAP_CA_FILE = account.password, account.ca_file
    monkeypatch.setattr(watching, "LEASE_POLL", 0.2)
    once(dovecot)  # beat's earlier minutes looked at the mailbox
    game = running_game(3, seed="imap-wait")
    _, address, player, _ = a_move(game)
    dovecot.deliver(
        reply_mail(address, player, "help", delivered_to=address, message_id="<wait@player.test>")
    )
    MailboxState.objects.update(
        holder="beat-host:4242:a1b2c3", leased_until=timezone.now() + timedelta(seconds=2)
    )

    started = time.monotonic()
    with caplog.at_level(logging.INFO, logger="notifications.imap.watching"):
        call_command("fetch_mail", "--seconds", "5", verbosity=0)

    said = [r.getMessage() for r in caplog.records if r.name == "notifications.imap.watching"]
    assert said[0].startswith(
        f"mailbox {account.name} is held by another fetcher (beat-host:4242:a1b2c3, its lease runs to "
    )
    assert said[0].endswith("; waiting for it to let go")
    assert said[1].startswith(f"mailbox {account.name} is free after ") and said[1].endswith("; fetching")
    assert InboundMail.objects.filter(message_id="wait@player.test", via="imap").exists()
    assert time.monotonic() - started >= 2
    assert MailboxState.objects.get().holder == ""  # it let go as it stopped


def test_polling_an_answer_that_follows_a_stored_reply_is_fetched_within_seconds(db):
    """Without IDLE the looks set a game's pace: each reply brings about a mail, its answer
    comes a few seconds after the look that stored the reply, and with one look every
    ``poll_seconds`` it waited nearly the whole interval.  After a pass that stored a reply the
    next looks come after 2, 4, 8 … seconds."""
    import threading
    from dataclasses import replace

    poll = 12.0
    done = threading.Event()
    game = running_game(3, seed="imap-soon")
    _, address, player, _ = a_move(game)
    waits: list[float] = []
    with running_dovecot(idle=False) as server:
        account = replace(server.account(), poll_seconds=poll)
        once(server)  # the first look: the mailbox noted

        def player_answers() -> None:
            server.deliver(
                reply_mail(address, player, "help", delivered_to=address, message_id="<r0@p.test>")
            )
            while server.uids():  # until the fetcher stored and moved it: a look, up to a poll later
                time.sleep(0.05)
            time.sleep(1.0)  # the mail it brought about, answered at once
            server.deliver(
                reply_mail(address, player, "help", delivered_to=address, message_id="<r1@p.test>")
            )
            delivered = time.monotonic()
            while server.uids():
                time.sleep(0.05)
            waits.append(time.monotonic() - delivered)
            done.set()

        answering = threading.Thread(target=player_answers)
        answering.start()
        tally = watch(account, seconds=3 * poll, stop=done)
        done.set()
        answering.join(30)
    assert tally.stored == 2 and tally.idles == 0
    [wait] = waits
    assert wait < poll / 2, f"the answer waited {wait:.1f} s of a {poll:.0f} s interval"
    assert InboundMail.objects.filter(message_id__in=["r0@p.test", "r1@p.test"]).count() == 2
