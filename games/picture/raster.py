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
from functools import lru_cache
from importlib import resources
from typing import cast

import resvg_py
from PIL import Image

FONT_FILES = ("LiberationSans-Regular.ttf", "LiberationSans-Bold.ttf")
PALETTE_SIZE = 256  # the most an 8-bit palette PNG holds


def font_paths() -> list[str]:
    folder = resources.files("games.picture") / "fonts"
    return [str(folder / name) for name in FONT_FILES]


@lru_cache(maxsize=16)
def svg_to_png(svg: str, width: int) -> bytes:
    """``svg`` drawn ``width`` pixels wide (height in proportion), on its own fonts only, as
    a palette PNG.

    Remembered for a few calls: the picture draws only public facts, so every seat's mail
    about one event carries the same picture, and it is drawn once (about 0.15 s)."""
    return palette_png(render(svg, width))


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
    """An opaque PNG again as an 8-bit palette PNG of its ``colours`` most frequent colours
    (ties in a fixed order, so the same picture gives the same bytes)."""
    image = Image.open(io.BytesIO(png)).convert("RGB")
    sample = image.resize((max(image.width // 2, 1), max(image.height // 2, 1)), Image.Resampling.NEAREST)
    counts = sample.getcolors(maxcolors=sample.width * sample.height)
    assert counts is not None  # maxcolors is the pixel count: every colour is counted
    ranked = sorted(counts, key=lambda c: (-c[0], c[1]))[:colours]
    palette = Image.new("P", (1, 1))
    palette.putpalette([channel for _, rgb in ranked for channel in cast(tuple[int, int, int], rgb)])
    indexed = image.quantize(palette=palette, dither=Image.Dither.NONE)
    out = io.BytesIO()
    indexed.save(out, format="PNG")
    return out.getvalue()
