"""The time-zone choice on a player's own page: the zones people of the page's language most
often live in first, then every other zone under its region ("Europe", "America"…), each named
as the reader's language names its place: the city and its country, from the Unicode CLDR
through Babel ("Wien (Österreich)", "Vienne (Autriche)", "Vienna (Austria)"), never the zone
database's English ("Europe/Vienna").  What ``zoneinfo`` lists but is no place to live by is
left out ("Factory", "localtime", the ``posix/`` and ``right/`` copies); every real zone, the
old aliases ("US/Eastern", "CET") under "Other" included, stays choosable.
"""

from __future__ import annotations

import zoneinfo
from collections.abc import Mapping
from functools import cache

from babel import Locale, UnknownLocaleError
from babel.core import get_global
from babel.dates import get_timezone_location
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
        "America/Toronto",  # Montreal's too (America/Montreal is its old name)
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
    groups = _choices(language[:2] or "en", gettext("Common time zones"), gettext("Other"), _regions())
    return [(heading, list(items)) for heading, items in groups]  # the cached lists stay as they are


def _regions() -> tuple[tuple[str, str], ...]:
    return tuple((region, str(label)) for region, label in REGIONS.items())


@cache
def _choices(language: str, common_heading: str, other: str, regions: tuple[tuple[str, str], ...]) -> Choices:
    known = set(zones())
    common = [z for z in (*COMMON.get(language, COMMON["en"]), "UTC") if z in known]
    groups: Choices = [(common_heading, [(z, place(z, language)) for z in common])]
    by_region: dict[str, list[tuple[str, str]]] = {}
    named = dict(regions)
    for zone in zones():
        # an old name of a zone (America/Montreal is Toronto's) is under "Other", with its
        # name: under its region it would read as a second Toronto
        region = zone.split("/", 1)[0] if "/" in zone and _canonical(zone) == zone else ""
        region = region if region in named else ""
        label = place(zone, language) if region else _other(zone, language)
        by_region.setdefault(region, []).append((zone, label))
    for region, label in regions:
        if region in by_region:
            groups.append((label, sorted(by_region[region], key=lambda choice: choice[1].casefold())))
    groups.append((other, by_region.get("", [])))
    return groups


def _locale(language: str) -> Locale:
    try:
        return Locale.parse(language)
    except (UnknownLocaleError, ValueError):
        return Locale.parse("en")


def place(zone: str, language: str) -> str:
    """Where ``zone`` is, in ``language``: its city and country as the CLDR names them
    ("Wien (Österreich)"), the city alone where the zone is its country's only one or the
    CLDR knows no country ("UTC")."""
    locale = _locale(language)
    city = str(get_timezone_location(zone, locale=locale, return_city=True))
    territory = get_global("zone_territories").get(_canonical(zone), "")
    country = locale.territories.get(territory, "") if territory not in ("", "001", "ZZ") else ""
    return f"{city} ({country})" if country and country != city else city


def _canonical(zone: str) -> str:
    aliases: Mapping[str, str] = get_global("zone_aliases")
    return aliases.get(zone, zone)


def _other(zone: str, language: str) -> str:
    """A zone of no region (an old alias, a fixed offset): its name, and where it is when the
    CLDR knows a place for it ("US/Eastern · New York (Vereinigte Staaten)")."""
    shown = zone.replace("_", " ")
    if zone.startswith("Etc/") or zone in ("UTC", "GMT"):
        return shown
    canonical = _canonical(zone)
    if canonical == zone and "/" not in zone:
        return shown
    return f"{shown} · {place(zone, language)}"
