"""A real Celery worker for tests, consuming from the real Redis, that never outlives its test.

Celery's ``start_worker`` joins the worker's thread for ten seconds and then goes on: on a busy
machine a task still rendering a mail outlived its test, ran during the next one ("Database
access not allowed") and, with the queue shared, took tasks another test had published.  This
worker is stopped and *joined* (a generous deadline, then the test fails naming the thread), its
queue is emptied before and after, and every task it runs is checked to belong to the test that
started it (:mod:`tests.hygiene`).
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager

from celery.contrib.testing.worker import TestWorkController, setup_app_for_worker
from celery.utils.nodenames import anon_nodename
from celery.worker import state as worker_state
from django.db import connection

from tests import hygiene
from tests.waiting import PATIENCE, idle
from whitelotus.celery import app


@contextmanager
def worker(broker_url: str, concurrency: int = 2) -> Iterator[None]:
    """A real Celery worker (threads) consuming from the real Redis.  Its threads close their
    database connections after each task, as a request would, so the test database can be
    flushed afterwards."""
    app.conf.update(broker_url=broker_url, task_always_eager=False)
    app.control.purge()  # nothing left by an earlier test of this process
    max_age = connection.settings_dict["CONN_MAX_AGE"]
    connection.settings_dict["CONN_MAX_AGE"] = 0
    setup_app_for_worker(app, "WARNING", None)  # type: ignore[arg-type]  # no log file
    controller = TestWorkController(
        app=app,
        concurrency=concurrency,
        hostname=anon_nodename(),
        pool="threads",
        loglevel="WARNING",
        logfile=None,
        ready_callback=None,
        without_heartbeat=True,
        without_mingle=True,
        without_gossip=True,
    )
    thread = threading.Thread(target=controller.start, name="celery-test-worker", daemon=True)
    try:
        with hygiene.worker_running():
            thread.start()
            controller.ensure_started()
            try:
                yield
            finally:
                worker_state.should_terminate = 0  # type: ignore[assignment]  # celery's own way to stop
                thread.join(PATIENCE)
                if thread.is_alive():
                    raise AssertionError(
                        f"the test's Celery worker did not stop within {PATIENCE:.0f} s "
                        f"(tasks still running: {len(worker_state.active_requests)})"
                    )
                worker_state.should_terminate = None
                app.control.purge()  # what it left unconsumed is this test's, not the next one's
    finally:
        connection.settings_dict["CONN_MAX_AGE"] = max_age


def quiet(broker_url: str, what: str = "the worker's tasks") -> None:
    """Wait until the worker has had nothing running, reserved or queued for a second in a row
    (instead of a fixed sleep "to let every task finish")."""
    import redis

    client = redis.Redis.from_url(broker_url)

    def busy() -> bool:
        return bool(worker_state.active_requests or worker_state.reserved_requests or client.llen("celery"))

    idle(busy, what)
