"""Die Verbotene Stadt's board picture (games/rules/verbotenestadt/picture.py): drawn from a view only,
officials told apart without colour, no dial, and the same raster code makes its PNG."""

from __future__ import annotations

import io
import xml.etree.ElementTree as ET
from typing import Any

import pytest
from django.utils import translation
from PIL import Image

from games.presentation.picture.raster import svg_to_png
from games.rules.drawing import incremental
from games.rules.verbotenestadt import picture
from games.rules.verbotenestadt.board import load_board

SVG = "{http://www.w3.org/2000/svg}"
LABELS = picture.LABELS
BOARD = load_board("forbidden_city")
COLOURS = ["red", "yellow", "blue", "green", "black"]
LETTERS = {"red": "r", "yellow": "y", "blue": "b", "green": "g", "black": "k"}
CODES = [LETTERS[h] + LETTERS[r] for h in COLOURS for r in COLOURS]
HAT = {LETTERS[c]: c for c in COLOURS}
NAMES = {"north": "Anna", "east": 'Bertrand <b>&"x"', "south": "Chiara"}


def board_svg(board: Any, view: Any, **kw: Any) -> str:
    """The picture in the active language (the pages and mails pass their gettext so)."""
    return picture.board_svg(board, view, translate=translation.gettext, **kw)


def hand_view(*, dial: str | None = "rg", terrace: int = 12, finished: bool = False) -> dict[str, Any]:
    """A view in the format the coordinator fixed, written by hand: ``terrace`` officials on
    the terrace, the rest in the start area, one of them slid north out of it."""
    on_terrace = CODES[:terrace]
    free = [(r, c) for r in range(5, 10) for c in range(5, 10) if (r, c) != (5, 7)]
    squares: dict[str, list[int] | None] = {code: None for code in on_terrace}
    for code, square in zip(CODES[terrace:], free, strict=False):
        squares[code] = list(square)
    if "kk" not in on_terrace:
        squares["kk"] = [3, 7]
    officials = [{"code": c, "hat": HAT[c[0]], "robe": HAT[c[1]], "square": squares[c]} for c in CODES]
    pavilion_colours = ["red", "orange", "yellow", "white", "blue", "purple", "green", "black"]
    return {
        "game": "verbotenestadt",
        "board": "forbidden_city",
        "phase": "move",
        "finished": finished,
        "active": None if finished else 1,
        "target": None if finished else 7,
        "officials": officials,
        "terrace": on_terrace,
        "pavilions": [
            {"number": i + 1, "colour": c, "cards_left": 3 - i % 3} for i, c in enumerate(pavilion_colours)
        ],
        "players": [
            {
                "seat": 0,
                "colour": "north",
                "cards": [
                    {"colour": "red", "piece": "hat"},
                    {"colour": "red", "piece": "trousers"},
                    {"colour": "white", "piece": "coat"},
                ],
                "score": {"total": 5},
                "partner": None,
            },
            {"seat": 1, "colour": "east", "cards": [], "score": {"total": 0}, "partner": None},
            {
                "seat": 2,
                "colour": "south",
                "cards": [
                    {"colour": c, "piece": p} for c in pavilion_colours for p in ("hat", "coat", "trousers")
                ],
                "score": {"total": 80},
                "partner": None,
            },
        ],
        "dial": {"code": dial} if dial else None,
        "fate": {"moves": 2, "last": {"die": "middle", "face": "red-dragon"}},
        "last_move": {"code": "kk", "path": [[5, 7], [4, 7], [3, 7]]},
        "pending": [{"seat": 1, "colour": "east", "kind": "move"}],
    }


def groups(root: ET.Element, cls: str) -> list[ET.Element]:
    return [g for g in root.iter(f"{SVG}g") if g.get("class") == cls]


def texts(element: ET.Element) -> list[str]:
    return ["".join(t.itertext()) for t in element.iter(f"{SVG}text")]


def test_every_official_is_drawn_where_the_view_says_with_its_code():
    view = hand_view()
    root = ET.fromstring(board_svg(BOARD, view, names=NAMES))
    drawn = {g.get("data-code"): g for g in groups(root, "official")}
    assert set(drawn) == set(CODES)
    for official in view["officials"]:
        g = drawn[official["code"]]
        assert official["code"] in texts(g)
        assert g.get("data-hat") == official["hat"] and g.get("data-robe") == official["robe"]
        if official["square"] is None:
            slot = view["terrace"].index(official["code"]) + 1
            assert g.get("data-where") == f"terrace-{slot}"
        else:
            assert g.get("data-square") == ",".join(map(str, official["square"]))


def test_hat_and_robe_are_told_apart_without_colour():
    """Drawn in one ink, two officials still differ: the hat's letter and the robe's marks."""
    root = ET.fromstring(board_svg(BOARD, hand_view(terrace=0), names=NAMES))
    drawn = {g.get("data-code"): g for g in groups(root, "official")}

    def shapes(g: ET.Element) -> str:
        """The official's drawing with every colour taken out: what a greyscale reader sees
        apart from the lightness of the fills, and without the code written under it."""
        out = []
        for element in g.iter():
            if element.get("class") == "code":
                continue
            attrs = {k: v for k, v in element.attrib.items() if k not in {"fill", "stroke"}}
            out.append((element.tag, sorted(attrs.items()), element.text if element.tag != f"{SVG}g" else ""))
        return repr(out[1:])

    def normalised(g: ET.Element) -> str:
        x, y = (float(v) for v in str(g.get("data-bbox")).split()[:2])
        return shapes(g).replace(f"{x:g}", "X").replace(f"{y:g}", "Y")

    for code, g in drawn.items():
        hat_letter = [t for t in texts(g) if t != code]
        assert hat_letter == [code[0].upper()], code
    # five robe patterns: different numbers or kinds of marks
    kinds = {code[1]: normalised(drawn[code]) for code in CODES if code[0] == "r"}
    assert len(set(kinds.values())) == 5


def test_pavilions_show_their_number_cards_left_and_the_target():
    view = hand_view()
    root = ET.fromstring(board_svg(BOARD, view, names=NAMES))
    pavilions = {int(g.get("data-number", 0)): g for g in groups(root, "pavilion")}
    assert sorted(pavilions) == list(range(1, 9))
    for seen in view["pavilions"]:
        g = pavilions[seen["number"]]
        assert str(seen["number"]) in texts(g)
        assert g.get("data-cards-left") == str(seen["cards_left"])
        assert g.get("data-target") == ("true" if seen["number"] == 7 else "false")
    assert root.get("data-target") == "7"
    assert "Target: pavilion 7 (green)." in texts(root)


def test_the_terrace_and_the_last_move_are_drawn():
    root = ET.fromstring(board_svg(BOARD, hand_view(), names=NAMES))
    terrace = [g for g in groups(root, "official") if g.get("data-where", "").startswith("terrace")]
    assert len(terrace) == 12
    assert "Terrace of banishment" in texts(root)
    (path,) = groups(root, "last-move")
    assert path.get("data-code") == "kk"


def test_no_dial_is_drawn_and_every_seat_sees_the_same_picture():
    svgs = {board_svg(BOARD, hand_view(dial=d), names=NAMES) for d in ("rg", "kk", None)}
    assert len(svgs) == 1
    svg = svgs.pop()
    assert "dial" not in svg.lower()


def test_player_names_are_escaped_cards_and_scores_shown():
    root = ET.fromstring(board_svg(BOARD, hand_view(), names=NAMES))
    players = {g.get("data-colour"): g for g in groups(root, "player")}
    assert 'east Bertrand <b>&"x"' in texts(players["east"])
    assert players["east"].get("data-active") == "true"
    assert len(groups(players["south"], "card")) == 24
    assert "80 points" in texts(players["south"])
    card = groups(players["north"], "card")[0]
    assert (card.get("data-colour"), card.get("data-piece")) == ("red", "hat")
    # 24 cards still fit the picture's width
    width = float(root.get("width", 0))
    for rect in players["south"].iter(f"{SVG}rect"):
        assert float(rect.get("x", 0)) + float(rect.get("width", 0)) <= width


def test_it_rasterises_to_a_png_with_the_same_raster_code():
    svg = board_svg(BOARD, hand_view(), names=NAMES)
    png = svg_to_png(svg, 1008)
    image = Image.open(io.BytesIO(png))
    assert image.format == "PNG" and image.width == 1008
    width, height = (float(v) for v in ET.fromstring(svg).get("viewBox", "").split()[2:])
    assert image.height == round(height * 1008 / width)
    assert len(image.convert("RGB").getcolors(maxcolors=1 << 16) or ()) > 8  # not blank


def test_its_parts_can_be_redrawn_incrementally():
    """Every part the next picture may change has an id and a box: a move changes few."""
    before = incremental.parts(board_svg(BOARD, hand_view(terrace=12), names=NAMES))
    after = incremental.parts(board_svg(BOARD, hand_view(terrace=13), names=NAMES))
    assert before[incremental.GROUND] == after[incremental.GROUND]
    changed = {k for k in before if before[k] != after.get(k)}
    assert changed and changed <= {"official-yb", "official-kk", "panel", "last-move"} | {
        k for k in before if k.startswith("official-")
    }


def test_partners_are_named_in_the_panel():
    view = hand_view()
    view["players"].append({"seat": 3, "colour": "west", "cards": [], "score": {"total": 0}, "partner": 1})
    view["players"][1]["partner"] = 3
    root = ET.fromstring(board_svg(BOARD, view, names=NAMES))
    players = {g.get("data-colour"): g for g in groups(root, "player")}
    assert any("(partner: west)" in t for t in texts(players["east"]))
    assert not any("partner" in t for t in texts(players["north"]))


def test_a_finished_game_says_so():
    root = ET.fromstring(board_svg(BOARD, hand_view(finished=True), names=NAMES))
    assert "The game is over." in texts(root)
    assert root.get("data-target") == ""


@pytest.mark.parametrize("language", ["de", "fr"])
def test_every_word_of_the_picture_is_translated(language: str):
    words = [LABELS[k] for k in ("target", "terrace", "points", "over", "partner")]
    words += ["north", "east", "south", *COLOURS]
    with translation.override(language):
        same = {"fr": {"{score} points"}}.get(language, set())  # French says it the same
        assert [w for w in words if translation.gettext(w) == w and w not in same] == []
        svg = board_svg(BOARD, hand_view(), names=NAMES)
    assert "Terrace of banishment" not in svg
