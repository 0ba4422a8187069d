"""The mail preference rows each process keeps, per player and game: every move that might
fold a mail asks for them (``outbox.write``), and they change only when a player sets them.

Sound because every process hears of every change.  A row saved or deleted is forgotten at
once by the process that writes it, and announced to every process by a ``NOTIFY`` in the
transaction that writes it (Postgres delivers it once that commits).  Each connection
``LISTEN`` s from the moment it opens, and the process forgets all it kept whenever one
opens (it may have missed announcements meanwhile).  An announcement reaches a connection
while it is idle, and is taken in before the rows kept are used: a reader sees every change
committed before its transaction began, but for one committed in the moment before (the
announcement still on its way), which it reads as if it came first.  A player
whose rows this process changed in a transaction not yet committed is not kept (a rollback
would leave rows that never were).

Only where the connection listens (Postgres); elsewhere (SQLite: the tests, a laptop)
every read goes to the database.
"""

from __future__ import annotations

import threading
import weakref
from collections.abc import Callable
from typing import Any

from django.db import connection, transaction
from django.db.backends.signals import connection_created
from django.db.models.signals import post_delete, post_save
from django.dispatch import receiver

from notifications.models import MailPreference

CHANNEL = "mail_preferences"
_MOST = 20_000  # players kept; past it, the process starts again from nothing

Row = tuple[int, "int | None", str, "bool | None"]  # player, game, mode, picture

_lock = threading.Lock()
_kept: dict[int, dict[int, tuple[Row, ...]]] = {}  # player -> game (0: none) -> their rows
_unsettled: set[int] = set()
_listening: weakref.WeakSet[Any] = weakref.WeakSet()  # the psycopg connections that listen


def rows(
    player_ids: list[int], game_id: int | None, read: Callable[[list[int], int | None], list[Row]]
) -> list[Row]:
    """``read(player_ids, game_id)``, from what this process keeps where it may."""
    raw = connection.connection
    if raw is None or raw not in _listening:
        return read(player_ids, game_id)
    _hear(raw)
    game = game_id or 0
    found: list[Row] = []
    missing: list[int] = []
    with _lock:
        for player in player_ids:
            kept = _kept.get(player, {}).get(game)
            if kept is None:
                missing.append(player)
            else:
                found += kept
    if not missing:
        return found
    fresh = read(missing, game_id)
    with _lock:
        if len(_kept) > _MOST:
            _kept.clear()
        for player in missing:
            if player not in _unsettled:
                _kept.setdefault(player, {})[game] = tuple(r for r in fresh if r[0] == player)
    return found + fresh


def _hear(raw: Any) -> None:
    """Take in the announcements that reached the connection (no round trip: what is in its
    socket already), which the driver would otherwise read only with its next answer."""
    pgconn = raw.pgconn
    pgconn.consume_input()
    while (notify := pgconn.notifies()) is not None:
        if pgconn.notify_handler is not None:
            pgconn.notify_handler(notify)


def forget(player: int) -> None:
    with _lock:
        _kept.pop(player, None)


def forget_all() -> None:
    with _lock:
        _kept.clear()


@receiver(post_save, sender=MailPreference, dispatch_uid="notifications.kept_preferences.saved")
@receiver(post_delete, sender=MailPreference, dispatch_uid="notifications.kept_preferences.deleted")
def _changed(sender: Any, instance: MailPreference, **kwargs: Any) -> None:
    player = instance.player_id
    forget(player)
    if connection.vendor != "postgresql":
        return
    with _lock:
        _unsettled.add(player)
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_notify(%s, %s)", [CHANNEL, str(player)])

    def settled() -> None:
        with _lock:
            _unsettled.discard(player)
            _kept.pop(player, None)

    transaction.on_commit(settled)


@receiver(connection_created, dispatch_uid="notifications.kept_preferences.listen")
def _listen(sender: Any, connection: Any, **kwargs: Any) -> None:
    if connection.vendor != "postgresql":
        return
    with connection.cursor() as cursor:
        cursor.execute(f"LISTEN {CHANNEL}")
    raw = connection.connection
    raw.add_notify_handler(_heard)
    with _lock:
        _kept.clear()
        _listening.add(raw)


def _heard(notify: Any) -> None:
    if notify.channel == CHANNEL:
        try:
            forget(int(notify.payload))
        except ValueError:
            forget_all()
