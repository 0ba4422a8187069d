"""The pipe as MTAs call it, and what any way in does with envelopes: several recipients after
one ``--recipient``, exit 75 with one line for every failure before the mail is stored, one
move per addressed seat, the null sender never answered, and a digest for mails without a
Message-ID that ignores what relays add."""

from __future__ import annotations

import io
import os
import subprocess
import sys
from pathlib import Path

import pytest
from aiosmtpd.smtp import Envelope
from asgiref.sync import async_to_sync
from django.core.management import call_command

from games import services
from games.rules import whitelotus as wl
from notifications import urls
from notifications.inbound import pipe, routing
from notifications.inbound.smtp import InboundHandler
from notifications.models import InboundMail, OutboundMail
from notifications.services import tokens
from tests.games.factories import running_game, whose_turn
from tests.notifications.helpers import compose

ROOT = Path(__file__).resolve().parents[2]


def first_move(game) -> tuple[int, str, str, str]:
    """(seat, its reply address, its player's address, a legal command) of whoever moves first."""
    seat = whose_turn(game)
    holder = game.seats.get(position=seat)
    state = services.head_state(game)
    return (
        seat,
        tokens.reply_address(holder),
        holder.player.email,
        wl.Notation.format_command(state, wl.legal(state, seat)[0]),
    )


def run_pipe(monkeypatch, raw: bytes, *argv: str) -> int:
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(raw)))
    return pipe.main(list(argv))


def process_all() -> list[InboundMail]:
    for pk in InboundMail.objects.filter(status="new").values_list("pk", flat=True):
        routing.process(pk)
    return list(InboundMail.objects.order_by("pk"))


def moved(game, seat: int) -> bool:
    return bool(game.events.filter(seat=seat, source="mail").exists())


# --- one mail, several seats --------------------------------------------------------------------


@pytest.mark.django_db
def test_several_recipients_after_one_recipient_flag_are_each_stored_and_applied(monkeypatch):
    first, second = running_game(3, seed="twin"), running_game(3, seed="twin")
    seat, address_1, player, command = first_move(first)
    _, address_2, _, _ = first_move(second)
    raw = compose(f"{address_1}, {address_2}", player, command)
    status = run_pipe(monkeypatch, raw, "--sender", player, "--recipient", address_1, address_2)
    assert status == 0
    rows = process_all()
    assert sorted(r.recipient for r in rows) == sorted([address_1, address_2])
    assert {r.status for r in rows} == {InboundMail.Status.APPLIED}
    assert moved(first, seat) and moved(second, seat)


@pytest.mark.django_db
def test_a_second_delivery_to_another_reply_address_moves_in_that_game_and_a_repeat_is_a_duplicate():
    """Postfix with a recipient limit of 1 delivers a mail to two reply addresses twice, with
    one Message-ID: each delivery is for the seat its envelope names, whatever To: says."""
    first, second = running_game(3, seed="twin"), running_game(3, seed="twin")
    seat, address_1, player, command = first_move(first)
    _, address_2, _, _ = first_move(second)
    raw = compose(f"{address_1}, {address_2}", player, command)
    routing.store(raw, InboundMail.Via.PIPE, envelope_from=player, envelope_to=[address_1])
    routing.store(raw, InboundMail.Via.PIPE, envelope_from=player, envelope_to=[address_2])
    _, again = routing.store(raw, InboundMail.Via.PIPE, envelope_from=player, envelope_to=[address_2.upper()])
    assert not again
    rows = process_all()
    assert [(r.game_id, r.status) for r in rows] == [(first.pk, "applied"), (second.pk, "applied")]
    assert moved(first, seat) and moved(second, seat)


def mail_moves(game, seat: int) -> int:
    return int(game.events.filter(seat=seat, source="mail").count())


@pytest.mark.django_db
def test_a_recipient_outside_the_reply_domain_beside_a_reply_address_moves_once():
    """The other domain's recipient gets no row: one that did found the reply address in the
    envelope and the headers and applied the mail a second time (or answered "not your move")."""
    game = running_game(3, seed="offdomain")
    seat, address, player, command = first_move(game)
    raw = compose(f"{address}, someone@other.example", player, command)
    routing.store(
        raw, InboundMail.Via.SMTP, envelope_from=player, envelope_to=[address, "someone@other.example"]
    )
    rows = process_all()
    assert [(r.recipient, r.status) for r in rows] == [(address.lower(), "applied")]
    assert mail_moves(game, seat) == 1
    assert not OutboundMail.objects.filter(kind="error").exists()


@pytest.mark.django_db
def test_a_row_once_stored_for_another_domain_beside_reply_addresses_moves_nothing():
    game = running_game(3, seed="oldrow")
    seat, address, player, command = first_move(game)
    raw = compose(address, player, command)
    row = InboundMail.objects.create(
        message_id="old@player.test",
        recipient="someone@other.example",
        raw=raw,
        size=len(raw),
        via=InboundMail.Via.SMTP,
        envelope_from=player,
        envelope_to=f"{address}\nsomeone@other.example",
    )
    assert routing.process(row.pk) == InboundMail.Status.UNKNOWN
    assert mail_moves(game, seat) == 0


@pytest.mark.django_db
def test_one_envelope_with_two_games_reply_addresses_moves_once_in_each():
    first, second = running_game(3, seed="twin"), running_game(3, seed="twin")
    seat, address_1, player, command = first_move(first)
    _, address_2, _, _ = first_move(second)
    raw = compose(f"{address_1}, {address_2}, someone@other.example", player, command)
    envelope = [address_1, "someone@other.example", address_2]
    routing.store(raw, InboundMail.Via.SMTP, envelope_from=player, envelope_to=envelope)
    rows = process_all()
    assert sorted((r.game_id, r.status) for r in rows) == [(first.pk, "applied"), (second.pk, "applied")]
    assert mail_moves(first, seat) == 1 and mail_moves(second, seat) == 1
    assert not OutboundMail.objects.filter(kind="error").exists()


@pytest.mark.django_db
def test_the_envelope_recipient_wins_over_the_to_header():
    first, second = running_game(3, seed="twin"), running_game(3, seed="twin")
    seat, address_1, player, command = first_move(first)
    _, address_2, _, _ = first_move(second)
    raw = compose(address_1, player, command)  # the header names the first game only
    row, _ = routing.store(raw, InboundMail.Via.SMTP, envelope_from=player, envelope_to=[address_2])
    routing.process(row.pk)
    assert InboundMail.objects.get(pk=row.pk).game_id == second.pk
    assert moved(second, seat) and not moved(first, seat)


@pytest.mark.django_db
def test_a_blind_copy_to_the_service_address_moves_nothing():
    game = running_game(3, seed="bcc")
    seat, address, player, command = first_move(game)
    row, _ = routing.store(
        compose(address, player, command), InboundMail.Via.SMTP, envelope_to=[tokens.service_address()]
    )
    routing.process(row.pk)
    assert InboundMail.objects.get(pk=row.pk).status == InboundMail.Status.UNKNOWN
    assert not moved(game, seat)


@pytest.mark.django_db
def test_without_an_envelope_the_headers_name_the_seat():
    game = running_game(3, seed="headers")
    _, address, player, command = first_move(game)
    row, _ = routing.store(compose(address, player, command), InboundMail.Via.PIPE)
    routing.process(row.pk)
    assert InboundMail.objects.get(pk=row.pk).status == InboundMail.Status.APPLIED


# --- the null sender ------------------------------------------------------------------------------


def answers() -> int:
    return OutboundMail.objects.filter(key__startswith="in").count()


@pytest.mark.django_db
@pytest.mark.parametrize("sender", ["", "<>", "MAILER-DAEMON"])
def test_the_pipe_never_answers_the_null_sender(monkeypatch, sender):
    game = running_game(3, seed="null")
    _, address, player, _ = first_move(game)
    raw = compose(address, player, "help")  # would be answered from anyone else
    assert run_pipe(monkeypatch, raw, f"--sender={sender}", "--recipient", address) == 0
    [row] = process_all()
    assert (row.envelope_from, row.status) == ("<>", InboundMail.Status.IGNORED)
    assert answers() == 0


@pytest.mark.django_db
def test_the_smtp_listener_never_answers_the_null_sender(monkeypatch):
    # the handler runs in this thread here: it must not close the test's own connection
    monkeypatch.setattr("notifications.inbound.smtp.close_old_connections", lambda: None)
    game = running_game(3, seed="null-smtp")
    _, address, player, _ = first_move(game)
    envelope = Envelope()
    envelope.mail_from = "<>"  # what aiosmtpd makes of MAIL FROM:<>
    envelope.rcpt_tos = [address]
    envelope.original_content = compose(address, player, "help")
    reply = async_to_sync(InboundHandler().handle_DATA)(None, None, envelope)
    assert reply.startswith("250")
    [row] = process_all()
    assert row.status == InboundMail.Status.IGNORED and answers() == 0


@pytest.mark.django_db
def test_the_smtp_listener_applies_one_mail_to_two_games_once_in_each(monkeypatch):
    monkeypatch.setattr("notifications.inbound.smtp.close_old_connections", lambda: None)
    first, second = running_game(3, seed="twin"), running_game(3, seed="twin")
    seat, address_1, player, command = first_move(first)
    _, address_2, _, _ = first_move(second)
    envelope = Envelope()
    envelope.mail_from = player
    envelope.rcpt_tos = [address_1, address_2]
    envelope.original_content = compose(f"{address_1}, {address_2}", player, command)
    assert async_to_sync(InboundHandler().handle_DATA)(None, None, envelope).startswith("250")
    rows = process_all()
    assert [(r.game_id, r.status) for r in rows] == [(first.pk, "applied"), (second.pk, "applied")]
    assert moved(first, seat) and moved(second, seat)


@pytest.mark.django_db
def test_a_sender_given_is_answered_as_before(monkeypatch):
    game = running_game(3, seed="help")
    _, address, player, _ = first_move(game)
    assert (
        run_pipe(monkeypatch, compose(address, player, "help"), "--sender", player, "--recipient", address)
        == 0
    )
    [row] = process_all()
    assert row.status == InboundMail.Status.ANSWERED and answers() == 1


# --- mails without a Message-ID -------------------------------------------------------------------


def without_message_id(body: str) -> bytes:
    raw = compose("play+abc@lotus.test", "ada@example.org", body)
    return b"\n".join(line for line in raw.split(b"\n") if not line.lower().startswith(b"message-id"))


def test_a_mail_without_message_id_retried_through_other_relays_has_one_digest():
    raw = without_message_id("pass")
    relayed = (
        b"Return-Path: <ada@example.org>\r\n"
        b"Received: from mx2.example.net by mx.lotus.test; Mon, 23 Nov 2026 10:00:00 +0000\r\n"
        b"Received: from laptop\r\n  by mx2.example.net; Mon, 23 Nov 2026 09:59:59 +0000\r\n"
        b"DKIM-Signature: v=1; a=rsa-sha256; d=example.org;\r\n\tb=abc\r\n"
        b"ARC-Seal: i=1; a=rsa-sha256; cv=none\r\n"
        b"ARC-Message-Signature: i=1\r\n"
        b"Authentication-Results: mx.lotus.test; spf=pass\r\n"
        b"X-Received: by 2002:a17 with SMTP id x\r\n"
        b"Delivered-To: play+abc@lotus.test\r\n"
        b"X-Original-To: play+abc@lotus.test\r\n" + raw.replace(b"\n", b"\r\n")
    )
    assert routing.message_id_of(raw).endswith("@no-message-id")
    assert routing.message_id_of(relayed) == routing.message_id_of(raw)
    assert routing.message_id_of(without_message_id("bid 3")) != routing.message_id_of(raw)
    subject_changed = raw.replace(b"Subject: Re: your move", b"Subject: Re: your move!")
    assert routing.message_id_of(subject_changed) != routing.message_id_of(raw)


@pytest.mark.django_db
def test_a_relays_retry_of_a_mail_without_message_id_is_processed_once():
    game = running_game(3, seed="no-id")
    _, address, player, command = first_move(game)
    raw = b"\n".join(
        line for line in compose(address, player, command).split(b"\n") if not line.startswith(b"Message-ID")
    )
    routing.store(raw, InboundMail.Via.PIPE, envelope_to=[address])
    retried = b"Received: from relay.example.net\n by mx.lotus.test; Mon, 23 Nov 2026 10:05:00 +0000\n" + raw
    _, created = routing.store(retried, InboundMail.Via.PIPE, envelope_to=[address])
    assert not created
    assert [r.status for r in process_all()] == [InboundMail.Status.APPLIED]


# --- exit 75 with one line, whatever fails before the mail is stored ------------------------------


def pipe_process(
    env: dict[str, str], *args: str, raw: bytes = b"From: a@b\n\nx\n"
) -> subprocess.CompletedProcess[bytes]:
    keep = {k: v for k, v in os.environ.items() if k in ("PATH", "HOME", "LANG")}
    return subprocess.run(
        [sys.executable, str(ROOT / "manage.py"), "receive_email", *args],
        input=raw,
        capture_output=True,
        env={**keep, **env},
        timeout=60,
        cwd="/",
    )


def one_temporary_failure(result: subprocess.CompletedProcess[bytes], kind: str, *hidden: str) -> None:
    """Exit 75 and, on stderr (the deferral reason Postfix finally puts in the player's bounce),
    the one generic line naming the error's type: nothing of what the error says."""
    lines = result.stderr.decode().splitlines()
    assert result.returncode == 75, result.stderr.decode()
    assert lines == [f"receive_email: temporary failure ({kind}); the mail stays queued"], lines
    assert not [h for h in hidden if h in result.stderr.decode()]


def test_a_settings_error_is_a_temporary_failure_in_one_line():
    result = pipe_process({"DEBUG": "false"}, "--recipient", "play+x@lotus.test")
    one_temporary_failure(result, "ImproperlyConfigured", "SECRET_KEY")


def test_an_import_error_is_a_temporary_failure_in_one_line(tmp_path):
    broken = tmp_path / "django"
    broken.mkdir()
    (broken / "__init__.py").write_text("raise ImportError('django is broken here')\n")
    result = pipe_process({"PYTHONPATH": str(tmp_path)}, "--recipient", "play+x@lotus.test")
    one_temporary_failure(result, "ImportError", "broken", str(tmp_path))


def test_a_database_that_does_not_answer_is_a_temporary_failure_in_one_line(tmp_path):
    url = f"sqlite:///{tmp_path}/missing/folder/db.sqlite3"
    result = pipe_process({"DATABASE_URL": url}, "--sender", "a@b", "--recipient", "play+secret@lotus.test")
    one_temporary_failure(result, "OperationalError", "unable to open", str(tmp_path))


def test_arguments_it_cannot_read_are_a_temporary_failure_not_a_bounce():
    result = pipe_process({}, "--recipient")
    one_temporary_failure(result, "ValueError", "--recipient")


def test_the_pipe_imports_nothing_of_django_before_its_try():
    """Its shared helper (notifications.services.redact.one_line) included: a broken Django must still
    end as exit 75 in one line."""
    code = (
        "import sys, notifications.inbound.pipe; "
        "print(sorted(m for m in sys.modules if m.startswith('django')))"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, cwd=ROOT, timeout=60)
    assert result.stdout.decode().strip() == "[]", result.stderr.decode()


TOKEN = "abcdefghijklmnopqrstuvwxyz"  # 26 base32 letters: the shape of a reply token
PSYCOPG = (
    'connection failed: connection to server at "db.internal" (10.0.0.5), port 5433 failed: '
    f'FATAL:  password authentication failed for user "whitelotus"\nfor play+{TOKEN}@lotus.test'
)


@pytest.fixture
def mail_log(monkeypatch) -> list[str]:
    lines: list[str] = []
    monkeypatch.setattr(pipe, "to_the_log", lines.append)
    return lines


@pytest.mark.django_db
def test_a_failure_storing_the_mail_tells_the_sender_its_type_and_the_log_its_details(
    monkeypatch, capsys, mail_log
):
    from django.db import OperationalError

    def database_away(*args: object) -> None:
        raise OperationalError(PSYCOPG)

    monkeypatch.setattr("notifications.inbound.routing.receive", database_away)
    assert run_pipe(monkeypatch, b"From: a@b\n\nx\n", f"--recipient=play+{TOKEN}@lotus.test") == 75
    assert (
        capsys.readouterr().err
        == "receive_email: temporary failure (OperationalError); the mail stays queued\n"
    )
    [line] = mail_log
    assert "db.internal" in line and 'user "whitelotus"' in line and "\n" not in line
    assert TOKEN not in line and "+[token]@lotus.test" in line


def test_webhooks_and_the_pipe_log_errors_by_one_rule():
    from notifications.management.commands import replay_webhooks
    from notifications.services.redact import one_line

    assert urls.one_line is replay_webhooks.one_line is pipe.one_line is one_line
    assert one_line(RuntimeError(PSYCOPG)).startswith("RuntimeError: connection failed")
    assert TOKEN not in one_line(RuntimeError(PSYCOPG))


# --- manage.py receive_email through call_command: the pipe's own code path ----------------------


@pytest.mark.django_db
def test_the_command_stores_through_the_pipe(monkeypatch):
    game = running_game(3, seed="command")
    seat, address, player, command = first_move(game)
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(compose(address, player, command))))
    call_command(
        "receive_email", f"--sender={player}", f"--recipient={address}", verbosity=2, stdout=io.StringIO()
    )
    assert [r.status for r in process_all()] == [InboundMail.Status.APPLIED]
    assert moved(game, seat)


@pytest.mark.django_db
def test_the_command_fails_as_the_pipe_does(monkeypatch, mail_log):
    def database_away(*args: object) -> None:
        raise OSError("/srv/whitelotus/secret/path")

    monkeypatch.setattr("notifications.inbound.routing.receive", database_away)
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(b"From: a@b\n\nx\n")))
    err = io.StringIO()
    with pytest.raises(SystemExit) as exited:
        call_command("receive_email", "--recipient=play+x@lotus.test", stderr=err)
    assert exited.value.code == 75
    assert err.getvalue() == "receive_email: temporary failure (OSError); the mail stays queued\n"
    assert "/srv/whitelotus/secret/path" in mail_log[0]


# --- the snippet's own command line, as Postfix's pipe(8) expands it ------------------------------


def snippet_argv(sender: str, recipients: list[str]) -> list[str]:
    """The arguments after ``receive_email`` in deploy/postfix/whitelotus.cf's ``argv=``, expanded
    as pipe(8) does: an argument containing ${recipient} becomes one argument per recipient."""
    text = (ROOT / "deploy" / "postfix" / "whitelotus.cf").read_text()
    words = text.partition("argv=")[2].split()
    argv = []
    for word in words[words.index("receive_email") + 1 :]:
        if "${recipient}" in word:
            argv += [word.replace("${recipient}", r) for r in recipients]
        else:
            argv.append(word.replace("${sender}", sender))
    return argv


@pytest.mark.django_db
def test_a_recipient_beginning_with_a_dash_is_stored_not_retried(monkeypatch):
    """argparse reads a separate "-x@…" as an option: exit 75, retried for the queue's lifetime."""
    raw = compose("-x@lotus.test", "stranger@example.net", "hello")
    argv = snippet_argv("-s@example.net", ["-x@lotus.test"])
    assert run_pipe(monkeypatch, raw, *argv) == 0
    [row] = InboundMail.objects.all()
    assert (row.recipient, row.envelope_from) == ("-x@lotus.test", "-s@example.net")


@pytest.mark.django_db
def test_the_snippets_command_line_with_two_recipients_moves_in_both_games(monkeypatch):
    first, second = running_game(3, seed="twin"), running_game(3, seed="twin")
    seat, address_1, player, command = first_move(first)
    _, address_2, _, _ = first_move(second)
    raw = compose(f"{address_1}, {address_2}", player, command)
    assert run_pipe(monkeypatch, raw, *snippet_argv(player, [address_1, address_2])) == 0
    rows = process_all()
    assert {r.status for r in rows} == {InboundMail.Status.APPLIED} and len(rows) == 2
    assert moved(first, seat) and moved(second, seat)
