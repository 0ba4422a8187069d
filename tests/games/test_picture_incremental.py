"""The picture of an event redrawn from the previous one (only the parts that changed) is the
picture drawn whole: the same pixels but for a few anti-aliased edge pixels a few levels off,
and a palette PNG of the same size."""

from __future__ import annotations

import io
import zlib
from typing import cast

import pytest
from PIL import Image, ImageChops

from games.presentation.picture import PNG_WIDTH, board_svg, draw_png, raster
from games.rules import whitelotus as wl
from games.rules.drawing import incremental
from games.rules.whitelotus.constants import COLOURS
from games.rules.whitelotus.selfplay import Bot

COLOURS4 = COLOURS[:4]
NAMES = {c: f"Player {i}" for i, c in enumerate(COLOURS4)}
# levels of 255 where the renderer rounds an edge apart: one step of the palette's anti-aliasing
# ramp (about 25 steps over the fills of a 40-colour palette)
TOLERANCE = 40
STRAY = 100  # pixels of the 1008 x 832 that may differ so, at most (0.01 %)


def boards(seed: str, events: int, skip: int = 0) -> list[str]:
    state = wl.setup(wl.Config(wl.Serial.load_board(), COLOURS4), seed)
    bots = [Bot(f"{seed}:bot:{s}") for s in range(len(COLOURS4))]
    out = []
    for i in range(skip + events):
        if i >= skip:
            out.append(board_svg(state.board, wl.view(state, None), names=NAMES, rules="whitelotus"))
        decision = wl.pending(state)[0]
        state, _ = wl.apply(state, decision.seat, bots[decision.seat].choose(state, decision.seat))
    return out


def rgb(png: bytes) -> Image.Image:
    return Image.open(io.BytesIO(png)).convert("RGB")


@pytest.mark.parametrize("skip", [0, 60])  # the opening, and a board of the second year
def test_each_picture_redrawn_from_the_last_is_the_picture_drawn_whole(skip: int) -> None:
    svgs = boards("incremental", 6, skip)
    drawn = draw_png(svgs[0])
    assert drawn.redrawn is None  # nothing to start from: drawn whole
    redrawn = 0
    for svg in svgs[1:]:
        before = drawn
        drawn = draw_png(svg, PNG_WIDTH, before)
        whole = raster.rasterise(svg, PNG_WIDTH)
        # the same drawing in the palette it was redrawn in: the same pixels
        same_palette = raster.quantise(whole, raster.palette_in(drawn.png)).convert("RGB")
        mine = rgb(drawn.png)
        diff = ImageChops.difference(mine, same_palette)
        stray = sum(n for n, px in (diff.getcolors(1 << 24) or []) if px != (0, 0, 0))
        assert max(high for _, high in cast(list[tuple[int, int]], diff.getextrema())) <= TOLERANCE
        assert stray <= STRAY
        # and drawn whole in its own palette: the few edge pixels of colours new since the
        # palette was made take the nearest it has; the same size
        fresh = rgb(raster.encode(whole))
        off = ImageChops.difference(mine, fresh).convert("L").point(lambda v: 255 if v > 48 else 0)
        assert off.histogram()[255] <= 0.01 * 1008 * 832
        full_png = raster.encode(whole)
        assert abs(len(drawn.png) - len(full_png)) <= 0.03 * len(full_png)
        assert rgb(drawn.png).size == (1008, 832)
        idat = b"".join(data for kind, data in raster._chunks(drawn.png) if kind == b"IDAT")
        assert len(zlib.decompress(idat)) == 832 * 1009  # a valid stream, checksum included
        if drawn.redrawn is not None:
            redrawn += 1
            area = sum((r[2] - r[0]) * (r[3] - r[1]) for r in drawn.redrawn)
            assert area < 0.5 * 1008 * 832
    assert redrawn >= 3  # most events change a few parts only


def test_an_unchanged_board_draws_nothing_and_a_changed_province_only_its_place() -> None:
    svg = boards("incremental", 1)[0]
    parts = incremental.parts(svg)
    assert incremental.dirty(parts, parts, 1.0, (1008, 832)) == []
    changed = svg.replace('data-number="5" ', 'data-number="5" data-x="1" ', 1)
    rects = incremental.dirty(parts, incremental.parts(changed), 1.0, (1008, 832))
    assert rects is not None and len(rects) == 1
    box = parts["province-5"][1]
    x0, y0, x1, y1 = rects[0]
    assert x0 <= box[0] and y0 <= box[1] and x1 >= box[2] and y1 >= box[3]
    assert (x1 - x0) * (y1 - y0) < 0.05 * 1008 * 832
    sea = svg.replace("#bcd6e8", "#bcd6e9")  # the ground changed: drawn whole
    assert incremental.dirty(parts, incremental.parts(sea), 1.0, (1008, 832)) is None


def test_overlapping_rectangles_are_joined_and_apart_ones_kept() -> None:
    assert incremental.merge([(0, 0, 10, 10), (5, 5, 20, 20), (30, 30, 40, 40)]) == [
        (0, 0, 20, 20),
        (30, 30, 40, 40),
    ]
    assert incremental.merge([(0, 0, 0, 5)]) == []
