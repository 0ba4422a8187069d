"""The board as text, for mails (the picture comes with the game pages), drawn from a view."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext as _

from .plaintext import WIDTH, wrap_line
from .words import building, colour

HANG = 4  # columns a player's wrapped line is indented by, so it does not read as the next player


def board_lines(view: Mapping[str, Any], names: Mapping[str, str]) -> list[str]:
    """Provinces in play (number, name, lotus/dragon, building, owner, markers), then the
    players (name, emperor, VP chips, chips on the board, score).  ``names`` maps a colour to
    the player's name."""
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
    lines.append("    " + _("* lotus area   D dragon   [ ] control markers"))
    lines.append("")
    for p in view["players"]:
        chips = ", ".join(f"{building(k)} {v}" for k, v in p["chips"].items() if v) or "-"
        crown = " " + _("(emperor)") if p["emperor"] else ""
        line = _("{colour} {name}{crown}: chips {chips}; VP chips {vp}; score {score}").format(
            colour=colour(p["colour"]),
            name=names.get(p["colour"], ""),
            crown=crown,
            chips=chips,
            vp=p["vp_chips"],
            score=p["score"]["total"],
        )
        lines += _fit(line)
    return lines


def _fit(line: str) -> list[str]:
    """A player's line in 80 columns: broken after a "; " (French " ; ") where it can, the
    rest indented, so a late game's long list of chips stays readable in a text client."""
    if len(line) <= WIDTH:
        return [line]
    out: list[str] = []
    for part in re.split(r"(?<=;) ", line):
        joined = f"{out[-1]} {part}" if out else part
        if out and len(joined) <= WIDTH:
            out[-1] = joined
        else:
            out += wrap_line(part if not out else " " * HANG + part, WIDTH, HANG)
    return out
