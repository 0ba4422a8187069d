"""Table talk: ``Game.press`` (who may say what) and the append-only ``Press`` messages.

Press rows are refused UPDATE and DELETE by the database, as events are (migration 0002);
games that have White Lotus's negotiation variant get ``full`` press, the others ``public``
(the default of ``games.services.create_game``)."""

from __future__ import annotations

import django.db.models.deletion
from django.db import migrations, models
from django.db.backends.base.schema import BaseDatabaseSchemaEditor
from django.db.migrations.state import StateApps

POSTGRES_UP = """
CREATE OR REPLACE FUNCTION games_press_append_only() RETURNS trigger AS $$
BEGIN
    RAISE EXCEPTION 'games_press is append-only: % refused', TG_OP
        USING ERRCODE = 'insufficient_privilege';
END;
$$ LANGUAGE plpgsql;
CREATE TRIGGER games_press_no_update BEFORE UPDATE ON games_press
    FOR EACH ROW EXECUTE FUNCTION games_press_append_only();
CREATE TRIGGER games_press_no_delete BEFORE DELETE ON games_press
    FOR EACH ROW EXECUTE FUNCTION games_press_append_only();
"""
POSTGRES_DOWN = """
DROP TRIGGER IF EXISTS games_press_no_update ON games_press;
DROP TRIGGER IF EXISTS games_press_no_delete ON games_press;
DROP FUNCTION IF EXISTS games_press_append_only();
"""
SQLITE_UP = [
    """CREATE TRIGGER games_press_no_update BEFORE UPDATE ON games_press
       BEGIN SELECT RAISE(ABORT, 'games_press is append-only: UPDATE refused'); END;""",
    """CREATE TRIGGER games_press_no_delete BEFORE DELETE ON games_press
       BEGIN SELECT RAISE(ABORT, 'games_press is append-only: DELETE refused'); END;""",
]
SQLITE_DOWN = ["DROP TRIGGER IF EXISTS games_press_no_update;", "DROP TRIGGER IF EXISTS games_press_no_delete;"]


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


def negotiation_full(apps: StateApps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    Game = apps.get_model("games", "Game")
    for game in Game.objects.filter(rules="whitelotus").only("pk", "options"):
        if (game.options or {}).get("negotiation"):
            Game.objects.filter(pk=game.pk).update(press="full")


class Migration(migrations.Migration):

    dependencies = [
        ('games', '0008_edition_of_any_game'),
    ]

    operations = [
        migrations.AddField(
            model_name='game',
            name='press',
            field=models.CharField(choices=[('full', 'full (to all and private)'), ('public', 'public (only to all)'), ('none', 'none (gunboat)')], default='public', max_length=6),
        ),
        migrations.CreateModel(
            name='Press',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('seat', models.PositiveSmallIntegerField()),
                ('to_all', models.BooleanField()),
                ('to_seats', models.JSONField(default=list)),
                ('text', models.TextField()),
                ('seq', models.PositiveIntegerField()),
                ('inbound_message_id', models.CharField(blank=True, max_length=255)),
                ('created_at', models.DateTimeField(auto_now_add=True)),
                ('game', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='press_messages', to='games.game')),
                ('player', models.ForeignKey(db_index=False, on_delete=django.db.models.deletion.PROTECT, related_name='+', to='games.player')),
            ],
            options={
                'verbose_name_plural': 'press',
                'ordering': ('game', 'created_at', 'pk'),
                'indexes': [models.Index(fields=['game', 'seat', 'created_at'], name='press_by_seat_idx')],
            },
        ),
        migrations.RunPython(up, down),
        migrations.RunPython(negotiation_full, migrations.RunPython.noop),
    ]
