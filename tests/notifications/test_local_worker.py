"""A real ``celery worker`` process on the folder broker of local play (scripts/serve with no
Redis): a task published from this process is executed there, against a database both see."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from django.db import connection, connections
from kombu import Connection

from notifications.localmail.models import LocalMail
from notifications.models import OutboundMail
from notifications.tasks import send_mail
from whitelotus import localbroker
from whitelotus.celery import app

ROOT = Path(__file__).resolve().parents[2]
WORKER_DB = "local_worker"
LOCAL_BACKEND = "notifications.localmail.backend.EmailBackend"


@pytest.fixture
def sqlite_file_database(tmp_path: Path, django_db_blocker: Any) -> Iterator[str]:
    """On SQLite the test database lives in this process's memory, where no worker process sees
    it: the worker and this test share a migrated file instead, under an alias of its own."""
    if connection.vendor != "sqlite":
        pytest.skip("on Postgres the worker uses the test database (the test below)")
    path = tmp_path / "worker.sqlite3"
    subprocess.run(
        [sys.executable, "manage.py", "migrate", "--no-input", "-v0"],
        cwd=ROOT,
        env=_environment(f"sqlite:///{path}", tmp_path),
        check=True,
    )
    connections.settings[WORKER_DB] = {**connection.settings_dict, "NAME": str(path)}
    try:
        with django_db_blocker.unblock():
            yield WORKER_DB
    finally:
        connections[WORKER_DB].close()
        del connections[WORKER_DB]
        del connections.settings[WORKER_DB]


def _database_url(alias: str) -> str:
    db = connections[alias].settings_dict
    if connections[alias].vendor == "sqlite":
        return f"sqlite:///{db['NAME']}"
    login = db["USER"] + (f":{db['PASSWORD']}" if db["PASSWORD"] else "")
    return f"postgres://{login}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/{db['NAME']}"


def _environment(database_url: str, folder: Path) -> dict[str, str]:
    """What scripts/serve gives its worker with no Redis, pointed at this test's folders."""
    env = {k: v for k, v in os.environ.items() if k not in ("REDIS_URL", "CELERY_TASK_ALWAYS_EAGER")}
    env.update(
        DATABASE_URL=database_url,
        DEBUG="true",
        LOCAL_MAILBOX="true",
        EMAIL_BACKEND=LOCAL_BACKEND,
        CELERY_BROKER_URL="filesystem://localhost",
        LOCAL_BROKER_DIR=str(folder / "broker"),
        DB_CONN_MAX_AGE="0",
        LOG_LEVEL="WARNING",
    )
    return env


@contextmanager
def celery_worker(database_url: str, folder: Path) -> Iterator[subprocess.Popen[bytes]]:
    command = [str(Path(sys.executable).with_name("celery")), "-A", "whitelotus", "worker"]
    command += ["--pool=threads", "--concurrency=2", "--without-gossip", "--without-mingle"]
    command += ["--without-heartbeat", "--loglevel=WARNING"]
    log = (folder / "worker.log").open("wb")
    worker = subprocess.Popen(
        command, cwd=ROOT, env=_environment(database_url, folder), stdout=log, stderr=log
    )
    try:
        yield worker
    finally:
        worker.send_signal(signal.SIGTERM)  # what scripts/serve sends on Ctrl-C: a warm shutdown
        try:
            worker.wait(20)
        finally:
            worker.kill()
            log.close()


def _publish_send_mail(folder: Path, mail_id: int) -> None:
    """Publish as runserver or the SMTP listener would, to the test's own broker folder."""
    options = localbroker.transport_options(folder / "broker")
    eager = app.conf.task_always_eager
    app.conf.task_always_eager = False
    try:
        with Connection(
            "filesystem://localhost", transport=localbroker.TRANSPORT, transport_options=options
        ) as broker:
            app.send_task(send_mail.name, args=(mail_id,), connection=broker)
    finally:
        app.conf.task_always_eager = eager


def _wait_for(
    condition: Callable[[], bool], worker: subprocess.Popen[bytes], folder: Path, timeout: float
) -> None:
    end = time.monotonic() + timeout
    while not condition():
        if worker.poll() is not None or time.monotonic() > end:
            log = (folder / "worker.log").read_text(errors="replace")
            pytest.fail(f"the worker did not run the task (exit code {worker.poll()}):\n{log[-3000:]}")
        time.sleep(0.1)


def test_a_mail_queued_in_the_folder_broker_is_sent_by_a_real_worker_on_sqlite(
    sqlite_file_database: str, tmp_path: Path
) -> None:
    a_real_worker_sends_the_queued_mails(sqlite_file_database, tmp_path)


def test_a_mail_queued_in_the_folder_broker_is_sent_by_a_real_worker_on_postgres(
    postgres_transactional: None, tmp_path: Path
) -> None:
    a_real_worker_sends_the_queued_mails("default", tmp_path)


def a_real_worker_sends_the_queued_mails(worker_database: str, tmp_path: Path) -> None:
    outbox = OutboundMail.objects.using(worker_database)
    mail = outbox.create(
        key="local-worker-test",
        message_id="local-worker-test@lotus.test",
        kind="notice",
        to_email="ada@example.org",
        subject="Your move in game 7",
        text="Place a tile.",
        html="<p>Place a tile.</p>",
    )
    # queued before any worker runs, as `manage.py demo` may be before serve's worker is up
    _publish_send_mail(tmp_path, mail.pk)
    assert len(list((tmp_path / "broker" / "queue").glob("*.msg"))) == 1

    with celery_worker(_database_url(worker_database), tmp_path) as worker:
        _wait_for(lambda: LocalMail.objects.using(worker_database).exists(), worker, tmp_path, 60)
        # and one published while it runs is taken from the folder within a moment
        second = outbox.create(
            key="local-worker-test-2",
            message_id="local-worker-test-2@lotus.test",
            kind="notice",
            to_email="bao@example.org",
            subject="Your bid in game 7",
            text="Bid.",
            html="<p>Bid.</p>",
        )
        published = time.monotonic()
        _publish_send_mail(tmp_path, second.pk)
        _wait_for(lambda: LocalMail.objects.using(worker_database).count() == 2, worker, tmp_path, 30)
        took = time.monotonic() - published

    boxes = dict(LocalMail.objects.using(worker_database).values_list("to_address", "subject"))
    assert boxes == {"ada@example.org": "Your move in game 7", "bao@example.org": "Your bid in game 7"}
    assert set(outbox.values_list("status", flat=True)) == {OutboundMail.Status.SENT}
    assert list((tmp_path / "broker" / "queue").iterdir()) == []  # taken and acknowledged
    assert took < 10, f"the running worker took {took:.1f} s to pick up a message"
