"""White Lotus's board picture in tests: drawn in the active language, at a position reached
by simple bots, and read back as SVG."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from functools import cache
from typing import Any

from django.utils.translation import gettext

from games.presentation import picture
from games.rules import whitelotus as wl
from games.rules.whitelotus.constants import COLOURS
from games.rules.whitelotus.selfplay import Bot


def board_svg(board: Any, view: Any, **kw: Any) -> str:
    """The picture in the active language (the pages and mails pass their gettext so)."""
    return picture.board_svg(board, view, translate=gettext, **{"rules": "whitelotus", **kw})


def board_png(board: Any, view: Any, **kw: Any) -> bytes:
    return picture.board_png(board, view, translate=gettext, **{"rules": "whitelotus", **kw})


SVG = "{http://www.w3.org/2000/svg}"


NAMES = {
    "red": "Ada",
    "blue": "Bao",
    "green": 'Chen <b>&"x"',
    "yellow": "Dara",
    "purple": "Emil",
    "orange": "Fang",
}


@cache
def played(players: int, seed: str, phase: str, year: int) -> wl.State:
    """A game of simple bots, stopped at the first ``phase`` of ``year`` or later."""
    # the compulsory extra markers and draws, as when the pictures below were pinned
    options = wl.Options(ricefield_extra="must", temple_draw="must")
    state = wl.setup(wl.Config(wl.Serial.load_board(), COLOURS[:players], options=options), seed)
    bots = [Bot(f"{seed}:bot:{s}") for s in range(players)]
    while decisions := wl.pending(state):
        if state.year >= year and state.phase.name == phase:
            return state
        seat = decisions[0].seat
        state, _ = wl.apply(state, seat, bots[seat].choose(state, seat))
    raise AssertionError(f"the game ended before {phase} in year {year}")


def six_player_bidding() -> wl.State:
    return played(6, "pic", "bidding", 3)


def provinces(root: ET.Element) -> dict[int, ET.Element]:
    return {int(g.attrib["data-number"]): g for g in root.iter(f"{SVG}g") if g.get("class") == "province"}
