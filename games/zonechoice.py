"""The time-zone choice on a player's own page: the zones people of the page's language most
often live in first, then every other zone under its region ("Europe", "America"…), the city
written as people write it ("New York", not "New_York").  What ``zoneinfo`` lists but is no
place to live by is left out ("Factory", "localtime", the ``posix/`` and ``right/`` copies);
every real zone, the old aliases ("US/Eastern", "CET") under "Other" included, stays choosable.
"""

from __future__ import annotations

import zoneinfo
from functools import cache

from django.utils.functional import Promise
from django.utils.translation import gettext, gettext_lazy

# not zones a person lives in: a build placeholder, the machine's own zone, and copies
NOT_ZONES = frozenset({"Factory", "localtime", "posixrules"})
COPIES = ("posix/", "right/")

# the common zones first, by the page's language (UTC for everyone)
COMMON = {
    "de": ("Europe/Berlin", "Europe/Vienna", "Europe/Zurich", "Europe/Luxembourg", "Europe/Brussels"),
    "fr": (
        "Europe/Paris",
        "Europe/Brussels",
        "Europe/Zurich",
        "Europe/Luxembourg",
        "America/Toronto",
        "America/Montreal",
        "Africa/Casablanca",
        "Africa/Dakar",
        "Indian/Reunion",
        "America/Martinique",
    ),
    "en": (
        "Europe/London",
        "Europe/Dublin",
        "America/New_York",
        "America/Chicago",
        "America/Denver",
        "America/Los_Angeles",
        "America/Toronto",
        "Australia/Sydney",
        "Pacific/Auckland",
        "Asia/Kolkata",
    ),
}

REGIONS: dict[str, Promise] = {
    "Africa": gettext_lazy("Africa"),
    "America": gettext_lazy("America"),
    "Antarctica": gettext_lazy("Antarctica"),
    "Arctic": gettext_lazy("Arctic"),
    "Asia": gettext_lazy("Asia"),
    "Atlantic": gettext_lazy("Atlantic"),
    "Australia": gettext_lazy("Australia"),
    "Europe": gettext_lazy("Europe"),
    "Indian": gettext_lazy("Indian Ocean"),
    "Pacific": gettext_lazy("Pacific"),
}

Choices = list[tuple[str, list[tuple[str, str]]]]


@cache
def zones() -> tuple[str, ...]:
    """Every zone a player may choose, sorted."""
    known = zoneinfo.available_timezones() | {"UTC"}
    return tuple(sorted(z for z in known if z not in NOT_ZONES and not z.startswith(COPIES)))


def choices(language: str) -> Choices:
    """The zones grouped for a ``<select>``: the common ones for ``language`` first."""
    known = set(zones())
    common = [z for z in (*COMMON.get(language[:2], COMMON["en"]), "UTC") if z in known]
    groups: Choices = [(gettext("Common time zones"), [(z, _label(z, whole=True)) for z in common])]
    by_region: dict[str, list[tuple[str, str]]] = {}
    for zone in zones():
        region = zone.split("/", 1)[0] if "/" in zone and zone.split("/", 1)[0] in REGIONS else ""
        by_region.setdefault(region, []).append((zone, _label(zone, whole=not region)))
    for region, label in REGIONS.items():
        if region in by_region:
            groups.append((str(label), by_region[region]))
    groups.append((gettext("Other"), by_region.get("", [])))
    return groups


def _label(zone: str, whole: bool) -> str:
    """``Europe/Berlin`` as "Europe / Berlin" (or "Berlin" under its region's heading)."""
    shown = zone if whole else zone.split("/", 1)[1]
    return shown.replace("_", " ").replace("/", " / ")
