"""The board picture says what the view says: read back from the SVG, province by province,
and the PNG is the same drawing rasterised."""

from __future__ import annotations

import io
import json
import xml.etree.ElementTree as ET
from importlib import resources
from typing import Any

import pytest
from django.utils import translation
from django.utils.translation import gettext
from PIL import Image

from games.presentation.picture import PNG_WIDTH
from games.presentation.picture.raster import PALETTE_SIZE, svg_to_png
from games.rules import whitelotus as wl
from games.rules.drawing.geometry import outline
from games.rules.drawing.style import PLAYER_FILL, contrast, text_on
from games.rules.whitelotus.constants import COLOURS
from games.rules.whitelotus.pagewords import PHASES
from games.rules.whitelotus.panel import LABELS
from games.rules.whitelotus.selfplay import play
from tests.games.pictures import NAMES, SVG, board_png, board_svg, played, provinces, six_player_bidding


def parse(svg: str) -> ET.Element:
    return ET.fromstring(svg)


def texts(element: ET.Element) -> list[str]:
    return ["".join(t.itertext()) for t in element.iter(f"{SVG}text")]


def check_provinces_match(view: dict[str, Any], root: ET.Element) -> None:
    drawn = provinces(root)
    assert sorted(drawn) == [a["number"] for a in view["areas"]]
    for area in view["areas"]:
        g = drawn[area["number"]]
        assert g.attrib["id"] == f"province-{area['number']}"
        assert g.attrib["data-owner"] == (area["owner"] or "")
        assert g.attrib["data-building"] == (area["building"] or "")
        assert g.attrib["data-markers"].split() == area["markers"]
        assert g.attrib["data-in-play"] == ("true" if area["in_play"] else "false")
        # what a person sees agrees with the data attributes
        shape = g.find(f"{SVG}path")
        assert shape is not None
        discs = [c.attrib["data-colour"] for c in g.iter(f"{SVG}circle") if c.get("class") == "marker"]
        icons = {i.attrib["class"].split()[-1] for i in g.iter(f"{SVG}g") if "icon" in i.get("class", "")}
        assert texts(g)[:2] == [str(area["number"]), area["name"]]
        if not area["in_play"]:
            assert shape.attrib["fill"] == "url(#out-of-play)"
            assert "not in play" in texts(g)
            assert not discs
            continue
        if area["owner"]:
            assert shape.attrib["fill"] == PLAYER_FILL[area["owner"]]
        assert discs == area["markers"]
        assert (
            ("icon-" + area["building"] in icons)
            if area["building"]
            else not icons
            - {
                "icon-lotus",
                "icon-dragon",
            }
        )
        assert ("icon-lotus" in icons) == area["lotus"]
        assert ("icon-dragon" in icons) == area["dragon"]


def test_every_province_of_a_six_player_game_is_drawn_as_the_view_says():
    state = six_player_bidding()
    view = wl.view(state, None)
    # the game is far enough on to show every kind of province
    assert any(a["owner"] for a in view["areas"])
    assert any(a["markers"] for a in view["areas"])
    assert any(a["building"] and not a["owner"] for a in view["areas"])
    assert any(not a["building"] and not a["owner"] for a in view["areas"])
    assert all(a["in_play"] for a in view["areas"])
    check_provinces_match(view, parse(board_svg(state.board, view, names=NAMES)))


def test_brown_areas_of_a_three_player_game_are_shown_out_of_play():
    state = played(3, "pic3", "placement", 2)
    view = wl.view(state, 0)
    root = parse(board_svg(state.board, view))
    check_provinces_match(view, root)
    out = [n for n, g in provinces(root).items() if g.attrib["data-in-play"] == "false"]
    assert out == [p.number for p in state.board.provinces if p.brown]


def test_a_province_is_one_outline_not_a_square_per_cell():
    state = six_player_bidding()
    root = parse(board_svg(state.board, wl.view(state, None)))
    for number, g in provinces(root).items():
        shape = g.find(f"{SVG}path")
        assert shape is not None
        cells = state.board.provinces[number - 1].cells
        assert shape.attrib["d"].count("M") == len(outline(cells)) == 1


def test_a_province_without_cells_in_its_board_file_is_left_out_of_the_drawing():
    data = json.loads((resources.files("games.rules.whitelotus") / "boards" / "china.json").read_text())
    del data["provinces"][5]["cells"]
    board = wl.Board.from_dict(data)
    state = wl.setup(wl.Config(board, COLOURS[:3]), "no-cells")
    root = parse(board_svg(board, wl.view(state, None)))
    drawn = provinces(root)
    assert len(drawn) == board.size
    assert list(drawn[6]) == []  # its data is there, nothing is drawn
    assert drawn[7].find(f"{SVG}path") is not None


def test_the_panel_shows_year_rulers_bag_and_every_score():
    state = played(6, "pic", "rebellion", 2)
    view = wl.view(state, None)
    assert view["rebel"]
    root = parse(board_svg(state.board, view, names=NAMES))
    panel = next(g for g in root.iter(f"{SVG}g") if g.get("class") == "panel")
    words = " ".join(texts(panel))
    assert f"Year {view['year']}" in words
    assert f"Emperor: {view['emperor'].capitalize()} ({NAMES[view['emperor']]})" in words
    assert f"Rebel leader: {view['rebel'].capitalize()} ({NAMES[view['rebel']]})" in words
    assert f"Tiles in the bag: {view['bag']}" in words
    players = {g.attrib["data-colour"]: g for g in panel.iter(f"{SVG}g") if g.get("class") == "player"}
    assert list(players) == [p["colour"] for p in view["players"]]
    for p in view["players"]:
        card = " ".join(texts(players[p["colour"]]))
        assert f"Score {p['score']['total']} · VP chips {p['vp_chips']}" in card
        assert NAMES[p["colour"]].split()[0] in card
    waiting = {d["colour"] for d in view["pending"]}
    assert waiting
    for colour, g in players.items():
        assert g.attrib["data-to-decide"] == ("true" if colour in waiting else "false")
        assert ("to decide now" in texts(g)) == (colour in waiting)


def test_a_finished_game_names_its_winners_in_the_headline():
    state, _, _ = play(wl.Config(wl.Serial.load_board(), COLOURS[:3]), "pic-over")
    view = wl.view(state, None)
    assert view["outcome"]
    names = {"red": "Ada", "blue": "Bao", "green": "Chen"}
    root = parse(board_svg(state.board, view, names=names))
    headline = next(t for t in root.iter(f"{SVG}text") if t.get("class") == "headline")
    winners = ", ".join(f"{c.capitalize()} ({names[c]})" for c in view["outcome"]["winners"])
    assert headline.text == f"Game over. Winner: {winners}"


def test_player_names_are_escaped_and_read_back_verbatim():
    state = six_player_bidding()
    svg = board_svg(state.board, wl.view(state, None), names=NAMES)
    assert "<b>" not in svg
    root = parse(svg)  # well-formed XML despite the name
    assert any(NAMES["green"] in t for t in texts(root))
    assert root.attrib["role"] == "img" and root.attrib["viewBox"].startswith("0 0 ")
    title = root.find(f"{SVG}title")
    assert title is not None and title.text == "White Lotus board, year 3: bidding for Guangzhou"


def test_control_characters_in_a_name_do_not_break_the_picture():
    state = six_player_bidding()
    svg = board_svg(state.board, wl.view(state, None), names={"red": "Ada\x00\x1b[31m"})
    assert any("Ada[31m" in t for t in texts(parse(svg)))


def test_every_text_is_readable_on_its_fill():
    for fill in PLAYER_FILL.values():
        assert contrast(fill, text_on(fill)) >= 4.5, fill


def lab(hex_colour: str) -> tuple[float, float, float]:
    """CIE L*a*b* (D65) of an sRGB colour."""
    rgb = [int(hex_colour[i : i + 2], 16) / 255 for i in (1, 3, 5)]
    r, g, b = (c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in rgb)
    x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047
    y = 0.2126 * r + 0.7152 * g + 0.0722 * b
    z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883

    def f(t: float) -> float:
        return t ** (1 / 3) if t > 0.008856 else 7.787 * t + 16 / 116

    return 116 * f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z))


def test_the_six_colours_are_far_apart():
    fills = list(PLAYER_FILL.values())
    for i, a in enumerate(fills):
        for b in fills[i + 1 :]:
            delta_e = sum((p - q) ** 2 for p, q in zip(lab(a), lab(b), strict=True)) ** 0.5
            assert delta_e > 30, (a, b)  # CIE76: 30 and more reads as a different colour


def test_a_spectator_and_every_seat_see_the_same_picture_with_no_hand_or_sealed_choice():
    state = played(6, "pic", "bidding", 2)
    bidder = wl.pending(state)[0].seat
    state, _ = wl.apply(state, bidder, wl.legal(state, bidder)[-1])  # one sealed bid is in
    spectator = board_svg(state.board, wl.view(state, None), names=NAMES)
    for seat in range(state.players):
        seat_view = wl.view(state, seat)
        assert board_svg(state.board, seat_view, names=NAMES) == spectator
    private = wl.view(state, bidder)
    assert private["sealed"]
    root = parse(spectator)
    attributes = " ".join(f"{k}={v}" for e in root.iter() for k, v in e.attrib.items())
    for word in ("hand", "influence", "army", "sealed-bid", "against"):
        assert word not in attributes and word not in " ".join(texts(root)), word
    cards = [g for g in root.iter(f"{SVG}g") if g.get("class") == "player"]
    sealed_card = next(g for g in cards if g.attrib["data-colour"] == state.config.colours[bidder])
    assert "has sealed" in texts(sealed_card)  # that a seat sealed is public; what it sealed is not


def test_the_png_is_the_same_drawing_at_mail_size_and_not_blank():
    state = six_player_bidding()
    view = wl.view(state, None)
    svg = board_svg(state.board, view, names=NAMES)
    png = board_png(state.board, view, names=NAMES)
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    assert len(png) < 200_000
    image = Image.open(io.BytesIO(png)).convert("RGB")
    _, _, w, h = (float(v) for v in parse(svg).attrib["viewBox"].split())
    assert image.size == (PNG_WIDTH, round(PNG_WIDTH * h / w))
    colours = image.getcolors(maxcolors=1_000_000)
    # the flat fills (about 15) and the steps of anti-aliased edges: the whole palette is used
    assert colours is not None and len(colours) > PALETTE_SIZE - 5
    # the red of a red province is there, and so is the text
    red = tuple(int(PLAYER_FILL["red"][k : k + 2], 16) for k in (1, 3, 5))
    assert any(c == red for _, c in colours)
    assert any(c == (17, 17, 17) or sum(c) < 100 for _, c in colours)


def test_the_png_is_the_same_bytes_every_time():
    state = six_player_bidding()
    view = wl.view(state, None)
    first = board_png(state.board, view, names=NAMES)
    svg_to_png.cache_clear()  # drawn again, not remembered
    assert board_png(state.board, view, names=NAMES) == first


@pytest.mark.parametrize("width", [900, 1200])
def test_the_png_width_can_be_chosen(width):
    state = six_player_bidding()
    png = board_png(state.board, wl.view(state, None), width=width)
    assert Image.open(io.BytesIO(png)).size[0] == width


@pytest.mark.parametrize("language", ["de", "fr"])
def test_every_word_of_the_picture_is_translated(language):
    with translation.override(language):
        for msgid in [*LABELS.values(), *PHASES.values()]:
            assert gettext(msgid) != msgid, f"{language}: {msgid!r} is not in the catalogue"
        state = six_player_bidding()
        svg = board_svg(state.board, wl.view(state, None))
    assert ("Jahr 3" if language == "de" else "Année 3") in svg
