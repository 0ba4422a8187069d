"""The time-zone choice on a player's own page (games.presentation.zonechoice): common zones first, regions
after, no non-zones, every real zone still there."""

from __future__ import annotations

import zoneinfo

import pytest
from django.utils import translation

from games.presentation import zonechoice
from games.web import forms


def _values(groups: zonechoice.Choices) -> list[str]:
    return [value for _, options in groups for value, _ in options]


def test_a_german_reader_finds_berlin_first_and_the_regions_in_german():
    with translation.override("de"):
        groups = zonechoice.choices("de")
    heading, common = groups[0]
    assert heading == "Häufige Zeitzonen"
    assert common[0] == ("Europe/Berlin", "Berlin (Deutschland)") and ("UTC", "UTC") in common
    assert [heading for heading, _ in groups][1:4] == ["Afrika", "Amerika", "Antarktis"]
    europe = dict(dict(groups)["Europa"])
    assert europe["Europe/Paris"] == "Paris (Frankreich)"


@pytest.mark.parametrize(
    ("language", "region", "named"),
    [
        ("de", "Europa", {"Europe/Vienna": "Wien (Österreich)", "Europe/Moscow": "Moskau (Russland)"}),
        ("fr", "Europe", {"Europe/Vienna": "Vienne (Autriche)", "Europe/London": "Londres (Royaume-Uni)"}),
        ("de", "Asien", {"Asia/Kolkata": "Kalkutta (Indien)"}),
        ("fr", "Amérique", {"America/New_York": "New York (États-Unis)"}),
    ],
)
def test_a_zone_is_named_as_the_readers_language_names_its_place(language, region, named):
    with translation.override(language):
        groups = dict(zonechoice.choices(language)[1:])  # the regions (the common zones repeat some)
    found = dict(groups[region])
    assert {zone: found[zone] for zone in named} == named
    labels = [
        label
        for heading, options in groups.items()
        if heading not in ("Andere", "Autres")
        for _, label in options
    ]
    assert not [label for label in labels if "/" in label or "_" in label]  # no zone database names
    assert len(labels) == len(set(labels)), "two zones named alike"


def test_an_old_name_of_a_zone_is_offered_under_other_with_the_place_it_names():
    with translation.override("fr"):
        other = dict(dict(zonechoice.choices("fr"))["Autres"])
    assert other["US/Eastern"] == "US/Eastern · New York (États-Unis)"
    assert other["America/Montreal"] == "America/Montreal · Toronto (Canada)"


def test_a_french_reader_finds_paris_first_and_an_english_one_london():
    assert zonechoice.choices("fr")[0][1][0][0] == "Europe/Paris"
    assert zonechoice.choices("en")[0][1][0][0] == "Europe/London"
    with translation.override("en"):  # the region headings are said in the active language
        america = dict(zonechoice.choices("en"))["America"]
    assert ("America/New_York", "New York (United States)") in america


def test_non_zones_are_left_out_and_every_real_zone_is_still_offered():
    offered = set(_values(zonechoice.choices("en")))
    for not_a_zone in ("Factory", "localtime", "posixrules"):
        assert not_a_zone not in offered
    real = {z for z in zoneinfo.available_timezones() if z not in zonechoice.NOT_ZONES}
    real = {z for z in real if not z.startswith(zonechoice.COPIES)}
    assert real | {"UTC"} <= offered
    assert {"US/Eastern", "Etc/GMT+5"} <= offered  # old aliases and fixed offsets: under "Other"


def test_the_settings_form_offers_the_grouped_zones_and_accepts_any_of_them():
    with translation.override("de"):
        form = forms.SettingsForm(data={"mode": "decisions", "language": "de", "time_zone": "Asia/Tokyo"})
        assert form.fields["time_zone"].choices[0][0] == "Häufige Zeitzonen"
        assert form.is_valid(), form.errors
        refused = forms.SettingsForm(data={"mode": "decisions", "language": "de", "time_zone": "Factory"})
        assert not refused.is_valid()
