"""The ``moderators`` group: its members (active, and staff to log in to the admin) use the
moderators' admin (games.admin).  The admin decides by membership, not by model permissions,
so the group carries none."""

from __future__ import annotations

from django.db import migrations
from django.db.backends.base.schema import BaseDatabaseSchemaEditor
from django.db.migrations.state import StateApps

MODERATORS = "moderators"


def create(apps: StateApps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    Group = apps.get_model("auth", "Group")
    Group.objects.using(schema_editor.connection.alias).get_or_create(name=MODERATORS)


def remove(apps: StateApps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    """Only an empty group goes: members are someone's decision, not this migration's."""
    Group = apps.get_model("auth", "Group")
    Group.objects.using(schema_editor.connection.alias).filter(name=MODERATORS, user__isnull=True).delete()


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0002_event_append_only"),
        ("auth", "0012_alter_user_first_name_max_length"),
    ]
    operations = [migrations.RunPython(create, remove)]
