"""Fixtures for the mail tests: a reply domain, and the redis/celery availability rules."""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest
import redis
from django.db import connection

from tests.conftest import IN_CI
from tests.notifications.helpers import mail_settings  # noqa: F401  (autouse: the reply domain)


@pytest.fixture
def redis_url() -> Iterator[str]:
    """The real Redis of this machine: CI must have it; elsewhere the test is skipped."""
    url = os.environ.get("REDIS_URL", "")
    try:
        if not url:
            raise redis.exceptions.ConnectionError("REDIS_URL is not set")
        redis.Redis.from_url(url, socket_connect_timeout=2).ping()
    except redis.exceptions.ConnectionError as error:
        if IN_CI:
            pytest.fail(f"CI must provide a running Redis: {error}")
        pytest.skip(f"no Redis: {error}")
    yield url


@pytest.fixture
def postgres_transactional(transactional_db: None) -> Iterator[None]:
    """Tests with threads (a Celery worker, an SMTP listener) need committed data: Postgres.

    At the end, before the test database is flushed, every other connection to it is closed
    from the server's side: a worker thread's connection left open (idle in a transaction, or
    just not yet collected) would otherwise meet the flush's TRUNCATE and deadlock it."""
    if connection.vendor != "postgresql":
        if IN_CI:
            pytest.fail("CI must run this test on Postgres")
        pytest.skip("needs Postgres (threads share the database)")
    yield
    close_other_connections()


def close_other_connections() -> None:
    """Close every connection to this test database but this thread's own."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
            " WHERE datname = current_database() AND pid <> pg_backend_pid()"
        )
