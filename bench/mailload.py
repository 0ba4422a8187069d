"""Mail load benchmark: how many mails, how heavy, and the picture's cost, for a
player of a whole 4-player kosmos game.

The engine's self-play bots play the game through ``services.submit`` (the events and the
outbox rows in one transaction); after every move each pending outbox row is sent as a worker
sends it: the send task (``send_mails``, run in this process) renders it, draws its picture,
builds the MIME message and hands it over SMTP (Django's SMTP backend) to an SMTP sink in a
process of its own (``bench.load``'s), which keeps every mail as a file.  The same game (same
seed, same moves) is played twice: once with every player on ``mail all`` (the service's old
behaviour), once with the default preferences.  The sizes are those of the whole messages as
the sink received them; the picture's time is all the CPU time spent drawing board pictures
(SVG and PNG), divided by the mails sent; the render's is the CPU time of rendering the mails
sent (``emails.render``: news, board, templates, queries), the picture's drawing left out,
divided by the mails sent; ``mail: … all in`` is the CPU time of the whole send task (render,
picture, MIME, SMTP, the task and its queries: what a worker spends on a mail) per mail sent,
with the queries it made.  Its last lines are those of the default preferences::

    python -m bench.mailload            # SQLite in memory, or DATABASE_URL's database + "_bench"
"""

from __future__ import annotations

import email
import os
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bench.load.sink import kept

PLAYERS = 4
SEED = os.environ.get("BENCH_SEED", "mailload-1")


@dataclass
class Run:
    label: str
    mails: Counter[str] = field(default_factory=Counter)  # by recipient
    size: Counter[str] = field(default_factory=Counter)  # bytes by recipient
    kinds: Counter[str] = field(default_factory=Counter)
    picture_bytes: int = 0  # of the sizes: the attached pictures (base64 MIME parts)
    pictures: int = 0  # drawn
    picture_seconds: float = 0.0
    render_seconds: float = 0.0  # rendering the mails sent, their pictures' drawing left out
    task_seconds: float = 0.0  # the whole send task: render, picture, MIME, SMTP, queries
    queries: int = 0  # made by the send tasks
    decisions: int = 0

    def per_seat(self) -> tuple[float, float]:
        return sum(self.mails.values()) / PLAYERS, sum(self.size.values()) / PLAYERS / 1000

    def picture_ms(self) -> float:
        return self.picture_seconds * 1000 / max(sum(self.mails.values()), 1)

    def render_ms(self) -> float:
        return self.render_seconds * 1000 / max(sum(self.mails.values()), 1)

    def all_in_ms(self) -> float:
        return self.task_seconds * 1000 / max(sum(self.mails.values()), 1)

    def queries_per_mail(self) -> float:
        return self.queries / max(sum(self.mails.values()), 1)


def setup(port: int) -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "whitelotus.settings")
    os.environ["EMAIL_BACKEND"] = "django.core.mail.backends.smtp.EmailBackend"
    os.environ["EMAIL_HOST"], os.environ["EMAIL_PORT"] = "127.0.0.1", str(port)
    os.environ["LOCAL_MAILBOX"] = "false"
    # rows are sent by this process, not by a worker: tasks go to kombu's in-process broker
    os.environ["CELERY_BROKER_URL"] = "memory://"
    os.environ["CELERY_TASK_ALWAYS_EAGER"] = "false"
    url = os.environ.get("DATABASE_URL", "")
    if url.startswith("postgres"):
        os.environ["DATABASE_URL"] = url + "_bench"
    import logging

    import django

    django.setup()
    # the figures, not a line per mail sent (the send path logs each at INFO, celery each task)
    for name in ("notifications", "celery"):
        logging.getLogger(name).setLevel(logging.WARNING)


def play(label: str, everything: bool, spool: Path) -> Run:
    from django.db import connection

    from games import services
    from games.models import Game, Player
    from games.presentation.picture import Drawn, forget
    from games.rules import registry
    from notifications.models import MailPreference, OutboundMail
    from notifications.outbound import pictures, sending
    from notifications.tasks import send_mails

    wl = registry.get("whitelotus")  # the game benchmarked, through the registry
    Bot = wl.about.Bot
    run = Run(label)
    tag = label.replace(" ", "-")
    people = [
        Player.objects.create(name=f"Player {i}", email=f"p{i}.{tag}@bench.invalid") for i in range(PLAYERS)
    ]
    if everything:
        for person in people:
            MailPreference.objects.create(player=person, mode=MailPreference.Mode.ALL)
    draw = pictures.draw_of

    def timed(rules: Any, state: Any, names: Mapping[str, str], before: Drawn | None = None) -> Drawn:
        start = time.process_time()  # CPU: the machine may be busy with other work
        try:
            return draw(rules, state, names, before)
        finally:
            run.pictures += 1
            run.picture_seconds += time.process_time() - start

    # sending imported it by name: wrapped where it is looked up
    render = vars(sending)["render"]

    def rendered(mail: Any) -> Any:
        start, drawing = time.process_time(), run.picture_seconds
        try:
            return render(mail)
        finally:
            run.render_seconds += time.process_time() - start - (run.picture_seconds - drawing)

    def counted(execute: Any, sql: str, params: Any, many: bool, context: Any) -> Any:
        run.queries += 1
        return execute(sql, params, many, context)

    pictures.draw_of = timed
    vars(sending)["render"] = rendered
    forget()  # a cold start, as for a worker that never drew this game
    for old in kept(spool):
        old.unlink()
    try:
        game = services.create_game(people, seed=SEED)
        services.start_game(game)
        bots = [Bot(f"{SEED}:bot:{s}") for s in range(PLAYERS)]

        def send() -> None:
            pending = OutboundMail.objects.filter(status=OutboundMail.Status.PENDING).order_by("pk")
            for row in pending:
                start = time.process_time()
                with connection.execute_wrapper(counted):
                    said = send_mails.apply(args=([row.pk],)).get()
                run.task_seconds += time.process_time() - start
                if said == "sent":
                    run.kinds[row.kind] += 1

        send()
        while Game.objects.get(pk=game.pk).status == Game.Status.RUNNING:
            state = services.head_state(game)
            decision = wl.pending(state)[0]
            services.submit(game, decision.seat, bots[decision.seat].choose(state, decision.seat))
            run.decisions += 1
            send()
    finally:
        pictures.draw_of = draw
        vars(sending)["render"] = render
    received(run, spool, sum(run.kinds.values()))
    return run


def received(run: Run, spool: Path, sent: int) -> None:
    """Each mail as the sink kept it: its size, and its pictures' (image parts, as sent)."""
    deadline = time.monotonic() + 30
    while len(kept(spool)) < sent and time.monotonic() < deadline:
        time.sleep(0.05)  # the sink writes the last ones
    for path in kept(spool):
        head, _, data = path.read_bytes().partition(b"\r\n")  # the sink's X-Sink-To line
        to = head.decode().partition(": ")[2]
        run.mails[to] += 1
        run.size[to] += len(data)
        message = email.message_from_bytes(data)
        run.picture_bytes += sum(
            len(p.as_bytes()) for p in message.walk() if p.get_content_maintype() == "image"
        )


def main() -> int:
    from bench.load.plan import free_port, wait_port

    port = free_port()
    with tempfile.TemporaryDirectory(prefix="mailload-") as folder:
        spool = Path(folder)
        sink = subprocess.Popen([sys.executable, "-m", "bench.load", "sink", str(port), str(spool)])
        try:
            wait_port(port)
            setup(port)
            from django.core.management import call_command
            from django.test.utils import setup_databases, teardown_databases

            old = setup_databases(verbosity=0, interactive=False)
            try:
                call_command("migrate", verbosity=0)
                runs = [play("mail all", True, spool), play("default", False, spool)]
            finally:
                teardown_databases(old, verbosity=0)
        finally:
            sink.terminate()
            sink.wait(30)
    everything, default = runs
    out = sys.stdout
    out.write(f"a {PLAYERS}-player kosmos game (seed {SEED}), {default.decisions} decisions, bots\n")
    for run in runs:
        kinds = ", ".join(f"{kind} {n}" for kind, n in sorted(run.kinds.items()))
        share = run.picture_bytes / PLAYERS / 1000
        out.write(
            f"{run.label}: {run.pictures} pictures drawn ({share:.0f} kB per seat); mails by kind: {kinds}\n"
        )
    mails, kb = everything.per_seat()
    out.write(
        f"mail all: per seat and game: {mails:.0f} mails, {kb:.0f} kB; "
        f"picture: {everything.picture_ms():.1f} ms per mail sent\n"
    )
    mails, kb = default.per_seat()
    out.write(f"per seat and game: {mails:.0f} mails, {kb:.0f} kB\n")
    out.write(f"picture: {default.picture_ms():.1f} ms per mail sent\n")
    out.write(f"render: {default.render_ms():.1f} ms CPU per mail sent\n")
    out.write(
        f"mail: {default.all_in_ms():.1f} ms CPU per mail sent, all in "
        f"(render, picture, MIME, SMTP, the task and its queries); "
        f"{default.queries_per_mail():.1f} queries per mail\n"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
