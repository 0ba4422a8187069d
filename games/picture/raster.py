"""The SVG rasterised to PNG for mails, with resvg (``resvg-py``: a wheel that bundles the
renderer, so it installs from the package registry alone, with no system library), then
stored as an 8-bit palette PNG with Pillow.

resvg draws text only with the fonts it is given.  A fresh machine may have none, so the
picture is drawn with the Liberation Sans files shipped in ``fonts/`` (SIL OFL, see
``fonts/LICENSE-OFL.txt``) and system fonts are never read: the same SVG gives the same PNG
on every machine, which also makes a retried mail carry the very same picture.

The board is flat colours, text and the anti-aliased edges between them: about a thousand
distinct colours, most of them a few pixels each.  The palette is the most frequent of them
(counted on every other pixel of every other row: a tenth of the time, the same ranking), so
every fill is kept exactly and an edge pixel takes the nearest kept colour; with no dithering
the PNG is less than half the size of resvg's true-colour one and looks the same.
"""

from __future__ import annotations

import io
import struct
import zlib
from collections.abc import Sequence
from functools import lru_cache
from importlib import resources
from typing import cast

import deflate
import resvg_py
from PIL import Image

from . import style
from .incremental import Pixels, crop_svg

FONT_FILES = ("LiberationSans-Regular.ttf", "LiberationSans-Bold.ttf")
PALETTE_SIZE = 64  # every fill and about 40 steps of anti-aliasing; 256 gave 20 % more bytes
EDGE = 4  # pixels drawn around a rectangle that is drawn again, and not kept
DEFLATE_LEVEL = 9  # libdeflate: smaller than zlib's best (level 9) and four times as fast
# the fills the drawing uses: kept in the palette exactly, however few pixels show them
FILLS = (
    *style.PLAYER_FILL.values(),
    style.NEUTRAL_FILL,
    style.EMPTY_FILL,
    style.OUT_FILL,
    style.OUT_TEXT,
    style.LAND,
    style.SEA,
    style.INK,
    style.BORDER,
    "#ffffff",
    "#111111",
)


def font_paths() -> list[str]:
    folder = resources.files("games.picture") / "fonts"
    return [str(folder / name) for name in FONT_FILES]


@lru_cache(maxsize=16)
def svg_to_png(svg: str, width: int) -> bytes:
    """``svg`` drawn ``width`` pixels wide (height in proportion), on its own fonts only, as
    a palette PNG.

    Remembered for a few calls: the picture draws only public facts, so every seat's mail
    about one event carries the same picture, and it is drawn once (about 0.15 s)."""
    return encode(rasterise(svg, width))


def rasterise(svg: str, width: int) -> Image.Image:
    """``svg`` drawn ``width`` pixels wide, as an opaque RGB image."""
    return Image.open(io.BytesIO(render(svg, width))).convert("RGB")


def redraw(svg: str, before: Image.Image, rects: Sequence[Pixels], scale: float) -> Image.Image:
    """The picture of ``svg``, made from ``before`` (the picture of an earlier SVG, the same
    size) by drawing only ``rects`` again (the parts that changed, ``incremental.dirty``):
    each a crop of the SVG at the same scale, pasted at its whole-pixel place."""
    image = before.copy()
    for rect in rects:
        # drawn a few pixels larger: the renderer's edge rows differ from a full drawing's
        x0, y0 = max(rect[0] - EDGE, 0), max(rect[1] - EDGE, 0)
        x1, y1 = min(rect[2] + EDGE, image.width), min(rect[3] + EDGE, image.height)
        piece = rasterise(crop_svg(svg, (x0, y0, x1, y1), scale), x1 - x0)
        inner = (rect[0] - x0, rect[1] - y0, rect[2] - x0, rect[3] - y0)
        image.paste(piece.crop(inner), rect[:2])
    return image


def pack(image: Image.Image) -> bytes:
    """An RGB image stored compactly and fast (to redraw the next picture from)."""
    return struct.pack(">II", image.width, image.height) + deflate.deflate_compress(image.tobytes(), 1)


def unpack(data: bytes) -> Image.Image:
    width, height = struct.unpack(">II", data[:8])
    raw = deflate.deflate_decompress(data[8:], width * height * 3)
    return Image.frombytes("RGB", (width, height), raw)


def render(svg: str, width: int) -> bytes:
    """resvg's own true-colour PNG of ``svg``, ``width`` pixels wide."""
    return bytes(
        resvg_py.svg_to_bytes(
            svg_string=svg,
            width=width,
            skip_system_fonts=True,
            font_files=font_paths(),
            font_family="Liberation Sans",
            sans_serif_family="Liberation Sans",
        )
    )


def palette_png(png: bytes, colours: int = PALETTE_SIZE) -> bytes:
    """An opaque PNG again as an 8-bit palette PNG (``encode``)."""
    return encode(Image.open(io.BytesIO(png)).convert("RGB"), colours)


def encode(image: Image.Image, colours: int = PALETTE_SIZE) -> bytes:
    """An RGB image as an 8-bit palette PNG of the drawing's fills that it shows and its most
    frequent other colours, ``colours`` in all (ties in a fixed order, so the same picture
    gives the same bytes)."""
    sample = image.resize((max(image.width // 2, 1), max(image.height // 2, 1)), Image.Resampling.NEAREST)
    counts = sample.getcolors(maxcolors=sample.width * sample.height)
    assert counts is not None  # maxcolors is the pixel count: every colour is counted
    ranked = [cast(tuple[int, int, int], rgb) for _, rgb in sorted(counts, key=lambda c: (-c[0], c[1]))]
    fills = {tuple(int(f[k : k + 2], 16) for k in (1, 3, 5)) for f in FILLS}
    kept = [rgb for rgb in ranked if rgb in fills]
    kept += [rgb for rgb in ranked if rgb not in fills][: max(colours - len(kept), 0)]
    palette = Image.new("P", (1, 1))
    flat = [channel for rgb in kept for channel in rgb]
    palette.putpalette(flat)
    indexed = image.quantize(palette=palette, dither=Image.Dither.NONE)
    return _png(indexed, flat[: 3 * max(len(kept), 1)])


def _png(indexed: Image.Image, palette: list[int]) -> bytes:
    """A palette PNG written directly: its rows unfiltered (best for a few flat colours), the
    data compressed by libdeflate."""
    width, height = indexed.size
    raw = indexed.tobytes()
    rows = b"".join(b"\x00" + raw[y * width : (y + 1) * width] for y in range(height))
    header = struct.pack(">IIBBBBB", width, height, 8, 3, 0, 0, 0)
    return b"".join(
        [
            b"\x89PNG\r\n\x1a\n",
            _chunk(b"IHDR", header),
            _chunk(b"PLTE", bytes(palette)),
            _chunk(b"IDAT", bytes(deflate.zlib_compress(rows, DEFLATE_LEVEL))),
            _chunk(b"IEND", b""),
        ]
    )


def _chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
