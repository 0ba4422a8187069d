"""Load and chaos (issue 16): a busy league weekend on the documented deployment, on loopback.

``python -m bench.load`` (needs ``DATABASE_URL=postgres://...``; everything else it starts):

1. a database of its own (``<DATABASE_URL's name>_load``, made anew), N running games (default
   2,000: 4 to 6 players, both White Lotus editions; players sit at several tables);
2. the production shape, each a process of its own: 2 gunicorn workers (the ESP webhook), 3
   Celery workers (``--pool=solo``: one process each, so a kill is a whole worker), one beat,
   ``manage.py smtpd`` (the SMTP listener), a broker of its own (``redis-server``, or with
   ``--broker rabbitmq`` a RabbitMQ node of its own) and an SMTP sink (this module, ``sink``)
   that keeps every mail the service sends as a file;
3. scripted players read their mails from the sink and answer each decision at a target rate
   (default 50 replies/s), half through the SMTP listener and half through Postmark's inbound
   webhook (raw MIME), with duplicates (the same mail again by the other way), stale replies
   (an old answer to an old decision mail, sent again once the seat has a newer one) and
   strangers (a seat's reply address written to from another address) mixed in;
4. chaos meanwhile: ``kill -9`` of a random worker every 20 s (started again at once), one
   broker restart and one sink restart;
5. then the load stops, the service drains (the minute sweeps re-enqueue what the broker
   lost) and the database and the sink are counted: replies, moves applied, mails, lost and
   duplicated moves and mails, every game's log replayed, replies per second sustained,
   p50/p95 from a reply's arrival to the next decision mail's delivery, memory per process.

Lost move: a player's reply that is not applied.  Duplicated move: a reply applied twice, or
a duplicate, stale or stranger's mail applied at all.  Lost mail: an outbox row never
delivered to the sink.  Duplicated mail: one Message-ID delivered twice; sending is at least
once (``notifications.outbound.sending``: a worker killed between the sink's 250 and its commit sends
again), so a duplicate whose first copy arrived within two seconds before a kill is counted
as that and reported apart; any other fails the run.

``--short`` is the CI version (a few hundred replies, one kill, one broker restart, one sink
restart); the exit status is 1 on any loss or unexplained duplication.
"""

from __future__ import annotations

import argparse
import base64
import contextlib
import email
import email.policy
import json
import os
import random
import signal
import smtplib
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
import uuid
from collections import Counter, defaultdict
from collections.abc import Iterator
from dataclasses import dataclass, field
from email.message import EmailMessage
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
PY = sys.executable
BIN = Path(PY).parent
DOMAIN = "lotus.load.invalid"  # the reply domain: nothing leaves loopback
WEBHOOK = ("load", "bench-secret")


# --- settings ---------------------------------------------------------------------------------


@dataclass
class Plan:
    games: int = 2000
    rate: float = 50.0  # replies per second
    duration: float = 300.0  # seconds of load
    kill_every: float = 20.0
    broker: str = "redis"
    drain: float = 360.0  # at most, after the load: the sweeps run every minute
    duplicates: float = 0.03
    stale: float = 0.03
    strangers: float = 0.02
    seed: int = 16
    workers: int = 3
    kills: int | None = None  # at most (the short version: one)
    # the short version: the load goes on past ``duration`` (up to ``longest``) until every kind
    # of reply was sent once, so that a machine slowed to a crawl still runs the whole scenario
    each_kind: bool = False
    longest: float = 0.0

    @classmethod
    def short(cls) -> Plan:
        # few enough games that a seat is asked again within the run even at 1.6 replies/s (a
        # busy CI machine): a stale reply needs a seat put a newer decision since its answer
        return cls(
            games=20,
            rate=20.0,
            duration=40.0,
            kill_every=15.0,
            kills=1,
            drain=300.0,
            each_kind=True,
            longest=240.0,
        )


def parse(argv: list[str]) -> Plan:
    parser = argparse.ArgumentParser(prog="python -m bench.load", description=__doc__.split("\n\n")[0])
    parser.add_argument("--short", action="store_true", help="the CI version: 20 games, 40 s of load")
    parser.add_argument("--games", type=int)
    parser.add_argument("--rate", type=float, help="replies per second")
    parser.add_argument("--duration", type=float, help="seconds of load")
    parser.add_argument("--kill-every", type=float, help="seconds between worker kills")
    parser.add_argument("--broker", choices=("redis", "rabbitmq"), default="redis")
    parser.add_argument("--drain", type=float, help="most seconds to wait for the service to catch up")
    args = parser.parse_args(argv)
    plan = Plan.short() if args.short else Plan()
    for name in ("games", "rate", "duration", "kill_every", "drain"):
        if getattr(args, name) is not None:
            setattr(plan, name, getattr(args, name))
    plan.broker = args.broker
    return plan


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def wait_port(port: int, seconds: float = 30.0) -> None:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        with socket.socket() as s:
            if s.connect_ex(("127.0.0.1", port)) == 0:
                return
        time.sleep(0.1)
    raise RuntimeError(f"nothing answers on 127.0.0.1:{port} after {seconds:.0f} s")


def wait_closed(port: int, seconds: float = 30.0) -> None:
    """Until nothing answers on the port (a stopped broker has let it go)."""
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        with socket.socket() as s:
            if s.connect_ex(("127.0.0.1", port)) != 0:
                return
        time.sleep(0.1)
    raise RuntimeError(f"127.0.0.1:{port} still answers {seconds:.0f} s after its broker was stopped")


# --- processes --------------------------------------------------------------------------------


class Proc:
    """One process of the deployment, started again after a kill."""

    def __init__(self, name: str, argv: list[str], env: dict[str, str], log: Path, port: int | None = None):
        self.name, self.argv, self.env, self.log, self.port = name, argv, env, log, port
        self.popen: subprocess.Popen[bytes] | None = None
        self.rss: list[int] = []  # kB, sampled

    def start(self) -> None:
        out = self.log.open("ab")
        self.popen = subprocess.Popen(
            self.argv, cwd=ROOT, env=self.env, stdout=out, stderr=subprocess.STDOUT, start_new_session=True
        )
        if self.port:
            wait_port(self.port)

    def kill(self, sig: int = signal.SIGKILL) -> None:
        if self.popen is not None and self.popen.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.popen.pid, sig)
            try:
                self.popen.wait(timeout=30)
            except subprocess.TimeoutExpired:
                os.killpg(self.popen.pid, signal.SIGKILL)
                self.popen.wait()

    def pids(self) -> list[int]:
        """The process and its children (gunicorn's workers)."""
        if self.popen is None or self.popen.poll() is not None:
            return []
        out = [self.popen.pid]
        children = Path(f"/proc/{self.popen.pid}/task/{self.popen.pid}/children")
        if children.exists():
            out += [int(p) for p in children.read_text().split()]
        return out

    def sample(self) -> None:
        total = 0
        for pid in self.pids():
            try:
                for line in Path(f"/proc/{pid}/status").read_text().splitlines():
                    if line.startswith("VmRSS:"):
                        total += int(line.split()[1])
            except OSError:
                pass
        if total:
            self.rss.append(total)


class Broker:
    url: str

    def start(self) -> None: ...

    def stop(self) -> None: ...

    def accepts(self) -> bool:
        """Whether the broker takes a client now: a whole protocol handshake, not an open port
        (a RabbitMQ node opens its port seconds before it lets anyone in)."""
        from kombu import Connection

        try:
            with Connection(self.url, connect_timeout=2) as conn:
                conn.ensure_connection(max_retries=0)
                conn.default_channel  # noqa: B018  (the channel opens the AMQP session)
            return True
        except Exception:
            return False

    def restart(self, down: float) -> float:
        """Stop the broker, keep it down ``down`` seconds, start it and wait until it accepts
        clients again; the real time it was unavailable, in seconds."""
        stopped = time.time()
        self.stop()
        time.sleep(down)
        self.start()
        end = time.monotonic() + 120
        while not self.accepts():
            if time.monotonic() > end:
                raise RuntimeError(
                    f"the restarted broker takes no client 120 s after it was started: {self.url}"
                )
            time.sleep(0.2)
        return time.time() - stopped


class RedisBroker(Broker):
    def __init__(self, work: Path):
        self.port = free_port()
        self.url = f"redis://127.0.0.1:{self.port}/0"
        # as deploy/compose.yaml runs it: with its append-only file, a restart keeps the queue
        argv = ["redis-server", "--port", str(self.port), "--bind", "127.0.0.1", "--save", ""]
        argv += ["--appendonly", "yes"]
        self.proc = Proc(
            "redis", [*argv, "--dir", str(work)], dict(os.environ), work / "redis.log", self.port
        )

    def start(self) -> None:
        self.proc.start()

    def stop(self) -> None:
        self.proc.kill(signal.SIGTERM)


class RabbitBroker(Broker):
    """A RabbitMQ node of the bench's own (its port, its files), as Debian's package runs it."""

    def __init__(self, work: Path):
        self.port = free_port()
        self.url = f"amqp://guest:guest@127.0.0.1:{self.port}//"
        home = work / "rabbitmq"
        work.chmod(0o755)  # Debian's rabbitmq-server runs as the rabbitmq user
        for sub in ("mnesia", "log"):
            (home / sub).mkdir(parents=True, exist_ok=True)
        (home / "enabled_plugins").write_text("[].\n")
        (home / "rabbitmq.conf").write_text(f"listeners.tcp.local = 127.0.0.1:{self.port}\n")
        subprocess.run(["chown", "-R", "rabbitmq:rabbitmq", str(home)], check=False)
        env = dict(os.environ)
        env.update(
            HOME=str(home),
            RABBITMQ_NODENAME=f"wlload{self.port}@localhost",
            RABBITMQ_NODE_PORT=str(self.port),
            RABBITMQ_DIST_PORT=str(free_port()),
            RABBITMQ_CONFIG_FILE=str(home / "rabbitmq.conf"),
            RABBITMQ_MNESIA_BASE=str(home / "mnesia"),
            RABBITMQ_LOG_BASE=str(home / "log"),
            RABBITMQ_ENABLED_PLUGINS_FILE=str(home / "enabled_plugins"),
            RABBITMQ_FEATURE_FLAGS_FILE=str(home / "feature_flags"),
            RABBITMQ_PID_FILE=str(home / "pid"),
            ERL_CRASH_DUMP=str(home / "erl_crash.dump"),
        )
        self.node = env["RABBITMQ_NODENAME"]
        self.proc = Proc("rabbitmq", ["rabbitmq-server"], env, work / "rabbitmq.log")

    def start(self) -> None:
        self.proc.start()
        wait_port(self.port, 90)

    def stop(self) -> None:
        """The node stopped for good.  Debian's ``rabbitmq-server`` runs it as the rabbitmq user
        in a session of its own, which a signal to the wrapper's group does not reach: left
        running, the node kept its port, so a "restart" found the old node still there (the
        new one died on its taken distribution port) and every run left a node behind.  The
        node's processes are found by the node name in their environment."""
        self.proc.kill(signal.SIGTERM)
        pids = self._node_pids()
        for pid in pids:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGTERM)
        deadline = time.monotonic() + 30
        while pids and time.monotonic() < deadline:
            pids = [p for p in pids if Path(f"/proc/{p}").exists()]
            time.sleep(0.2)
        for pid in pids:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
        wait_closed(self.port, 30)

    def _node_pids(self) -> list[int]:
        wanted = f"RABBITMQ_NODENAME={self.node}".encode()
        found = []
        for entry in Path("/proc").iterdir():
            if entry.name.isdigit():
                with contextlib.suppress(OSError):
                    if wanted in (entry / "environ").read_bytes().split(b"\0"):
                        found.append(int(entry.name))
        return found


# --- the SMTP sink ----------------------------------------------------------------------------


def sink(port: int, spool: Path) -> None:
    """``python -m bench.load sink PORT SPOOL``: every mail received becomes a file in SPOOL
    named by its arrival time (written aside, then renamed: a reader never sees half a mail)."""
    from aiosmtpd.controller import Controller

    (spool / "tmp").mkdir(parents=True, exist_ok=True)
    counter = iter(range(1 << 62))

    class Keep:
        async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
            name = f"{time.time_ns()}-{os.getpid()}-{next(counter)}.eml"
            data = envelope.original_content or envelope.content
            tmp = spool / "tmp" / name
            tmp.write_bytes(b"X-Sink-To: " + ",".join(envelope.rcpt_tos).encode() + b"\r\n" + data)
            tmp.rename(spool / name)
            return "250 kept"

    controller = Controller(Keep(), hostname="127.0.0.1", port=port)
    controller.start()
    stop = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: stop.set())
    stop.wait()
    controller.stop()


@dataclass
class Received:
    message_id: str
    to: str
    reply_to: str
    subject: str
    arrived: float  # epoch seconds


def read_spool(spool: Path, seen: set[str]) -> list[Received]:
    out = []
    for path in sorted(spool.glob("*.eml")):
        if path.name in seen:
            continue
        seen.add(path.name)
        raw = path.read_bytes()
        head = email.message_from_bytes(
            raw.split(b"\r\n\r\n", 1)[0] + b"\r\n\r\n", policy=email.policy.default
        )
        out.append(
            Received(
                message_id=str(head.get("Message-ID", "")).strip().strip("<>"),
                to=str(head.get("X-Sink-To", "")),
                reply_to=str(head.get("Reply-To", "")),
                subject=str(head.get("Subject", "")),
                arrived=int(path.name.split("-", 1)[0]) / 1e9,
            )
        )
    return out


# --- the players ------------------------------------------------------------------------------


@dataclass
class Reply:
    kind: str  # player, duplicate, stale, stranger
    message_id: str
    game: int
    seat: int
    route: str  # smtp, webhook
    sent: float
    answers: str = ""  # the Message-ID of the mail it answers
    raw: bytes = b""
    ok: bool = True


@dataclass
class Players:
    """The scripted players: each seat answers the latest decision mail its player got, with
    the rules' default move for the head it reads (a player who knows the rules), by SMTP or
    by the webhook in turn."""

    plan: Plan
    smtp_port: int
    web_port: int
    spool: Path
    rng: random.Random
    replies: list[Reply] = field(default_factory=list)
    errors: Counter[str] = field(default_factory=Counter)
    latest: dict[tuple[int, int], Received] = field(default_factory=dict)
    answered: dict[tuple[int, int], str] = field(default_factory=dict)  # seat -> mail answered
    past: list[Reply] = field(default_factory=list)  # the players' replies, for stale ones
    seen: set[str] = field(default_factory=set)
    inflight: dict[tuple[int, int], str] = field(default_factory=dict)  # seat -> its reply not yet taken
    busy: set[tuple[int, int]] = field(default_factory=set)  # seats a sender is answering for
    count: Iterator[int] = field(default_factory=lambda: iter(range(1 << 62)))
    stale_due: bool = False
    seats_by_address: dict[str, tuple[int, int, str]] = field(default_factory=dict)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def read(self) -> None:
        from notifications.services import tokens

        for mail in read_spool(self.spool, self.seen):
            address = mail.reply_to.strip().strip("<>").split("<")[-1].strip(">")
            if "+" not in address:
                continue
            if address not in self.seats_by_address:
                token = tokens.find([address])
                if token is None:
                    continue
                self.seats_by_address[address] = (token.seat.game_id, token.seat.position, token.player.email)
            game, seat, _ = self.seats_by_address[address]
            with self.lock:
                self.latest[(game, seat)] = mail

    def due(self) -> list[tuple[int, int]]:
        with self.lock:
            return [key for key, mail in self.latest.items() if self.answered.get(key) != mail.message_id]

    def answer(self, key: tuple[int, int]) -> bool:
        """One player's reply to the latest mail of a seat that must decide; False if it need not
        (or another sender is answering for that seat now)."""
        with self.lock:
            if key in self.busy:
                return False
            self.busy.add(key)
        try:
            return self._answer(key)
        finally:
            with self.lock:
                self.busy.discard(key)

    def _answer(self, key: tuple[int, int]) -> bool:
        from games import services
        from games.models import Game, PendingDecision
        from notifications.models import InboundMail, OutboundMail

        with self.lock:
            mail = self.latest[key]
        if key in self.inflight:  # the player's last reply is not taken yet: no second answer
            mine = InboundMail.objects.filter(message_id=self.inflight[key]).exclude(
                status=InboundMail.Status.NEW
            )
            if not mine.exists():
                return False
            self.inflight.pop(key, None)
        game = Game.objects.get(pk=key[0])
        if game.status != Game.Status.RUNNING:
            self.answered[key] = mail.message_id
            return False
        rules = services.rules_of(game)
        state = services.head_state(game)
        if not any(d.seat == key[1] for d in rules.pending(state)):
            self.answered[key] = mail.message_id  # told of something else: wait for a prompt
            return False
        # a person answers the mail that puts the decision to them, not an older one still on
        # top of their inbox while the prompt is on its way (the service would call it stale)
        about = OutboundMail.objects.filter(message_id=mail.message_id).values_list("seq", flat=True).first()
        since = (
            PendingDecision.objects.filter(game=game, seat=key[1]).values_list("since_seq", flat=True).first()
        )
        if about is None or since is None or about < since:
            return False
        text = rules.notation.format_command(state, rules.default(state, key[1]))
        address = mail.reply_to.strip().split("<")[-1].strip(">")
        player = self.seats_by_address[address][2]
        reply = self.send("player", key, player, address, text, mail)
        self.answered[key] = mail.message_id
        if reply.ok:
            self.inflight[key] = reply.message_id
        # the others mixed in at their shares, in a fixed pattern (a short run has each)
        n = next(self.count)
        if reply.ok and n % round(1 / self.plan.duplicates) == 3:
            self.resend(reply)
        if n % round(1 / self.plan.stale) == 7:
            self.stale_due = True
        if self.stale_due:  # an old answer of a seat that has been put a newer decision since
            with self.lock:
                old = next(
                    (r for r in self.past if self.latest[(r.game, r.seat)].message_id != r.answers), None
                )
            if old is not None:
                self.stale_due = False
                self.past.remove(old)
                sender = str(email.message_from_bytes(old.raw)["From"])
                to = str(email.message_from_bytes(old.raw)["To"])
                self.send(
                    "stale", (old.game, old.seat), sender, to, text_of(old.raw), None, in_reply_to=old.answers
                )
        if n % round(1 / self.plan.strangers) == 11:
            self.send(
                "stranger", key, f"someone{self.rng.randrange(10**6)}@elsewhere.invalid", address, text, mail
            )
        if reply.ok:
            self.past.append(reply)
        return True

    def send(
        self,
        kind: str,
        key: tuple[int, int],
        sender: str,
        address: str,
        text: str,
        mail: Received | None,
        *,
        in_reply_to: str = "",
    ) -> Reply:
        answers = mail.message_id if mail is not None else in_reply_to
        msg = EmailMessage()
        msg["From"] = sender
        msg["To"] = address
        msg["Subject"] = f"Re: {mail.subject}" if mail is not None else "Re: your move"
        msg["Message-ID"] = f"<{uuid.uuid4().hex}@players.load.invalid>"
        msg["In-Reply-To"] = f"<{answers}>"
        msg["References"] = f"<{answers}>"
        msg.set_content(f"{text}\n")
        raw = msg.as_bytes()
        route = "smtp" if len(self.replies) % 2 == 0 else "webhook"
        reply = Reply(kind, msg["Message-ID"].strip("<>"), key[0], key[1], route, time.time(), answers, raw)
        reply.ok = self.deliver(route, sender, address, raw)
        with self.lock:
            self.replies.append(reply)
        return reply

    def sent_each_kind(self) -> bool:
        """Whether a reply of every kind (player, duplicate, stale, stranger) has been sent."""
        with self.lock:
            return {"player", "duplicate", "stale", "stranger"} <= {r.kind for r in self.replies}

    def resend(self, reply: Reply) -> None:
        """The same mail again (same Message-ID), by the other way: a retry, a second hop."""
        route = "webhook" if reply.route == "smtp" else "smtp"
        sender = str(email.message_from_bytes(reply.raw)["From"])
        address = str(email.message_from_bytes(reply.raw)["To"])
        copy = Reply("duplicate", reply.message_id, reply.game, reply.seat, route, time.time(), reply.answers)
        copy.ok = self.deliver(route, sender, address, reply.raw)
        with self.lock:
            self.replies.append(copy)

    def deliver(self, route: str, sender: str, address: str, raw: bytes) -> bool:
        try:
            if route == "smtp":
                with smtplib.SMTP("127.0.0.1", self.smtp_port, timeout=30) as smtp:
                    smtp.sendmail(sender, [address], raw)
            else:
                payload = postmark(sender, address, raw)
                request = urllib.request.Request(
                    f"http://127.0.0.1:{self.web_port}/anymail/postmark/inbound/",
                    data=json.dumps(payload).encode(),
                    headers={
                        "Content-Type": "application/json",
                        "Authorization": "Basic " + base64.b64encode(":".join(WEBHOOK).encode()).decode(),
                    },
                )
                with urllib.request.urlopen(request, timeout=30) as response:
                    response.read()
            return True
        except Exception as error:  # counted: a reply the service refused to take is a finding
            self.errors[f"{route}: {type(error).__name__}: {str(error)[:80]}"] += 1
            return False


def text_of(raw: bytes) -> str:
    body = email.message_from_bytes(raw, policy=email.policy.default).get_body(("plain",))
    return str(body.get_content()).strip() if body is not None else ""


def postmark(sender: str, address: str, raw: bytes) -> dict[str, Any]:
    """Postmark's inbound webhook body with the raw message ("Include raw email content")."""
    head = email.message_from_bytes(raw, policy=email.policy.default)
    return {
        "FromFull": {"Email": sender, "Name": "", "MailboxHash": ""},
        "ToFull": [{"Email": address, "Name": "", "MailboxHash": ""}],
        "CcFull": [],
        "BccFull": [],
        "OriginalRecipient": address,
        "Subject": str(head["Subject"]),
        "MessageID": str(uuid.uuid4()),
        "Date": str(head.get("Date", "")),
        "TextBody": text_of(raw),
        "HtmlBody": "",
        "Headers": [{"Name": "Message-ID", "Value": str(head["Message-ID"])}],
        "Attachments": [],
        "RawEmail": raw.decode(),
    }


# --- the run ----------------------------------------------------------------------------------


def service_env(
    plan: Plan, database_url: str, broker: Broker, sink_port: int, web_port: int
) -> dict[str, str]:
    env = dict(os.environ)
    env.update(
        DJANGO_SETTINGS_MODULE="whitelotus.settings",
        DATABASE_URL=database_url,
        CELERY_BROKER_URL=broker.url,
        REDIS_URL=broker.url if plan.broker == "redis" else "",
        CELERY_TASK_ALWAYS_EAGER="false",
        DEBUG="false",
        SECRET_KEY="load-bench-only",
        ALLOWED_HOSTS="127.0.0.1,localhost",
        SECURE_SSL_REDIRECT="false",
        LOCAL_MAILBOX="false",
        EMAIL_BACKEND="django.core.mail.backends.smtp.EmailBackend",
        EMAIL_HOST="127.0.0.1",
        EMAIL_PORT=str(sink_port),
        EMAIL_TIMEOUT="10",
        REPLY_DOMAIN=DOMAIN,
        DEFAULT_FROM_EMAIL=f"White Lotus <lotus@{DOMAIN}>",
        WEBHOOK_SECRET=":".join(WEBHOOK),
        SITE_URL=f"http://127.0.0.1:{web_port}",
        LOG_LEVEL="WARNING",
        MODERATOR_EMAILS="",
    )
    return env


def create_games(plan: Plan) -> tuple[int, float]:
    """N running games through ``games.services``: 4 to 6 seats, the editions in turn, each
    player at about four tables (a league's weekend)."""
    from games import services
    from games.models import Player

    start = time.perf_counter()
    sizes = [4 + n % 3 for n in range(plan.games)]
    people = [
        Player.objects.create(name=f"Player {i}", email=f"p{i}@players.load.invalid")
        for i in range(max(6, sum(sizes) // 4))
    ]
    rng = random.Random(plan.seed)
    seats = 0
    for n, size in enumerate(sizes):
        table = rng.sample(people, size)
        game = services.create_game(table, edition=("kosmos", "designer")[n % 2], seed=f"load-{n}")
        services.start_game(game)
        seats += size
    return seats, time.perf_counter() - start


def main(argv: list[str]) -> int:
    if argv[:1] == ["sink"]:
        sink(int(argv[1]), Path(argv[2]))
        return 0
    plan = parse(argv)
    url = os.environ.get("DATABASE_URL", "")
    if not url.startswith("postgres"):
        sys.exit("bench.load needs DATABASE_URL=postgres://... (it makes <name>_load beside it)")
    base, name = url.rsplit("/", 1)
    database_url = f"{base}/{name}_load"
    work = Path(tempfile.mkdtemp(prefix="wl-load-"))
    print(
        f"bench.load: {plan.games} games, {plan.rate:g} replies/s for {plan.duration:g} s, "
        f"broker {plan.broker}"
    )
    print(f"  logs and the sink's mails in {work}")

    import psycopg

    with psycopg.connect(f"{base}/postgres", autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}_load" WITH (FORCE)')
        conn.execute(f'CREATE DATABASE "{name}_load"')
    broker: Broker = RabbitBroker(work) if plan.broker == "rabbitmq" else RedisBroker(work)
    sink_port, smtp_port, web_port = free_port(), free_port(), free_port()
    env = service_env(plan, database_url, broker, sink_port, web_port)
    os.environ.update({k: v for k, v in env.items() if k != "DJANGO_SETTINGS_MODULE"})
    os.environ["DJANGO_SETTINGS_MODULE"] = "whitelotus.settings"
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    spool = work / "sink"
    broker.start()
    sink_proc = Proc(
        "sink",
        [PY, "-m", "bench.load", "sink", str(sink_port), str(spool)],
        env,
        work / "sink.log",
        sink_port,
    )
    sink_proc.start()
    celery = [str(BIN / "celery"), "-A", "whitelotus"]
    quiet = ["--loglevel=WARNING", "--without-gossip", "--without-mingle", "--without-heartbeat"]
    # as deploy/README.md runs them: the first worker keeps a slot for moves alone
    workers = [
        Proc(
            f"worker {i}",
            [
                *celery,
                "worker",
                "--pool=solo",
                "-n",
                f"w{i}@load",
                "-Q",
                "moves" if i == 0 else "moves,mail",
                *quiet,
            ],
            env,
            work / f"worker{i}.log",
        )
        for i in range(plan.workers)
    ]
    web = Proc(
        "gunicorn",
        [
            str(BIN / "gunicorn"),
            "whitelotus.wsgi",
            "-w",
            "2",
            "-b",
            f"127.0.0.1:{web_port}",
            "--timeout",
            "60",
        ],
        env,
        work / "gunicorn.log",
        web_port,
    )
    smtpd = Proc(
        "smtpd",
        [PY, "manage.py", "smtpd", "-v", "0", "--host", "127.0.0.1", "--port", str(smtp_port)],
        env,
        work / "smtpd.log",
        smtp_port,
    )
    beat = Proc(
        "beat",
        [*celery, "beat", "--loglevel=WARNING", "--schedule", str(work / "beat-schedule")],
        env,
        work / "beat.log",
    )
    service = [*workers, web, smtpd, beat]
    try:
        for proc in service:
            proc.start()
        seats, took = create_games(plan)
        print(f"  {plan.games} games with {seats} seats created and started in {took:.0f} s")
        return run(plan, service, workers, broker, sink_proc, spool, smtp_port, web_port)
    finally:
        for proc in [*service, sink_proc]:
            proc.kill(signal.SIGTERM)
        broker.stop()


def run(
    plan: Plan,
    service: list[Proc],
    workers: list[Proc],
    broker: Broker,
    sink_proc: Proc,
    spool: Path,
    smtp_port: int,
    web_port: int,
) -> int:
    from django.db import connection

    players = Players(plan, smtp_port, web_port, spool, random.Random(plan.seed))
    stop = threading.Event()
    kills: list[float] = []
    events: list[str] = []
    t0 = time.time()
    # while the broker restarts the players wait: the load goes on once it accepts clients again,
    # and the time it was down is not counted as load (a RabbitMQ node takes seconds to boot,
    # which used to eat a third of the short run)
    held = threading.Event()
    paused = [0.0]

    def loaded() -> float:
        """Seconds of load so far: the broker's downtime not counted."""
        return time.time() - t0 - paused[0]

    def every(seconds: float, action: Any) -> None:
        while not stop.wait(seconds):
            action()

    def chaos() -> None:
        rng = random.Random(plan.seed + 1)
        broker_at, sink_at = plan.duration * 0.4, plan.duration * 0.7
        next_kill = plan.kill_every
        while not stop.wait(0.5):
            now = loaded()
            if now >= next_kill and (plan.kills is None or len(kills) < plan.kills):
                victim = rng.choice(workers)
                victim.kill(signal.SIGKILL)
                kills.append(time.time())
                victim.start()
                events.append(f"{now:5.0f} s  kill -9 {victim.name} (started again)")
                next_kill += plan.kill_every
            if broker_at and now >= broker_at:
                held.set()
                down = broker.restart(3)
                paused[0] += down
                held.clear()
                events.append(
                    f"{now:5.0f} s  broker restarted ({plan.broker}, stopped for 3 s, {down:.1f} s until it "
                    "took clients again; the load waited)"
                )
                broker_at = 0
            if sink_at and now >= sink_at:
                sink_proc.kill(signal.SIGTERM)
                time.sleep(3)
                sink_proc.start()
                events.append(f"{now:5.0f} s  SMTP sink restarted (3 s down)")
                sink_at = 0

    def sample() -> None:
        for proc in service:
            proc.sample()

    def read() -> None:
        players.read()
        connection.close()

    sent = iter(range(1 << 62))
    slot_lock = threading.Lock()
    queue: list[tuple[int, int]] = []

    def going() -> bool:
        """The load goes on for ``duration``; a short run, on a machine so slow that the service
        put too few seats a second decision for a stale reply, goes on until it has sent each
        kind (at most ``longest``)."""
        if loaded() < plan.duration:
            return True
        return plan.each_kind and loaded() < plan.longest and not players.sent_each_kind()

    def send() -> None:
        try:
            while not stop.is_set() and going():
                if held.is_set():
                    time.sleep(0.1)
                    continue
                with slot_lock:
                    if not queue:
                        queue.extend(players.due())
                        players.rng.shuffle(queue)
                    key = queue.pop() if queue else None
                    n = next(sent) if key is not None else 0
                if key is None:
                    time.sleep(0.2)
                    continue
                delay = n / plan.rate - loaded()  # the target rate, across the senders
                if delay > 0:
                    time.sleep(delay)
                try:
                    players.answer(key)
                except Exception as error:
                    players.errors[f"player: {type(error).__name__}: {str(error)[:80]}"] += 1
        finally:
            connection.close()

    threads = [
        threading.Thread(target=every, args=(0.2, read), daemon=True),
        threading.Thread(target=every, args=(2.0, sample), daemon=True),
        threading.Thread(target=chaos, daemon=True),
    ]
    senders = [threading.Thread(target=send, daemon=True) for _ in range(8)]
    for thread in [*threads, *senders]:
        thread.start()
    for thread in senders:
        thread.join()
    load_end = time.time() - paused[0]  # the load's window, the broker's downtime left out
    stop.set()
    print(f"  load phase over after {load_end - t0:.0f} s; draining (at most {plan.drain:.0f} s)")
    drained = drain(plan, spool, players)
    for proc in service:
        proc.kill(signal.SIGTERM)
    players.read()
    return report(plan, players, t0, load_end, drained, kills, events, service)


def drain(plan: Plan, spool: Path, players: Players) -> float:
    """Wait until every stored reply is processed and every outbox row delivered (or failed for
    good), and the sink has had them; the minute sweeps re-enqueue what a broker lost."""
    from notifications.models import InboundMail, OutboundMail

    start = time.time()
    while time.time() - start < plan.drain:
        players.read()
        new = InboundMail.objects.filter(status=InboundMail.Status.NEW).count()
        pending = OutboundMail.objects.filter(status=OutboundMail.Status.PENDING).count()
        if not new and not pending:
            time.sleep(2)  # the last mails' files
            return time.time() - start
        time.sleep(2)
    return time.time() - start


def report(
    plan: Plan,
    players: Players,
    t0: float,
    load_end: float,
    drained: float,
    kills: list[float],
    events: list[str],
    service: list[Proc],
) -> int:
    from games import services
    from games.models import Event, Game
    from notifications.models import InboundMail, OutboundMail

    replies = players.replies
    by_kind = Counter(r.kind for r in replies)
    taken = [r for r in replies if r.ok]
    mine = {r.message_id for r in taken if r.kind == "player"}
    others = {r.message_id for r in taken if r.kind in ("stale", "stranger")}
    moves = Counter(
        Event.objects.filter(source=Event.Source.MAIL, kind=Event.Kind.COMMAND).values_list(
            "inbound_message_id", flat=True
        )
    )
    applied = [m for m in mine if moves[m] == 1]
    lost_moves = [m for m in mine if moves[m] == 0]
    twice = [m for m, n in moves.items() if n > 1]
    wrongly = [m for m in others if moves[m]]
    statuses = Counter(InboundMail.objects.filter(message_id__in=mine).values_list("status", flat=True))
    lost_explained = Counter(
        InboundMail.objects.filter(message_id__in=lost_moves).values_list("status", flat=True)
    )

    arrivals: dict[str, list[float]] = defaultdict(list)
    for mail in read_spool(players.spool, set()):
        arrivals[mail.message_id].append(mail.arrived)
    rows = list(OutboundMail.objects.values_list("message_id", "status", "game_id", "seq", "kind"))
    sent_rows = [r for r in rows if r[1] in (OutboundMail.Status.SENT, OutboundMail.Status.DELIVERED)]
    undelivered = [r for r in rows if r[0] not in arrivals]
    doubled = {m: times for m, times in arrivals.items() if len(times) > 1}
    explained = {m for m, times in doubled.items() if any(0 <= k - min(times) <= 2.0 for k in kills)}

    # reply -> its move's event -> the mails that event caused -> their first arrival
    seq_of = dict(
        Event.objects.filter(inbound_message_id__in=mine, source=Event.Source.MAIL).values_list(
            "inbound_message_id", "seq"
        )
    )
    mails_of: dict[tuple[int, int], list[str]] = defaultdict(list)
    for message_id, _, game, seq, kind in rows:
        if kind in ("decision", "game_over") and game is not None:
            mails_of[(game, seq)].append(message_id)
    latencies = []
    for r in taken:
        if r.kind != "player" or r.message_id not in seq_of:
            continue
        firsts = [min(arrivals[m]) for m in mails_of.get((r.game, seq_of[r.message_id]), []) if m in arrivals]
        if firsts:
            latencies.append(min(firsts) - r.sent)

    not_replaying = []
    tables = list(Game.objects.all())
    for table in tables:
        _, same = services.replay_game(table)
        if not same:
            not_replaying.append(table.pk)
    window = load_end - t0
    in_window = Event.objects.filter(source=Event.Source.MAIL, kind=Event.Kind.COMMAND).count()

    def pct(values: list[float], p: int) -> float:
        return (
            statistics.quantiles(values, n=100)[p - 1] if len(values) > 1 else (values[0] if values else 0.0)
        )

    print()
    print(f"chaos: {len(kills)} worker kills, one broker restart, one sink restart")
    for line in events:
        print(f"  {line}")
    print(
        f"replies sent: {len(replies)} ({', '.join(f'{k} {n}' for k, n in sorted(by_kind.items()))}); "
        f"refused at the door: {len(replies) - len(taken)}"
    )
    for error, n in players.errors.most_common(5):
        print(f"  {n} x {error}")
    print(
        f"replies per second sustained: {len(replies) / window:.1f} over {window:.0f} s "
        f"(target {plan.rate:g})"
    )
    print(f"moves applied: {in_window} by mail ({len(applied)} of the players' {len(mine)} replies)")
    print(f"  players' replies by outcome: {dict(statuses)}")
    print(f"lost moves: {len(lost_moves)} {dict(lost_explained) if lost_moves else ''}")
    print(f"duplicated moves: {len(twice)} applied twice, {len(wrongly)} stale or stranger's replies applied")
    print(
        f"mails: {len(rows)} outbox rows, {len(sent_rows)} sent, "
        f"{sum(len(t) for t in arrivals.values())} at the sink"
    )
    print(f"lost mails: {len(undelivered)} never reached the sink {Counter(r[1] for r in undelivered) or ''}")
    print(
        f"duplicated mails: {len(doubled)} ({len(explained)} within 2 s before a worker kill: "
        f"at-least-once sending; {len(doubled) - len(explained)} otherwise)"
    )
    print(f"games replayed from their logs: {len(tables) - len(not_replaying)} of {len(tables)} the same")
    if latencies:
        print(
            f"reply -> next decision mail at the sink: p50 {pct(latencies, 50):.2f} s  "
            f"p95 {pct(latencies, 95):.2f} s  max {max(latencies):.1f} s  ({len(latencies)} replies)"
        )
    print(f"drained in {drained:.0f} s after the load")
    print("memory (RSS, MB): " + ", ".join(f"{p.name} {max(p.rss) / 1024:.0f}" for p in service if p.rss))
    failed = lost_moves or twice or wrongly or undelivered or not_replaying or len(doubled) > len(explained)
    p95 = pct(latencies, 95) if latencies else float("inf")
    print(
        f"goals: 0 lost, 0 duplicated: {'met' if not failed else 'MISSED'}; "
        f"p95 under 10 s: {'met' if p95 < 10 else 'MISSED'}"
    )
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
