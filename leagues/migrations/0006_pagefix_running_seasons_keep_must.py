"""Seasons that began before White Lotus's options ``ricefield_extra`` and ``temple_draw``
existed keep the reading they began with (``must``): their next rounds would otherwise be
created with the new defaults (``may``) in mid-season.  New seasons get the defaults."""

from django.db import migrations

OLD_READING = {"ricefield_extra": "must", "temple_draw": "must"}


def keep_must(apps, schema_editor):
    Season = apps.get_model("leagues", "Season")
    for season in Season.objects.filter(rules="whitelotus"):
        options = dict(season.options or {})
        missing = {name: value for name, value in OLD_READING.items() if name not in options}
        if missing:
            season.options = {**options, **missing}
            season.save(update_fields=["options"])


class Migration(migrations.Migration):
    dependencies = [
        ("leagues", "0005_merge_bot_after_defaults"),
    ]

    operations = [
        migrations.RunPython(keep_must, migrations.RunPython.noop),
    ]
