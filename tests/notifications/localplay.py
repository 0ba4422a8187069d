"""Local play in tests: mail goes to the local mailbox, replies go by SMTP into the service's
own listener on a free port, and tasks run in the process that commits (as in scripts/serve
without a broker), whatever broker the environment names."""

from __future__ import annotations

import importlib
from collections.abc import Iterator
from typing import Any

import pytest
from aiosmtpd.controller import Controller
from asgiref.sync import SyncToAsync
from django.db import connection, connections

from notifications.inbound.smtp import controller
from tests.notifications.mailbox import free_port
from whitelotus.celery import app as celery_app

LOCAL_BACKEND = "notifications.localmail.backend.EmailBackend"


@pytest.fixture
def local_play(settings: Any, transactional_db: None) -> Iterator[Controller]:
    """The SMTP listener runs in its own thread: the data it writes must be committed for the
    test to see it, hence a transactional database (SQLite shares its in-memory test database
    between threads; Postgres in CI)."""
    settings.EMAIL_BACKEND = LOCAL_BACKEND
    settings.LOCAL_MAILBOX = True
    port = free_port()
    server = controller("127.0.0.1", port)
    server.start()
    settings.SMTPD_HOST, settings.SMTPD_PORT = "127.0.0.1", port
    eager = celery_app.conf.task_always_eager
    celery_app.conf.task_always_eager = True
    try:
        yield server
    finally:
        celery_app.conf.task_always_eager = eager
        server.stop()
        # the listener wrote from asgiref's one sync thread: give its connection back, or the
        # test database cannot be dropped at the end of the run
        SyncToAsync.single_thread_executor.submit(connections.close_all).result()
        empty_event_log_on_sqlite()


def empty_event_log_on_sqlite() -> None:
    """The teardown of a transactional test empties every table: Postgres by TRUNCATE, which
    the append-only trigger allows; SQLite by DELETE, which it refuses.  So on SQLite the
    events (and the table talk, ``games.Press``) go here, with their triggers lifted for that
    moment only."""
    if connection.vendor != "sqlite":
        return
    migration = importlib.import_module("games.migrations.0002_event_append_only")
    talk = importlib.import_module("games.migrations.0009_press_table_talk")  # table talk, likewise
    with connection.cursor() as cursor:
        cursor.execute("DROP TRIGGER IF EXISTS games_event_no_delete")
        cursor.execute("DROP TRIGGER IF EXISTS games_press_no_delete")
        try:
            cursor.execute("DELETE FROM games_press")
            cursor.execute("DELETE FROM games_event")
        finally:
            cursor.execute(migration.SQLITE_UP[1])
            cursor.execute(talk.SQLITE_UP[1])
