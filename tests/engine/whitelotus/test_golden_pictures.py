"""The board picture (SVG), the text board and the operator's text of hand-made states and a
finished golden game, pinned by files: every change to what they draw shows here as a diff.

A change meant (a picture redrawn) is regenerated with
``python -m tests.engine.whitelotus.test_golden_pictures`` and the diff read before it is committed."""

from __future__ import annotations

import sys
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from games.rules.whitelotus.operatortext import operator_text
from games.rules.whitelotus.picture import board_svg
from games.rules.whitelotus.record import parse_record
from games.rules.whitelotus.state import Bidding, State
from games.rules.whitelotus.textboard import text_board
from games.rules.whitelotus.views import view
from tests.engine.whitelotus.helpers import BOARD, area, blank, hands, holds, markers, tiles

HERE = Path(__file__).parent / "golden"
NAMES = {"red": "Ada", "blue": "Bartholomew Longname", "green": "Cy", "yellow": "Dee", "purple": "Eve"}


def _crowded() -> State:
    """Year 3: chips and neutral tiles, one to four markers in a province, a rebel leader,
    a bidding under way in which blue has sealed its bid."""
    s = blank(4, year=3, emperor="green")
    s = tiles(s, Kunming="temple", Chengdu="fort")
    s = holds(s, "red", Hangzhou="palace", Fuzhou="village", Yanan="ricefield")
    s = holds(s, "blue", Quanzhou="temple", Jinan="fort")
    s = holds(s, "yellow", Yangzhou="village")
    s = markers(
        s,
        Ningxia=("red", "blue", "green", "yellow"),
        Lanzhou=("blue",),  # brown: out of play with four players, so not drawn
        Kunming=("yellow",),  # one marker on a neutral temple
        Wuchang=("red", "green"),
    )
    s = hands(s, influence={"red": 4, "blue": 9}, army={"red": 2})
    bids: tuple[tuple[int, int] | None, ...] = (None, (3, 2), None, None)
    return replace(s, rebel=1, phase=Bidding(0, area("Ningxia"), 0b1111, bids))


def _finished() -> State:
    _, final = parse_record((HERE / "kosmos-5p-seed7.txt").read_text())
    return final


STATES = {"crowded": _crowded, "finished": _finished}
# a seat's picture is the spectator's (no hands); the operator reads the seat's hand
VIEWERS: dict[str, int | None] = {"spectator": None, "seat1": 1}


def drawn(name: str, viewer: str) -> dict[str, Any]:
    seen = view(STATES[name](), VIEWERS[viewer])
    return {
        "svg": board_svg(BOARD, seen, names=NAMES) + "\n",
        "txt": "\n".join(text_board(seen, NAMES)) + "\n",
        "operator.txt": "\n".join(operator_text(seen, NAMES)) + "\n",
    }


KINDS = {"spectator": ("svg", "txt", "operator.txt"), "seat1": ("operator.txt",)}
CASES = [(n, v, kind) for n in STATES for v in VIEWERS for kind in KINDS[v]]


@pytest.mark.parametrize(("name", "viewer", "kind"), CASES)
def test_the_picture_the_text_board_and_the_operators_text_draw_what_they_drew(name, viewer, kind):
    expected = (HERE / "pictures" / f"{name}-{viewer}.{kind}").read_text(encoding="utf-8")
    assert drawn(name, viewer)[kind] == expected


def regenerate() -> None:
    for name in STATES:
        for viewer in VIEWERS:
            for kind, text in drawn(name, viewer).items():
                if kind not in KINDS[viewer]:
                    continue
                (HERE / "pictures" / f"{name}-{viewer}.{kind}").write_text(text, encoding="utf-8")
                print(f"{name}-{viewer}.{kind}: {len(text)} characters", file=sys.stderr)


if __name__ == "__main__":
    regenerate()
