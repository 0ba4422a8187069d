"""The mail preferences a process keeps (``notifications.services.kept_preferences``): read
once per player and game on Postgres, and read again after any change, in this process or
announced by another."""

from __future__ import annotations

import threading
import time

import pytest
from django.db import connection, connections, transaction
from django.test.utils import CaptureQueriesContext

from games.models import Player
from notifications.models import MailPreference
from notifications.services import kept_preferences, preferences

pytestmark = pytest.mark.django_db(transaction=True)

Mode = MailPreference.Mode


def _on_postgres() -> None:
    if connection.vendor != "postgresql":
        pytest.skip("the rows are kept only where the connection listens (Postgres)")


def _reads(player: Player) -> int:
    with CaptureQueriesContext(connection) as queries:
        preferences.of(player.pk, None)
    return sum("notifications_mailpreference" in q["sql"] for q in queries.captured_queries)


def test_a_players_preferences_are_read_once_then_kept() -> None:
    _on_postgres()
    player = Player.objects.create(name="Ann", email="ann@example.com")
    assert _reads(player) == 1
    assert _reads(player) == 0


def test_a_setting_saved_here_is_read_at_once() -> None:
    _on_postgres()
    player = Player.objects.create(name="Ann", email="ann@example.com")
    assert preferences.of(player.pk, None).mode == Mode.DECISIONS
    preferences.apply(player, None, preferences.parse("mail all"))
    assert preferences.of(player.pk, None).mode == Mode.ALL


def test_a_setting_another_process_commits_is_heard_before_the_next_move() -> None:
    _on_postgres()
    player = Player.objects.create(name="Ann", email="ann@example.com")
    opened, write = threading.Event(), threading.Event()

    def another_process() -> None:  # its own connection, and nothing of this process's memory
        db = connections["default"]
        db.ensure_connection()  # (a new connection makes this process forget what it kept)
        db.connection.remove_notify_handler(kept_preferences._heard)
        opened.set()
        write.wait()
        with db.cursor() as cursor:
            cursor.execute(
                "INSERT INTO notifications_mailpreference (player_id, mode, updated_at) "
                "VALUES (%s, 'all', now())",
                [player.pk],
            )
            cursor.execute("SELECT pg_notify(%s, %s)", [kept_preferences.CHANNEL, str(player.pk)])
        db.close()

    worker = threading.Thread(target=another_process)
    worker.start()
    opened.wait()
    assert preferences.of(player.pk, None).mode == Mode.DECISIONS
    assert _reads(player) == 0  # kept
    write.set()
    worker.join()
    time.sleep(0.2)  # the announcement on its way to this connection
    with transaction.atomic():
        assert preferences.of(player.pk, None).mode == Mode.ALL
