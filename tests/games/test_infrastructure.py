"""The services CI must use are the real ones: Postgres for the database, Redis as broker."""

from __future__ import annotations

import os

import pytest
import redis
from django.conf import settings
from django.db import connection

from tests.conftest import IN_CI


@pytest.mark.django_db
def test_database_is_postgres_in_ci():
    if connection.vendor != "postgresql":
        if IN_CI:
            pytest.fail("CI must run on Postgres")
        pytest.skip("SQLite fallback (no DATABASE_URL)")
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
        assert cursor.fetchone() == (1,)


def test_redis_broker_answers():
    url = os.environ.get("REDIS_URL")
    if not url:
        if IN_CI:
            pytest.fail("CI must provide REDIS_URL")
        pytest.skip("no REDIS_URL")
    client = redis.Redis.from_url(url, socket_connect_timeout=3)
    try:
        assert client.ping()
    except redis.exceptions.ConnectionError as error:
        if IN_CI:
            pytest.fail(f"Redis at {url} does not answer: {error}")
        pytest.skip(f"Redis at {url} does not answer")
    assert url == settings.CELERY_BROKER_URL
