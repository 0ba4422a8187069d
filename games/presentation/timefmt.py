"""One way to write a moment on every page: the reader's language's date style and its name for
the zone ("30.11.2026, 01:29 MEZ" in German, "30/11/2026 01:29 UTC+1" in French,
"2026-11-30 01:29 CET" in English).

The pattern is a catalogue entry (``{day}.{month}.{year}, …``), so the server (here) and the
browser (``games/static/games/local-times.js``, which rewrites a public page's UTC moments in
the reader's own zone) fill the same pattern: the ``when`` tag hands it to the script in a
``data-pattern`` attribute.  A zone's abbreviation is said as the reader's language says it
(German "MEZ" for CET, French "UTC+1"); a zone without a lettered abbreviation ("+03") is
written as its offset ("UTC+3").
"""

from __future__ import annotations

import re
from datetime import datetime, tzinfo

from django.utils import timezone
from django.utils.translation import gettext, pgettext


def pattern(style: str = "datetime") -> str:
    """The reader's pattern for a moment (``style="date"``: the day alone)."""
    if style == "date":
        return gettext("{year}-{month}-{day}")
    return gettext("{year}-{month}-{day} {hour}:{minute} {zone}")


def reader_time(moment: datetime, zone: tzinfo | None = None, style: str = "datetime") -> str:
    """``moment`` in ``zone`` (by default the active one) as the reader writes it."""
    local = timezone.localtime(moment, zone)
    return pattern(style).format(
        year=f"{local.year:04d}",
        month=f"{local.month:02d}",
        day=f"{local.day:02d}",
        hour=f"{local.hour:02d}",
        minute=f"{local.minute:02d}",
        zone=zone_name(local),
    )


def zone_name(local: datetime) -> str:
    """The zone of ``local`` as the reader's language names it."""
    abbreviation = local.tzname() or "UTC"
    if abbreviation in ("UTC", "GMT", "Z"):
        return "UTC"
    # "+03", "-0330": a zone with no name but its offset; and a language that names zones by
    # their offset (French, as browsers write it there: "UTC+1") says the offset for every zone
    if not re.fullmatch(r"[A-Za-z]+", abbreviation) or pgettext("time zone", "names") == "offsets":
        return _offset(local)
    return pgettext("time zone", abbreviation)


def _offset(local: datetime) -> str:
    offset = local.utcoffset()
    minutes = int(offset.total_seconds() // 60) if offset is not None else 0
    sign = "+" if minutes >= 0 else "−"
    hours, rest = divmod(abs(minutes), 60)
    return f"UTC{sign}{hours}" + (f":{rest:02d}" if rest else "") if minutes else "UTC"
