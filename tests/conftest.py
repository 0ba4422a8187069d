"""Which database and broker the tests use, said at the top of every run.

CI (``CI`` set) must run against the real Postgres and Redis: the run stops at once if
``DATABASE_URL`` is not Postgres, and tests that need a service fail instead of skipping.
Away from CI the tests fall back to SQLite and say so; Postgres-only tests are skipped.
"""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Generator, Iterator
from typing import Any

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
    _own_redis_database()
    _extra_games()


def _extra_games() -> None:
    """The games ``TEST_EXTRA_GAMES`` names, registered before the tests are collected
    (tests/extragames.py)."""
    from tests import extragames

    try:
        extragames.register_for_the_run(extragames.from_environment())
    except (ValueError, ImportError, TypeError) as error:
        raise pytest.UsageError(str(error)) from error


def _own_redis_database() -> None:
    """Each xdist worker process its own Redis database, so that a task published by one
    process's test is never consumed by the other process's worker (tests/hygiene.py)."""
    from django.conf import settings

    from tests import hygiene
    from whitelotus.celery import app

    url = os.environ.get("REDIS_URL", "")
    own = hygiene.own_redis(url)
    if own == url:
        return
    os.environ["REDIS_URL"] = own
    settings.REDIS_URL = own
    if url == settings.CELERY_BROKER_URL:
        settings.CELERY_BROKER_URL = own
        app.conf.update(broker_url=own)


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The slow tests first, within what pytest-django's order allows: with ``--dist worksteal``
    the two workers then share the long ones from the start and end together, instead of one
    worker running a long test alone at the end while the other waits.

    pytest-django runs the tests on a rolled-back database before those that commit (and flush
    the tables at their end, data migrations' rows included); that order is kept: slow tests go
    first within each of its groups, and slow tests without a database (the load runs, the
    random whole games) before everything."""
    items.sort(key=_place)


def _place(item: pytest.Item) -> tuple[int, bool]:
    slow = item.get_closest_marker("slow") is not None
    group = _django_group(item)
    return (-1 if slow and group == 2 else group, not slow)


def _django_group(item: pytest.Item) -> int:
    """pytest-django's order: 0 a rolled-back database, 1 a committing one, 2 none."""
    fixtures = getattr(item, "fixturenames", ())
    marker = item.get_closest_marker("django_db")
    committing = marker is not None and bool(
        marker.kwargs.get("transaction") or marker.kwargs.get("reset_sequences")
    )
    if committing or "transactional_db" in fixtures or "live_server" in fixtures:
        return 1
    if marker is not None or "db" in fixtures:
        return 0
    return 2


@pytest.hookimpl(wrapper=True)
def pytest_runtest_protocol(
    item: pytest.Item, nextitem: pytest.Item | None
) -> Generator[None, object, object]:
    from tests import hygiene

    hygiene.current[0] = item.nodeid
    try:
        return (yield)
    finally:
        hygiene.current[0] = ""


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(
    item: pytest.Item, call: pytest.CallInfo[Any]
) -> Generator[None, pytest.TestReport, pytest.TestReport]:
    """A failure's report never takes the run down.  CPython 3.11 before 3.11.8 shares the AST
    constructor's recursion counter between threads (gh-106905): pytest's traceback formatting
    parses source with ``ast`` and, while another thread does too (a worker thread logging a
    traceback), raises ``SystemError: AST constructor recursion depth mismatch``, which crashed
    the xdist worker and ended the whole run.  The report is made again (the counter is
    consistent once the other thread is done) or, failing that, written without source."""
    try:
        return (yield)
    except SystemError as error:
        if "recursion depth mismatch" not in str(error):
            raise
        for _ in range(3):
            try:
                return _make_report(item, call)
            except SystemError:
                _pause(0.2)
        return _plain_report(item, call)


def _make_report(item: pytest.Item, call: pytest.CallInfo[Any]) -> pytest.TestReport:
    return pytest.TestReport.from_item_and_call(item, call)


def _pause(seconds: float) -> None:
    time.sleep(seconds)


def _plain_report(item: pytest.Item, call: pytest.CallInfo[Any]) -> pytest.TestReport:
    """The failure as one line of text: nothing for the AST formatter to parse."""
    error = call.excinfo.value if call.excinfo else None
    assert call.when != "collect"  # a test's phase: setup, call or teardown
    return pytest.TestReport(
        nodeid=item.nodeid,
        location=item.location,
        keywords=dict.fromkeys(item.keywords, 1),
        outcome="failed",
        longrepr=f"{type(error).__name__}: {error} (traceback not shown: the AST formatter failed)",
        when=call.when,
        duration=call.duration,
        start=call.start,
        stop=call.stop,
        user_properties=item.user_properties,
    )


@pytest.fixture(autouse=True)
def _nothing_outlives_its_test() -> Iterator[None]:
    """Every thread the test started has ended, and no Celery task ran where this test did not
    expect one (tests/hygiene.py)."""
    from tests import hygiene

    before = set(threading.enumerate())
    hygiene.take_strays()
    yield
    left = hygiene.threads_left(before)
    strays = hygiene.take_strays()
    problems = [f"thread {t.name!r} ({type(t).__name__}) is still running" for t in left] + strays
    if problems:
        pytest.fail("the test left something behind: " + "; ".join(problems), pytrace=False)


@pytest.fixture(autouse=True)
def _no_language_left_behind() -> Iterator[None]:
    """The test ends in the language it began in: a language left active (a request's, an
    ``activate`` without its ``deactivate``) would make every later test in the process speak
    it.  The language is put back, and the test that left it fails."""
    from django.utils import translation

    before = translation.get_language()
    yield
    after = translation.get_language()
    if after != before:
        if before is None:
            translation.deactivate_all()
        else:
            translation.activate(before)
        pytest.fail(f"the test left the language {after!r} active (it began in {before!r})", pytrace=False)


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
    from games import services
    from games.presentation import steps
    from notifications.outbound import moderation

    services.clear_caches()
    steps.clear_cache()  # the replay timelines are keyed the same way
    moderation.clear_cache()  # and a rollback's undone moves
