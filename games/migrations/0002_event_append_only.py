"""Events are append-only: the database refuses UPDATE and DELETE on games_event.

Postgres gets a trigger function that raises; SQLite (the embedded default) gets two
triggers that abort.  Nothing in the code updates an event; this makes sure nothing can.
TRUNCATE (an operator's act on the whole table, used by test teardown) is not refused.
"""

from __future__ import annotations

from django.db import migrations
from django.db.backends.base.schema import BaseDatabaseSchemaEditor
from django.db.migrations.state import StateApps

POSTGRES_UP = """
CREATE OR REPLACE FUNCTION games_event_append_only() RETURNS trigger AS $$
BEGIN
    RAISE EXCEPTION 'games_event is append-only: % refused', TG_OP
        USING ERRCODE = 'insufficient_privilege';
END;
$$ LANGUAGE plpgsql;
CREATE TRIGGER games_event_no_update BEFORE UPDATE ON games_event
    FOR EACH ROW EXECUTE FUNCTION games_event_append_only();
CREATE TRIGGER games_event_no_delete BEFORE DELETE ON games_event
    FOR EACH ROW EXECUTE FUNCTION games_event_append_only();
"""
POSTGRES_DOWN = """
DROP TRIGGER IF EXISTS games_event_no_update ON games_event;
DROP TRIGGER IF EXISTS games_event_no_delete ON games_event;
DROP FUNCTION IF EXISTS games_event_append_only();
"""
SQLITE_UP = [
    """CREATE TRIGGER games_event_no_update BEFORE UPDATE ON games_event
       BEGIN SELECT RAISE(ABORT, 'games_event is append-only: UPDATE refused'); END;""",
    """CREATE TRIGGER games_event_no_delete BEFORE DELETE ON games_event
       BEGIN SELECT RAISE(ABORT, 'games_event is append-only: DELETE refused'); END;""",
]
SQLITE_DOWN = [
    "DROP TRIGGER IF EXISTS games_event_no_update;",
    "DROP TRIGGER IF EXISTS games_event_no_delete;",
]


def _run(schema_editor: BaseDatabaseSchemaEditor, postgres: str, sqlite: list[str]) -> None:
    vendor = schema_editor.connection.vendor
    if vendor == "postgresql":
        schema_editor.execute(postgres, params=None)
    elif vendor == "sqlite":
        for statement in sqlite:
            schema_editor.execute(statement)
    else:
        raise RuntimeError(f"no append-only trigger for {vendor}; add one before using it")


def up(apps: StateApps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    _run(schema_editor, POSTGRES_UP, SQLITE_UP)


def down(apps: StateApps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    _run(schema_editor, POSTGRES_DOWN, SQLITE_DOWN)


class Migration(migrations.Migration):
    dependencies = [("games", "0001_initial")]
    operations = [migrations.RunPython(up, down)]
