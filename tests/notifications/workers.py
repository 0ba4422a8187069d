"""A real Celery worker for tests, consuming from the real Redis."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from celery.contrib.testing.worker import start_worker
from django.db import connection

from whitelotus.celery import app


@contextmanager
def worker(broker_url: str, concurrency: int = 2) -> Iterator[None]:
    """A real Celery worker (threads) consuming from the real Redis.  Its threads close their
    database connections after each task, as a request would, so the test database can be
    flushed afterwards."""
    app.conf.update(broker_url=broker_url, task_always_eager=False)
    app.control.purge()
    max_age = connection.settings_dict["CONN_MAX_AGE"]
    connection.settings_dict["CONN_MAX_AGE"] = 0
    try:
        with start_worker(
            app, pool="threads", concurrency=concurrency, perform_ping_check=False, loglevel="WARNING"
        ):
            yield
    finally:
        connection.settings_dict["CONN_MAX_AGE"] = max_age
