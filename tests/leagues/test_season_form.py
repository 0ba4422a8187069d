"""A season's options and clock are form fields in the admin, checked as the game checks them,
and stored in the same shape as before (only what the season chose)."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User
from django.urls import reverse

from games.services.timing import TimeControls
from leagues.admin.seasonform import SeasonForm
from leagues.models import League, Season
from leagues.seating import _clock

pytestmark = pytest.mark.django_db


@pytest.fixture
def league() -> League:
    return League.objects.create(name="East Cup", slug="east")


def form(league: League, **fields: Any) -> SeasonForm:
    data = {"league": league.pk, "name": "Spring", "signup_open": "on", "rules": "whitelotus", **fields}
    return SeasonForm(data=data)


def test_options_are_fields_of_the_seasons_game_and_only_those_set_are_stored(league):
    chosen = form(league, option__whitelotus__negotiation="yes", option__whitelotus__ricefield_extra="must")
    assert chosen.is_valid(), chosen.errors
    season = chosen.save()
    assert season.options == {"negotiation": True, "ricefield_extra": "must"}
    # the other game's fields do not count for a White Lotus season
    other = form(league, option__verbotenestadt__partners="yes")
    assert other.is_valid(), other.errors
    assert other.save().options == {}


def test_an_option_value_the_game_does_not_take_is_an_error_beside_its_field(league):
    refused = form(league, option__whitelotus__adjacency="diagonal")
    assert not refused.is_valid()
    assert (
        "White Lotus cannot play these options: adjacency must be 'any' or 'own'"
        in refused.errors["__all__"][0]
    )
    refused = form(league, option__whitelotus__zero_card="perhaps")
    assert not refused.is_valid() and "option__whitelotus__zero_card" in refused.errors


def test_the_clock_is_fields_stored_as_time_controls(league):
    chosen = form(
        league,
        clock__hours_per_decision="36",
        clock__reminder_hours="4; 24",
        clock__quiet_weekends="yes",
        clock__vacation_days="7",
    )
    assert chosen.is_valid(), chosen.errors
    season = chosen.save()
    assert season.time_controls == {
        "hours_per_decision": 36.0,
        "reminder_hours": [24.0, 4.0],
        "quiet_weekends": True,
        "vacation_days": 7,
    }
    clock = _clock(season)
    assert (clock.hours_per_decision, clock.reminder_hours, clock.quiet_weekends) == (36, (24, 4), True)
    assert clock.grace_hours == TimeControls().grace_hours  # not set: the default
    no_deadlines = form(league, clock__hours_per_decision="0")
    assert no_deadlines.is_valid() and no_deadlines.save().time_controls == {"hours_per_decision": None}


@pytest.mark.parametrize(
    ("field", "value", "says"),
    [
        ("clock__reminder_hours", "a day", "separated by commas"),
        ("clock__reminder_hours", "24, -1", "above 0"),
        ("clock__hours_per_decision", "-3", "greater than or equal to 0"),
        ("clock__warn_after_defaults", "0", "greater than or equal to 1"),
    ],
)
def test_a_clock_value_that_cannot_be_is_an_error_beside_its_field(league, field, value, says):
    refused = form(league, **{field: value})
    assert not refused.is_valid()
    assert says in " ".join(refused.errors[field])


def test_the_admin_page_shows_the_fields_filled_from_the_season(client, league):
    root = User.objects.create_superuser("root", "root@example.org", "pw")
    client.force_login(root)
    season = Season.objects.create(
        league=league,
        name="Autumn",
        options={"negotiation": True},
        time_controls={"hours_per_decision": 72, "reminder_hours": [24, 4]},
    )
    page = client.get(reverse("admin:leagues_season_change", args=[season.pk])).content.decode()
    assert "<textarea" not in page  # no JSON box left
    assert 'name="option__whitelotus__negotiation"' in page
    assert '<option value="yes" selected>yes</option>' in page
    assert 'name="clock__hours_per_decision" value="72"' in page
    assert 'value="24, 4"' in page
    assert "Options of White Lotus" in page and "Clock" in page
