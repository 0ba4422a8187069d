"""One run: the database and its games, the service started, the load with its chaos, the drain,
and the report of what was lost, duplicated and how fast."""

from __future__ import annotations

import os
import random
import resource
import signal
import statistics
import sys
import tempfile
import threading
import time
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

from bench.load.plan import BIN, DOMAIN, PY, WEBHOOK, Plan, free_port, parse
from bench.load.players import Players
from bench.load.processes import Broker, Proc, RabbitBroker, RedisBroker
from bench.load.sink import read_spool, sink


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
                "moves" if i == 0 else "moves,starts,mail",
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
    players_cpu = resource.getrusage(resource.RUSAGE_SELF)  # from here: the players' own CPU
    for proc in [*service, sink_proc, broker.proc]:
        proc.sample_cpu()
        proc.cpu_done, proc.cpu_now = -proc.cpu_now, proc.cpu_now  # counted from the load's start
    stop = threading.Event()
    kills: list[float] = []
    events: list[str] = []
    t0 = time.time()
    # while the broker restarts the players wait: the load goes on once it accepts clients again,
    # and the time it was down is not counted as load (a RabbitMQ node takes seconds to boot:
    # a third of the short run)
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
        sink_proc.sample_cpu()
        broker.proc.sample_cpu()

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
    used = resource.getrusage(resource.RUSAGE_SELF)
    cpu = {"players": used.ru_utime + used.ru_stime - players_cpu.ru_utime - players_cpu.ru_stime}
    for proc in [*service, sink_proc, broker.proc]:
        proc.sample_cpu()
        kind = proc.name.split()[0]  # "worker 0", "worker 1": the workers
        cpu[kind] = cpu.get(kind, 0.0) + proc.cpu()
    for proc in service:
        proc.kill(signal.SIGTERM)
    players.read()
    return report(plan, players, t0, load_end, drained, kills, events, service, cpu)


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
    cpu: dict[str, float],
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
    for mail in read_spool(players.spool, set(), everything=True):
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
    total = sum(cpu.values()) or 1.0
    print(
        "CPU by process kind, load and drain: "
        + ", ".join(
            f"{kind} {s:.0f} s ({s / total:.0%})" for kind, s in sorted(cpu.items(), key=lambda i: -i[1])
        )
    )
    print(f"the players' share of the CPU: {cpu['players'] / total:.0%} (goal: 10% or less)")
    failed = lost_moves or twice or wrongly or undelivered or not_replaying or len(doubled) > len(explained)
    p95 = pct(latencies, 95) if latencies else float("inf")
    print(
        f"goals: 0 lost, 0 duplicated: {'met' if not failed else 'MISSED'}; "
        f"p95 under 10 s: {'met' if p95 < 10 else 'MISSED'}"
    )
    return 1 if failed else 0
