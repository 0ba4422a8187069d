"""The board picture reads without colour and small: every owner carries a letter on its
provinces, markers and card, the five buildings have five silhouettes, and the mail's PNG is
a small palette PNG that keeps every fill exactly."""

from __future__ import annotations

import io
import itertools
import xml.etree.ElementTree as ET

import pytest
import resvg_py
from django.utils import translation
from django.utils.translation import gettext
from PIL import Image

from games.presentation.picture.raster import PALETTE_SIZE, palette_png
from games.rules import whitelotus as wl
from games.rules.drawing.geometry import label_rect
from games.rules.drawing.style import EMPTY_FILL, LAND, NEUTRAL_FILL, PLAYER_FILL, SEA
from games.rules.whitelotus import panel
from games.rules.whitelotus.constants import COLOURS
from games.rules.whitelotus.icons import icon
from games.rules.whitelotus.panel import BUILDINGS, LETTERS
from games.rules.whitelotus.picture import CELL
from tests.games.pictures import NAMES, SVG, board_png, board_svg, provinces, six_player_bidding


def letter(colour: str) -> str:
    """The owner's letter of a colour in the active language."""
    return panel.letter(colour, gettext)


def by_class(element: ET.Element, name: str) -> list[ET.Element]:
    return [e for e in element.iter() if e.get("class") == name]


@pytest.mark.parametrize("language", ["en", "de", "fr"])
def test_each_owners_letter_is_on_the_provinces_it_owns_its_markers_and_its_card(language):
    state = six_player_bidding()
    view = wl.view(state, None)
    with translation.override(language):
        root = ET.fromstring(board_svg(state.board, view, names=NAMES))
        letters = {colour: letter(colour) for colour in COLOURS}
    assert len(set(letters.values())) == len(COLOURS), f"{language}: two owners share a letter"
    assert all(1 <= len(text) <= 2 for text in letters.values())
    drawn = provinces(root)
    owned = [a for a in view["areas"] if a["owner"]]
    assert len({a["owner"] for a in owned}) >= 4  # enough owners to tell apart
    for area in view["areas"]:
        g = drawn[area["number"]]
        marks = [(t.get("data-colour"), t.text) for t in by_class(g, "owner")]
        assert marks == ([(area["owner"], letters[area["owner"]])] if area["owner"] else [])
        discs = [(t.get("data-colour"), t.text) for t in by_class(g, "marker-letter")]
        assert discs == [(m, letters[m]) for m in area["markers"]]
    cards = {g.attrib["data-colour"]: g for g in by_class(root, "player")}
    for colour, card in cards.items():
        assert [t.text for t in by_class(card, "letter")] == [letters[colour]]


def test_the_english_letters_are_the_colours_initials():
    with translation.override("en"):
        assert {c: letter(c) for c in COLOURS} == {c: c[0].upper() for c in COLOURS} == LETTERS


def test_markers_stay_inside_a_narrow_province_and_apart():
    state = six_player_bidding()
    view = wl.view(state, None)
    narrowest = min((p for p in state.board.provinces if p.cells), key=lambda p: label_rect(p.cells).w)
    assert label_rect(narrowest.cells).w == 3
    # all six players' markers in the narrowest province
    areas = [dict(a, markers=list(COLOURS)) if a["number"] == narrowest.number else a for a in view["areas"]]
    root = ET.fromstring(board_svg(state.board, dict(view, areas=areas)))
    g = provinces(root)[narrowest.number]
    shape = g.find(f"{SVG}path")
    assert shape is not None
    xs = [
        float(v)
        for i, v in enumerate(shape.attrib["d"].replace("M", " ").replace("Z", " ").split())
        if i % 2 == 0
    ]
    discs = [c for c in g.iter(f"{SVG}circle") if c.get("class") == "marker"]
    centres = [float(c.attrib["cx"]) for c in discs]
    r = float(discs[0].attrib["r"])
    assert len(discs) == 6
    rect = label_rect(narrowest.cells)  # where the markers go: its widest rectangle of cells
    left = min(xs) + (rect.x - min(x for x, _ in narrowest.cells)) * CELL
    assert left < centres[0] - r and centres[-1] + r < left + rect.w * CELL
    assert all(b - a >= 2 * r for a, b in itertools.pairwise(centres))  # discs do not overlap


def silhouette(kind: str) -> set[int]:
    """The pixels an icon inks, drawn alone 4x at its board size."""
    svg = (
        '<svg xmlns="http://www.w3.org/2000/svg" viewBox="-13 -13 26 26" width="104" height="104">'
        '<rect x="-13" y="-13" width="26" height="26" fill="#ffffff"/>'
        f"{icon(kind, 0, 0, '#000000', '#ffffff')}</svg>"
    )
    image = Image.open(io.BytesIO(bytes(resvg_py.svg_to_bytes(svg_string=svg)))).convert("L")
    return {i for i, value in enumerate(image.tobytes()) if value < 128}


def test_each_building_has_its_own_silhouette():
    shapes = {kind: silhouette(kind) for kind in BUILDINGS}
    assert all(len(s) > 300 for s in shapes.values())  # each one is drawn, not a speck
    for a, b in itertools.combinations(BUILDINGS, 2):
        overlap = len(shapes[a] & shapes[b]) / len(shapes[a] | shapes[b])
        # the old palace and village, a house with one roof or two, overlapped 0.59
        assert overlap < 0.55, (a, b, round(overlap, 2))


def test_the_mail_png_is_a_small_palette_png_with_every_fill_exact():
    state = six_player_bidding()
    view = wl.view(state, None)
    png = board_png(state.board, view, names=NAMES)
    image = Image.open(io.BytesIO(png))
    assert image.mode == "P"
    assert len(png) < 42_000  # resvg's true-colour PNG of the same picture: about 109 kB
    assert image.width == 1008
    colours = {rgb for _, rgb in image.convert("RGB").getcolors(maxcolors=256) or []}
    fills = {*PLAYER_FILL.values(), NEUTRAL_FILL, EMPTY_FILL, LAND, SEA}
    for fill in fills:
        assert tuple(int(fill[k : k + 2], 16) for k in (1, 3, 5)) in colours, fill
    # the anti-aliased edges of text keep their steps: the fills take about 15 of the palette
    assert len(colours) > PALETTE_SIZE - 5


def test_a_picture_of_few_colours_goes_through_the_palette_unchanged():
    original = Image.new("RGB", (40, 30), (10, 20, 30))
    original.paste((200, 100, 50), (5, 5, 25, 20))
    original.paste((1, 2, 3), (36, 26, 38, 28))  # a speck of 2x2 pixels, as small as a colour is kept
    buffer = io.BytesIO()
    original.save(buffer, format="PNG")
    out = Image.open(io.BytesIO(palette_png(buffer.getvalue())))
    assert out.mode == "P"
    assert out.convert("RGB").tobytes() == original.tobytes()
