"""Game words in the reader's language (the engine speaks English; its words are msgids)."""

from __future__ import annotations

from django.utils.translation import gettext, gettext_noop

COLOURS = {
    "red": gettext_noop("Red"),
    "blue": gettext_noop("Blue"),
    "green": gettext_noop("Green"),
    "yellow": gettext_noop("Yellow"),
    "purple": gettext_noop("Purple"),
    "orange": gettext_noop("Orange"),
}
BUILDINGS = {
    "palace": gettext_noop("palace"),
    "temple": gettext_noop("temple"),
    "fort": gettext_noop("fort"),
    "ricefield": gettext_noop("ricefield"),
}
DECISIONS = {
    "place": gettext_noop("place a control marker"),
    "resolve": gettext_noop("choose the next contested area"),
    "bid": gettext_noop("make a sealed bid"),
    "out": gettext_noop("break a tie"),
    "lead": gettext_noop("lead a rebellion or decline"),
    "side": gettext_noop("choose a side and commit army (sealed)"),
    "army": gettext_noop("commit army (sealed)"),
    "take": gettext_noop("take an area as spoils"),
    "first": gettext_noop("choose who picks spoils first"),
    "palace": gettext_noop("choose what your palaces give"),
    "tile": gettext_noop("place the tile you drew"),
}


SCORE_PARTS = gettext_noop(
    "buildings {buildings} + dragons {dragons} + largest territory {territory} "
    "({size} areas) + VP chips {chips}"
)


def score_parts(row: dict[str, int]) -> str:
    """A final score's parts, e.g. "buildings 23 + dragons 0 + largest territory 3 (14 areas) + ..."."""
    return gettext(SCORE_PARTS).format(
        buildings=row["buildings"],
        dragons=row["dragons"],
        territory=row["territory"],
        size=row["territory_size"],
        chips=row["chips"],
    )


def colour(name: str) -> str:
    return gettext(COLOURS.get(name, name))


def building(name: str) -> str:
    return gettext(BUILDINGS.get(name, name))


def decision(kind: str) -> str:
    return gettext(DECISIONS.get(kind, kind))
