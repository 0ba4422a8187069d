"""Postfix as deploy/README.md says, proved with a real one: a throwaway Postfix instance on
loopback (its own configuration, queue and data directories; the system's /etc/postfix and
port 25 are never touched) configured by running deploy/README.md's own commands, which append
deploy/postfix/whitelotus.cf (the very lines the README shows), with the service's paths and
user then replaced by this checkout's and ``nobody``.
Real mails go in by SMTP from swaks and must come out as moves in the test database; with
the database unreachable Postfix must defer, and deliver once when it is back.

Needs root (Postfix's master runs as root), Debian's ``postfix`` and ``swaks`` (.ci/run
installs them) and Postgres (the pipe runs in processes of its own, which see committed data
only); in CI a missing piece fails the test instead of skipping it."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import sysconfig
import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from email.message import EmailMessage
from pathlib import Path
from typing import Any

import pytest

from games import services
from games.models import Game
from games.rules import whitelotus as wl
from notifications.models import InboundMail, OutboundMail
from notifications.services import tokens
from tests.conftest import IN_CI
from tests.games.factories import running_game, whose_turn
from tests.notifications.helpers import database_url
from tests.notifications.mailbox import free_port
from tests.waiting import wait_for

ROOT = Path(__file__).resolve().parents[2]
SNIPPET = ROOT / "deploy" / "postfix" / "whitelotus.cf"
README = ROOT / "deploy" / "README.md"
SBIN = os.pathsep.join([os.environ.get("PATH", ""), "/usr/sbin", "/sbin"])
PIPE_USER = "nobody"  # any unprivileged account: the service's own user is "whitelotus"

# the services of a Postfix that receives by SMTP and delivers by pipe, none chrooted
MASTER_CF = """\
{port}    inet  n       -       n       -       -       smtpd
pickup    unix  n       -       n       60      1       pickup
cleanup   unix  n       -       n       -       0       cleanup
qmgr      unix  n       -       n       300     1       qmgr
rewrite   unix  -       -       n       -       -       trivial-rewrite
bounce    unix  -       -       n       -       0       bounce
defer     unix  -       -       n       -       0       bounce
trace     unix  -       -       n       -       0       bounce
verify    unix  -       -       n       -       1       verify
flush     unix  n       -       n       1000?   0       flush
proxymap  unix  -       -       n       -       -       proxymap
smtp      unix  -       -       n       -       -       smtp
relay     unix  -       -       n       -       -       smtp
showq     unix  n       -       n       -       -       showq
error     unix  -       -       n       -       -       error
retry     unix  -       -       n       -       -       error
discard   unix  -       -       n       -       -       discard
local     unix  -       n       n       -       -       local
anvil     unix  -       -       n       -       1       anvil
scache    unix  -       -       n       -       1       scache
postlog   unix-dgram n  -       n       -       1       postlogd
"""
MAIN_CF = """\
compatibility_level = 3.6
queue_directory = {root}/queue
data_directory = {root}/data
maillog_file = {root}/maillog
maillog_file_prefixes = {root}
mail_owner = postfix
setgid_group = postdrop
myhostname = mx.postfix-test.invalid
mydomain = postfix-test.invalid
mydestination =
inet_interfaces = loopback-only
inet_protocols = ipv4
# loopback is NOT a trusted network here: only relay_domains lets the replies in
mynetworks = 192.0.2.0/24
alias_maps =
alias_database =
local_recipient_maps =
biff = no
smtputf8_enable = no
# a deferred mail waits for `postqueue -f`, not for a retry of its own
minimal_backoff_time = 300s
maximal_backoff_time = 600s
"""


def need(condition: bool, why: str) -> None:
    if not condition:
        if IN_CI:
            pytest.fail(f"CI must run the Postfix test: {why}")
        pytest.skip(why)


def tool(name: str) -> str:
    found = shutil.which(name, path=SBIN)
    need(found is not None, f"{name} is missing (apt-get install postfix swaks)")
    assert found is not None
    return found


def readme_steps(conf: Path, app: Path) -> None:
    """Run deploy/README.md's step 3 as it is written (``sed ... >> /etc/postfix/main.cf`` and
    the rest), on this instance's configuration files instead of /etc/postfix's."""
    text = README.read_text()
    begin = text.index("   cd /srv/whitelotus/app/deploy/postfix")
    block = text[begin : text.index("   postfix check && ", begin)]
    script = "\n".join(line[3:] for line in block.splitlines())
    for old, new in [
        ("cd /srv/whitelotus/app/deploy/postfix", f"cd {app}/deploy/postfix"),
        ("DOMAIN=lotus.example.org", "DOMAIN=lotus.test"),
        ("/etc/postfix/", f"{conf}/"),
    ]:
        assert old in script, old
        script = script.replace(old, new)
    subprocess.run(["sh", "-ec", script], check=True, timeout=30)


@dataclass(frozen=True)
class Layout:
    """Where the pipe user finds the service: its Python, the packages, the checkout."""

    python: str
    pythonpath: str  # '' when the Python is the venv's own
    app: Path


def reachable(path: Path) -> bool:
    """Whether an unprivileged user may read ``path`` (and search every folder on the way),
    both as named and behind its symlinks."""
    for named in {path.absolute(), path.resolve()}:
        if not all(p.stat().st_mode & 0o001 for p in named.parents) or not named.stat().st_mode & 0o004:
            return False
    return True


def linked_copy(source: Path, into: Path, *ignored: str) -> Path:
    """A copy of ``source`` inside ``into`` made of hard links (fast), or of copies across file
    systems: for a checkout or venv in a folder only root may enter (e.g. a mkdtemp clone)."""

    def link(src: str, dst: str) -> None:
        try:
            os.link(src, dst)
        except OSError:
            shutil.copy2(src, dst)

    target = into / source.name
    shutil.copytree(
        source, target, symlinks=True, copy_function=link, ignore=shutil.ignore_patterns(*ignored)
    )
    target.chmod(0o755)
    return target


def layout(scratch: Path) -> Layout:
    """This checkout as the pipe user can run it: the venv's Python when others may run it;
    else (a venv made from a Python under /root, as on these machines) Debian's python3 of the
    same version with the venv's packages on its path; copies where a folder is closed."""
    python, pythonpath = sys.executable, ""
    if not reachable(Path(sys.executable)):
        system = Path(f"/usr/bin/python{sys.version_info.major}.{sys.version_info.minor}")
        need(system.exists(), f"the pipe user cannot run {sys.executable} and there is no {system}")
        packages = Path(sysconfig.get_paths()["purelib"])
        python = str(system)
        pythonpath = str(packages if reachable(packages) else linked_copy(packages, scratch, "__pycache__"))
    app = ROOT
    if not (reachable(ROOT / "manage.py") and reachable(ROOT / "deploy" / "postfix" / "whitelotus-pipe")):
        app = linked_copy(ROOT, scratch, ".git", ".venv", ".wt", ".local", "artifacts", "*.sqlite3*")
    return Layout(python, pythonpath, app)


def configured(master_cf: str, env_file: Path, where: Layout) -> str:
    """master.cf with the service's paths and user replaced by this checkout's."""
    for old, new in [
        ("/srv/whitelotus/app/.venv/bin/python", where.python),
        ("/srv/whitelotus/app", str(where.app)),
        ("/srv/whitelotus/.env", str(env_file)),
        ("user=whitelotus", f"user={PIPE_USER}"),
    ]:
        assert old in master_cf, old
        master_cf = master_cf.replace(old, new)
    return master_cf


def write_env(path: Path, url: str, where: Layout) -> None:
    path.write_text(
        "# the service's environment, as in deploy/.env.example\n"
        "DEBUG=false\nSECRET_KEY=postfix-test-secret\nALLOWED_HOSTS=localhost\n"
        f"DATABASE_URL={url}\nDB_CONN_MAX_AGE=0\n"
        "REPLY_DOMAIN=lotus.test\nREPLY_PREFIX=play\nMESSAGE_ID_DOMAIN=lotus.test\n"
        'DEFAULT_FROM_EMAIL="White Lotus <lotus@lotus.test>"\n'
        "LOCAL_MAILBOX=false\nEMAIL_BACKEND=django.core.mail.backends.locmem.EmailBackend\n"
        "# no worker here: the pipe processes what it stores itself\n"
        "CELERY_TASK_ALWAYS_EAGER=true\nCELERY_BROKER_URL=memory://localhost\nLOG_LEVEL=WARNING\n"
        + (f"PYTHONPATH={where.pythonpath}\n" if where.pythonpath else "")
    )
    path.chmod(0o644)


@contextmanager
def throwaway_postfix(env_file: Path, where: Layout) -> Iterator[tuple[Path, int]]:
    postfix = tool("postfix")
    need(os.geteuid() == 0, "Postfix's master must start as root")
    root = Path(tempfile.mkdtemp(prefix="wl-postfix-"))
    root.chmod(0o755)
    conf = root / "etc"
    conf.mkdir()
    (root / "queue").mkdir()
    port = free_port()
    (conf / "main.cf").write_text(MAIN_CF.format(root=root))
    (conf / "master.cf").write_text(MASTER_CF.format(port=port))
    readme_steps(conf, where.app)
    main_cf = (conf / "main.cf").read_text()
    assert "relay_domains = lotus.test" in main_cf and "inline:{ lotus.test=whitelotus: }" in main_cf
    (conf / "master.cf").write_text(configured((conf / "master.cf").read_text(), env_file, where))
    try:
        started = subprocess.run(
            [postfix, "-c", str(conf), "start"], capture_output=True, text=True, timeout=60
        )
        assert started.returncode == 0, _log(root)
        wait_for(lambda: listening(port), "Postfix to listen")
        yield conf, port
    finally:
        subprocess.run([postfix, "-c", str(conf), "stop"], capture_output=True, timeout=60)
        print(_log(root))  # shown when the test fails: what Postfix said
        shutil.rmtree(root, ignore_errors=True)


def _log(root: Path) -> str:
    log = root / "maillog"
    return log.read_text(errors="replace")[-20000:] if log.exists() else "(Postfix wrote no log)"


def listening(port: int) -> bool:
    import socket

    with socket.socket() as probe:
        return probe.connect_ex(("127.0.0.1", port)) == 0


def swaks(port: int, *args: str, data: bytes | None = None) -> subprocess.CompletedProcess[bytes]:
    command = [tool("swaks"), "--server", "127.0.0.1", "--port", str(port), "--silent", "2", *args]
    if data is not None:
        command += ["--data", "-"]
    return subprocess.run(command, input=data, capture_output=True, timeout=30)


def queue(conf: Path) -> list[dict[str, Any]]:
    listing = subprocess.run(
        [tool("postqueue"), "-c", str(conf), "-j"], capture_output=True, text=True, timeout=30, check=True
    )
    return [json.loads(line) for line in listing.stdout.splitlines() if line.strip()]


def rows(message_id: str) -> list[InboundMail]:
    return list(InboundMail.objects.filter(message_id=message_id).order_by("pk"))


def processed(message_id: str, count: int = 1) -> Callable[[], bool]:
    def check() -> bool:
        found = rows(message_id)
        return len(found) >= count and all(r.status != InboundMail.Status.NEW for r in found)

    return check


def move_of(game: Game) -> tuple[int, str, str, str]:
    seat = whose_turn(game)
    holder = game.seats.get(position=seat)
    state = services.head_state(game)
    command = wl.Notation.format_command(state, wl.legal(state, seat)[0])
    return seat, tokens.reply_address(holder), holder.player.email, command


def client_reply(to: str, sender: str, command: str, message_id: str) -> bytes:
    """A reply as Thunderbird writes it: format=flowed, an attribution, the original quoted
    with soft line breaks (a space before the line end) inside the quote."""
    message = EmailMessage()
    message["From"] = f"Ada Lovelace <{sender}>"
    message["To"] = f"White Lotus <{to}>"
    message["Subject"] = "Re: White Lotus: your move"
    message["Message-ID"] = f"<{message_id}>"
    message["User-Agent"] = "Mozilla/5.0 (X11; Linux x86_64; rv:115.0) Gecko/20100101 Thunderbird/115.3.1"
    body = (
        f"{command}\r\n\r\n"
        "On 23.11.26 10:00, White Lotus wrote:\r\n"
        "> It is your move in game 1. Write one command per line, above the quoted \r\n"
        "> text; what you can do now:\r\n"
        ">\r\n"
        "> pass\r\n"
    )
    message.set_payload(body.encode(), charset="utf-8")
    message.replace_header("Content-Type", 'text/plain; charset="utf-8"; format=flowed')
    return message.as_bytes().replace(b"\r\n", b"\n").replace(b"\n", b"\r\n")


def test_the_readme_shows_the_postfix_snippet_the_test_uses():
    shown = "\n".join(line[3:] for line in README.read_text().split("\n"))  # the README indents it
    assert SNIPPET.read_text().strip() in shown
    assert os.access(ROOT / "deploy" / "postfix" / "whitelotus-pipe", os.X_OK)


def test_a_postfix_configured_as_documented_delivers_replies_and_defers_while_the_database_is_away(
    postgres_transactional,
):
    tool("swaks")
    tool("postqueue")
    twin_1, twin_2 = running_game(3, seed="pf-twin"), running_game(3, seed="pf-twin")
    client_game, deferred_game = running_game(3, seed="pf-client"), running_game(3, seed="pf-deferred")
    env_dir = Path(tempfile.mkdtemp(prefix="wl-postfix-env-"))
    env_dir.chmod(0o755)
    env_file = env_dir / "whitelotus.env"
    try:
        where = layout(env_dir)
        write_env(env_file, database_url(), where)
        with throwaway_postfix(env_file, where) as (conf, port):
            # not an open relay: another domain is refused
            refused = swaks(port, "--from", "ada@example.org", "--to", "someone@example.com", "--body", "x")
            assert refused.returncode != 0, refused.stdout

            # one mail to two games' reply addresses: delivered twice, one move in each game
            seat, address_1, player, command = move_of(twin_1)
            _, address_2, _, _ = move_of(twin_2)
            sent = swaks(
                port, "--from", player, "--to", f"{address_1},{address_2}",
                "--header", "Message-Id: <twin@player.test>", "--header", "Subject: Re: your move",
                "--body", command,
            )  # fmt: skip
            assert sent.returncode == 0, sent.stderr
            wait_for(processed("twin@player.test", 2), "both deliveries")
            assert {(r.game_id, r.status) for r in rows("twin@player.test")} == {
                (twin_1.pk, InboundMail.Status.APPLIED),
                (twin_2.pk, InboundMail.Status.APPLIED),
            }
            assert [r.via for r in rows("twin@player.test")] == [InboundMail.Via.PIPE] * 2
            for game in (twin_1, twin_2):
                assert game.events.filter(seat=seat, source="mail", command_text=command).count() == 1

            # a reply as a real client writes it: quoted, format=flowed
            seat, address, player, command = move_of(client_game)
            raw = client_reply(address, player, command, "client@player.test")
            sent = swaks(port, "--from", player, "--to", address, data=raw)
            assert sent.returncode == 0, sent.stderr
            wait_for(processed("client@player.test"), "the client's reply")
            [row] = rows("client@player.test")
            assert row.status == InboundMail.Status.APPLIED, row.outcome
            assert client_game.events.filter(seat=seat, source="mail", command_text=command).count() == 1

            # the null sender is stored and never answered, even for "help"
            _, address, player, _ = move_of(client_game)
            sent = swaks(
                port, "--from", "<>", "--to", address, "--header", "From: " + player,
                "--header", "Message-Id: <bounce@player.test>", "--body", "help",
            )  # fmt: skip
            assert sent.returncode == 0, sent.stderr
            wait_for(processed("bounce@player.test"), "the null sender's mail")
            [row] = rows("bounce@player.test")
            assert (row.envelope_from, row.status) == ("<>", InboundMail.Status.IGNORED)
            assert not OutboundMail.objects.filter(key__startswith=f"in{row.pk}:").exists()

            # the database away: Postfix defers (exit 75), nothing is stored, nothing bounced
            write_env(env_file, database_url(port=free_port()), where)
            seat, address, player, command = move_of(deferred_game)
            sent = swaks(
                port, "--from", player, "--to", address,
                "--header", "Message-Id: <later@player.test>", "--body", command,
            )  # fmt: skip
            assert sent.returncode == 0, sent.stderr
            wait_for(lambda: _deferred(conf), "Postfix to defer the mail")
            [entry] = queue(conf)
            reason = entry["recipients"][0]["delay_reason"]
            assert "temporary failure" in reason and "Traceback" not in reason, reason
            # the database's host, port and user are the operator's, not the sender's
            assert reason.strip().endswith(
                "Command output: receive_email: temporary failure (OperationalError); the mail stays queued"
            ), reason
            assert rows("later@player.test") == []
            print("deferred:", reason)

            # back: one flush delivers it, once
            write_env(env_file, database_url(), where)
            subprocess.run([tool("postqueue"), "-c", str(conf), "-f"], check=True, timeout=30)
            wait_for(processed("later@player.test"), "the deferred mail after the flush")
            wait_for(lambda: queue(conf) == [], "an empty queue")
            [row] = rows("later@player.test")
            assert row.status == InboundMail.Status.APPLIED, row.outcome
            assert deferred_game.events.filter(seat=seat, source="mail", command_text=command).count() == 1
    finally:
        shutil.rmtree(env_dir, ignore_errors=True)


def _deferred(conf: Path) -> bool:
    return any(
        entry.get("queue_name") == "deferred" and entry["recipients"][0].get("delay_reason")
        for entry in queue(conf)
    )


WRAPPER = ROOT / "deploy" / "postfix" / "whitelotus-pipe"


def test_the_wrapper_reads_the_env_file_as_systemd_does(tmp_path):
    env_file = tmp_path / "env"
    env_file.write_bytes(
        b"# a comment\n; another\n\nDEBUG=false\n"
        b'DEFAULT_FROM_EMAIL="White Lotus <lotus@lotus.example.org>"\n'
        b"  SPACED = 'two words'  \nEQUALS=a=b\nCRLF=yes\r\nnot a variable\nLAST=no-newline"
    )
    result = subprocess.run(
        [str(WRAPPER), str(env_file), "/usr/bin/env"], capture_output=True, env={}, timeout=30
    )
    assert result.returncode == 0, result.stderr
    seen = dict(line.split("=", 1) for line in result.stdout.decode().splitlines())
    assert seen["DEFAULT_FROM_EMAIL"] == "White Lotus <lotus@lotus.example.org>"
    assert (seen["SPACED"], seen["EQUALS"], seen["CRLF"], seen["LAST"]) == (
        "two words",
        "a=b",
        "yes",
        "no-newline",
    )
    assert seen["DEBUG"] == "false"


@pytest.mark.parametrize(
    ("env_exists", "command", "says"),
    [
        (False, "/usr/bin/env", "cannot read the service's environment file"),
        (True, "/nonexistent/python", "cannot run the service's Python"),
        (True, "/bin/false", "ended with status 1"),
    ],
)
def test_the_wrapper_defers_whatever_fails_in_one_line(tmp_path, env_exists, command, says):
    env_file = tmp_path / "env"
    if env_exists:
        env_file.write_text("DEBUG=false\n")
    result = subprocess.run([str(WRAPPER), str(env_file), command], capture_output=True, env={}, timeout=30)
    assert result.returncode == 75
    [line] = result.stderr.decode().splitlines()
    assert says in line and str(tmp_path) not in line


def test_the_readmes_check_that_the_pipe_user_can_run_the_venv_is_right_as_that_user():
    """deploy/README.md's step 1 check, run as written with ``nobody`` for the service's user
    and this checkout for /srv/whitelotus/app: it passes exactly when an unprivileged user can
    run the venv's Python (issue 29: a venv made from a Python under /root defers every mail
    with "cannot run the service's Python")."""
    need(os.geteuid() == 0, "runuser needs root")
    tool("runuser")
    text = README.read_text()
    begin = text.index("   runuser -u whitelotus -- ")
    lines = [line.strip() for line in text[begin:].split("```", 1)[0].splitlines() if line.strip()]
    assert len(lines) == 2 and "import django" in lines[0] and "manage.py" in lines[1]
    venv_python = ROOT / ".venv" / "bin" / "python"
    need(venv_python.exists(), "no .venv in this checkout")
    for line in lines:
        command = line.replace("-u whitelotus", f"-u {PIPE_USER}").replace("/srv/whitelotus/app", str(ROOT))
        done = subprocess.run(["sh", "-c", command], capture_output=True, text=True, timeout=60)
        if "import django" in line:
            assert (done.returncode == 0) == reachable(venv_python), done.stderr
            if done.returncode != 0:  # the README's explanation names what the pipe would say
                assert "Permission denied" in done.stderr or "cannot" in done.stderr.lower()
        else:
            assert (done.returncode == 0) == reachable(ROOT / "manage.py"), done.stderr
