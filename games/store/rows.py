"""Writing rows on the move path without the ORM's query compiler.

A move writes a handful of rows (its events, the pending decisions they change, the outbox
rows of its mails), each through a statement whose shape never changes.  Building that
statement anew with ``Model.save`` or ``bulk_create`` cost as much as running it on
Postgres (``bench.submit``), so these helpers build it once per model and prepare each value
with its own field, exactly as ``Model.save`` would (``auto_now_add`` stamped, JSON
adapted), and return what the ORM would have set on the objects (their ids).
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from django.db import connection, connections, models

_local = threading.local()


@cache
def _fields(model: type[models.Model]) -> tuple[Any, ...]:
    return tuple(f for f in model._meta.concrete_fields if not f.primary_key)


@cache
def _head(model: type[models.Model], vendor: str) -> tuple[str, str]:
    """``INSERT INTO table (columns) VALUES`` and the placeholders of one row."""
    fields = _fields(model)
    columns = ", ".join(connection.ops.quote_name(f.column) for f in fields)
    return (
        f"INSERT INTO {connection.ops.quote_name(model._meta.db_table)} ({columns}) VALUES ",
        f"({', '.join('%s' for _ in fields)})",
    )


def insert(objs: Sequence[models.Model], before: Sequence[tuple[str, list[Any]]] = ()) -> None:
    """``INSERT ... RETURNING id`` of new objects of one model, in one statement; their ids
    are set and they count as saved.  On Postgres the statements ``before`` (``UPDATE`` s
    whose results nobody reads) go in the same statement as data-modifying ``WITH`` queries:
    one round trip for all.  Elsewhere (SQLite) they run first, one by one.  Inside
    ``together()`` nothing is sent yet: it all goes at its end."""
    if not objs and not before:
        return
    batch: _Batch | None = getattr(_local, "batch", None)
    if batch is not None:
        batch.before += before
        batch.objs += objs
        return
    _send(list(before), list(objs))


@contextmanager
def together() -> Iterator[None]:
    """Every ``insert`` inside goes out at the end, in one statement on Postgres (a move's
    events, the pending decisions they change and its outbox rows: one round trip).  Only
    around code that does not read those rows back before the end; on an error nothing is
    sent (the transaction fails anyway).  Nested, the inner one sends its own at its end (a
    savepoint that fails around it takes them back with it)."""
    outer: _Batch | None = getattr(_local, "batch", None)
    _local.batch = batch = _Batch()
    try:
        yield
    finally:
        _local.batch = outer
    _send(batch.before, batch.objs)


@dataclass
class _Batch:
    before: list[tuple[str, list[Any]]] = field(default_factory=list)
    objs: list[models.Model] = field(default_factory=list)


def _send(before: list[tuple[str, list[Any]]], objs: list[models.Model]) -> None:
    groups: dict[type[models.Model], list[models.Model]] = {}
    for obj in objs:
        groups.setdefault(type(obj), []).append(obj)
    models_ = list(groups)
    params: list[Any] = []
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            if not models_:  # updates only
                for sql, values in before:
                    cursor.execute(sql, values)
                return
            # where the driver binds on the client, the values go into the text as it would
            # put them itself: its parsing of a text with hundreds of placeholders is never
            # cached, and cost more than the statement takes on the server
            quote = _quoter(cursor)
            ctes = []
            for n, (sql, values) in enumerate(before):
                if quote is not None:
                    sql, values = cursor.mogrify(sql, values), []
                ctes.append(f"changed{n} AS ({sql})")
                params += values
            for n, model in enumerate(models_):
                if quote is not None:
                    sql, values = _insert_text(groups[model], quote), []
                else:
                    sql, values = _insert_sql(groups[model])
                ctes.append(f"inserted{n} AS ({sql})")
                params += values
            picks = " UNION ALL ".join(f"SELECT {n}, id FROM inserted{n}" for n in range(len(models_)))
            cursor.execute(f"WITH {', '.join(ctes)} {picks}", params or None)
            ids = cursor.fetchall()
        else:
            for sql, values in before:
                cursor.execute(sql, values)
            ids = []
            for n, model in enumerate(models_):
                sql, values = _insert_sql(groups[model])
                cursor.execute(sql, values)
                ids += [(n, pk) for (pk,) in cursor.fetchall()]
    for n, model in enumerate(models_):  # Postgres and SQLite return them in order
        got = [pk for m, pk in ids if m == n]
        for obj, pk in zip(groups[model], got, strict=True):
            obj.pk = pk
            obj._state.adding = False
            obj._state.db = connection.alias


def _insert_sql(objs: list[models.Model]) -> tuple[str, list[Any]]:
    model = type(objs[0])
    fields = _fields(model)
    start, row = _head(model, connection.vendor)
    params = [f.get_db_prep_save(f.pre_save(obj, True), connection) for obj in objs for f in fields]
    return f"{start}{', '.join(row for _ in objs)} RETURNING id", params


def _quoter(cursor: Any) -> Callable[[Any], str] | None:
    """How the driver writes a value into the text of a statement, where it binds values on
    the client (psycopg's client-side cursors, Django's default on Postgres); else None."""
    raw: Any = getattr(cursor, "cursor", None)
    if connection.vendor != "postgresql" or not hasattr(raw, "mogrify"):
        return None
    from psycopg.adapt import Transformer

    literal = Transformer.from_context(raw).as_literal
    encoding = raw.connection.info.encoding

    def quote(value: Any) -> str:
        return "NULL" if value is None else literal(value).decode(encoding)

    return quote


def _insert_text(objs: list[models.Model], quote: Callable[[Any], str]) -> str:
    """``_insert_sql`` with its values written in."""
    model = type(objs[0])
    fields = _fields(model)
    db = connections[connection.alias]  # the connection itself, not the proxy that looks it up
    start, _ = _head(model, db.vendor)
    rows = ", ".join(
        f"({', '.join(quote(f.get_db_prep_save(f.pre_save(obj, True), db)) for f in fields)})" for obj in objs
    )
    return f"{start}{rows} RETURNING id"
