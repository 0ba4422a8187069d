"""Which database and broker the tests use, said at the top of every run.

CI (``CI`` set) must run against the real Postgres and Redis: the run stops at once if
``DATABASE_URL`` is not Postgres, and tests that need a service fail instead of skipping.
Away from CI the tests fall back to SQLite and say so; Postgres-only tests are skipped.
"""

from __future__ import annotations

import os

import pytest

IN_CI = bool(os.environ.get("CI"))


def _vendor() -> str:
    from django.db import connection

    return connection.vendor


def pytest_report_header(config: pytest.Config) -> list[str]:
    url = os.environ.get("DATABASE_URL", "")
    if url.startswith("postgres"):
        db = "Postgres (DATABASE_URL)"
    else:
        db = "SQLite fallback (set DATABASE_URL=postgres://... to use Postgres)"
    return [f"database: {db}; redis: {os.environ.get('REDIS_URL', 'not configured')}; CI: {IN_CI}"]


def pytest_configure(config: pytest.Config) -> None:
    if IN_CI and not os.environ.get("DATABASE_URL", "").startswith("postgres"):
        raise pytest.UsageError("CI is set but DATABASE_URL is not Postgres: .ci/run must provide it")
    _tasks_in_process_without_redis()


def _tasks_in_process_without_redis() -> None:
    """Without Redis the settings queue tasks in the local-play folder broker for the worker of
    scripts/serve; a test run has no worker there and must leave it no messages, so its tasks
    run in the process that commits (tests/notifications/test_local_worker.py runs a real
    worker on a folder of its own)."""
    from django.conf import settings

    from whitelotus.celery import app

    if settings.CELERY_BROKER_URL.startswith("filesystem://"):
        settings.CELERY_TASK_ALWAYS_EAGER = True
        app.conf.task_always_eager = True


@pytest.fixture
def postgres_only(db: None) -> None:
    """For tests that prove something about Postgres itself (triggers, row locks)."""
    if _vendor() != "postgresql":
        if IN_CI:
            pytest.fail("CI must run this test on Postgres")
        pytest.skip("needs Postgres (running on the SQLite fallback)")


@pytest.fixture(autouse=True)
def _fresh_engine_caches() -> None:
    """Each test starts without the services' per-process caches of head states and configs.

    They are keyed by game id and creation time, which is sound in production (ids are never
    reused) but not across tests: a rolled-back test database can reuse an id, and time
    travel gives every game the same creation time."""
    from games import services, steps
    from notifications import moderation

    services.clear_caches()
    steps.clear_cache()  # the replay timelines are keyed the same way
    moderation.clear_cache()  # and a rollback's undone moves
