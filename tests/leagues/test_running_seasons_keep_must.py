"""The data migration that keeps running White Lotus seasons on the rules they began with."""

from __future__ import annotations

import importlib

import pytest
from django.apps import apps

from leagues.models import League, Season

pytestmark = pytest.mark.django_db

migration = importlib.import_module("leagues.migrations.0006_pagefix_running_seasons_keep_must")


def test_existing_white_lotus_seasons_keep_must_and_their_own_choices():
    league = League.objects.create(name="Old league", slug="old")
    bare = Season.objects.create(league=league, name="bare", options={})
    chosen = Season.objects.create(league=league, name="chosen", options={"temple_draw": "may"})
    other = Season.objects.create(league=league, name="vs", rules="verbotenestadt", options={})
    migration.keep_must(apps, None)
    for season in (bare, chosen, other):
        season.refresh_from_db()
    assert bare.options == {"ricefield_extra": "must", "temple_draw": "must"}
    assert chosen.options == {"temple_draw": "may", "ricefield_extra": "must"}
    assert other.options == {}
