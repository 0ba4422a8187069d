"""White Lotus in words for plain-text mails: the board as text (``text_board``) and what a
decision asks (``decision_text``), drawn from a seat's view.

Pure: every sentence and word is an English msgid passed through ``translate`` (gettext on
the service's side; the German and French are in this package's own catalogue, ``locale/``),
so the game's package needs no Django.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import Any

from .. import text as shared

Translate = Callable[[str], str]

WIDTH = shared.WIDTH  # a mail's text columns (notifications.plaintext.WIDTH)
HANG = 4  # columns a player's wrapped line is indented by, so it does not read as the next player

COLOURS = {
    "red": "Red",
    "blue": "Blue",
    "green": "Green",
    "yellow": "Yellow",
    "purple": "Purple",
    "orange": "Orange",
}
BUILDINGS = {
    "palace": "palace",
    "temple": "temple",
    "fort": "fort",
    "ricefield": "ricefield",
}
DECISIONS = {
    "place": "place a control marker",
    "resolve": "choose the next contested area",
    "bid": "make a sealed bid",
    "out": "break a tie",
    "lead": "lead a rebellion or decline",
    "side": "choose a side and commit army (sealed)",
    "army": "commit army (sealed)",
    "take": "take an area as spoils",
    "first": "choose who picks spoils first",
    "palace": "choose what your palaces give",
    "tile": "place the tile you drew",
    "draw": "draw a temple's extra tile or pass",
}
# decisions about one province name it: "make a sealed bid for Yanan (10)"
DECISIONS_FOR = {
    "bid": "make a sealed bid for {area}",
    "out": "break the tie for {area}",
}
LEGEND = "* lotus area   D dragon   [ ] control markers"
EMPEROR = "(emperor)"
PLAYER_LINE = "{colour} {name}{crown}: chips {chips}; VP chips {vp}; score {score}"


def _same(text: str) -> str:
    return text


def decision_text(view: Mapping[str, Any] | None, kind: str, translate: Translate = _same) -> str:
    """The decision in words; with the view it is about, naming the province it is about."""
    area = _area(view) if view is not None and kind in DECISIONS_FOR else ""
    if area:
        return translate(DECISIONS_FOR[kind]).format(area=area)
    return translate(DECISIONS.get(kind, kind))


def text_board(view: Mapping[str, Any], names: Mapping[str, str], translate: Translate = _same) -> list[str]:
    """Provinces in play (number, name, lotus/dragon, building, owner, markers), then the
    players (name, emperor, VP chips, chips on the board, score).  ``names`` maps a colour to
    the player's name."""

    def colour(name: str) -> str:
        return translate(COLOURS.get(name, name))

    def building(name: str) -> str:
        return translate(BUILDINGS.get(name, name))

    areas = [a for a in view["areas"] if a["in_play"]]
    width = max(len(a["name"]) for a in areas)
    built = (
        max(len(building(a["building"])) for a in areas if a["building"])
        if any(a["building"] for a in areas)
        else 1
    )
    lines = []
    for a in areas:
        marks = ("*" if a["lotus"] else " ") + ("D" if a["dragon"] else " ")
        owner = colour(a["owner"]) if a["owner"] else "-"
        markers = f"  [{', '.join(colour(m) for m in a['markers'])}]" if a["markers"] else ""
        held = building(a["building"]) if a["building"] else "-"
        lines.append(
            f"{a['number']:>3} {a['name']:<{width}} {marks} {held:<{built}}  {owner}{markers}".rstrip()
        )
    lines.append("    " + translate(LEGEND))
    lines.append("")
    for p in view["players"]:
        chips = ", ".join(f"{building(k)} {v}" for k, v in p["chips"].items() if v) or "-"
        crown = " " + translate(EMPEROR) if p["emperor"] else ""
        line = translate(PLAYER_LINE).format(
            colour=colour(p["colour"]),
            name=names.get(p["colour"], ""),
            crown=crown,
            chips=chips,
            vp=p["vp_chips"],
            score=p["score"]["total"],
        )
        lines += _fit(line)
    return lines


def msgids() -> list[str]:
    """Every string ``text_board`` and ``decision_text`` pass to ``translate`` (for the
    service's catalogue checks)."""
    return [
        *COLOURS.values(),
        *BUILDINGS.values(),
        *DECISIONS.values(),
        *DECISIONS_FOR.values(),
        LEGEND,
        EMPEROR,
        PLAYER_LINE,
    ]


def _area(view: Mapping[str, Any]) -> str:
    name = view.get("step", {}).get("area")
    number = next((a["number"] for a in view.get("areas", []) if a["name"] == name), None)
    return f"{name} ({number})" if name and number is not None else name or ""


def _fit(line: str) -> list[str]:
    """A player's line in 76 columns: broken after a "; " (French " ; ") where it can, the
    rest indented, so a late game's long list of chips stays readable in a text client."""
    if len(line) <= WIDTH:
        return [line]
    out: list[str] = []
    for part in re.split(r"(?<=;) ", line):
        joined = f"{out[-1]} {part}" if out else part
        if out and len(joined) <= WIDTH:
            out[-1] = joined
        else:
            out += _wrap(part if not out else " " * HANG + part)
    return out


def _wrap(line: str) -> list[str]:
    """Broken between words only, a number kept with the word before it: the wrapping the
    mail's text part goes through anyway (``notifications.plaintext``), with a hanging indent."""
    return shared.wrap_line(line, WIDTH, HANG)
