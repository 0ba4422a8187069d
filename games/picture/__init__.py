"""The board as a picture: SVG for the pages, the same SVG rasterised to PNG for the mails.

    svg = board_svg(state.board, wl.view(state, seat), names={"red": "Ada"})
    png = board_png(state.board, wl.view(state, seat), names={"red": "Ada"})

Both are drawn from a view only, so a picture shows exactly what its viewer may see.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from games.rules import whitelotus as wl

from . import draw, incremental, raster
from .draw import board_svg
from .raster import svg_to_png

PNG_WIDTH = 1008  # one pixel per picture unit on the China board: crisp text, and small enough for mails

__all__ = ["PNG_WIDTH", "Drawn", "board_png", "board_svg", "draw_png", "forget", "svg_to_png"]


def forget() -> None:
    """Drop what this process remembers of pictures drawn (a cold start, for benchmarks)."""
    svg_to_png.cache_clear()
    raster._piece.cache_clear()
    draw._DRAWN.clear()


@dataclass(frozen=True)
class Drawn:
    """A picture for the mails (``png``), and what the next picture is redrawn from: the
    digest and box of each of its parts, and the compressed length of each band of its rows."""

    png: bytes
    parts: Mapping[str, Sequence[Any]]
    bands: Sequence[Sequence[int]] = ()  # raster.write
    redrawn: list[incremental.Pixels] | None = field(default=None)  # None: drawn whole

    def __bytes__(self) -> bytes:
        return self.png


def draw_png(svg: str, width: int = PNG_WIDTH, before: Drawn | None = None) -> Drawn:
    """``svg`` as a palette PNG ``width`` pixels wide: drawn whole, or, given the picture of
    an earlier SVG of the same board (``before``), by drawing again only the rectangles where
    the two differ (``incremental``), in ``before``'s palette.  Both give the same pixels,
    but for a few anti-aliased edge pixels off by a few levels (the tests)."""
    root = incremental.parse(svg)
    parts = incremental.parts(root)
    ground = parts[incremental.GROUND][1]
    scale = width / ground[2]
    size = (width, round(ground[3] * scale))
    rects = None
    if before is not None and before.bands and before.parts and raster.size_of(before.png) == size:
        rects = incremental.dirty(before.parts, parts, scale, size)
    if before is None or rects is None:
        image = raster.rasterise(svg, width)
        palette = raster.palette_of(image)
        png, bands = raster.write(raster.quantise(image, palette), palette)
    else:
        png, bands = raster.redraw(root, before.png, before.bands, rects, scale)
    return Drawn(png, {k: [d, list(b)] for k, (d, b) in parts.items()}, bands, rects)


def board_png(
    board: wl.Board,
    view: Mapping[str, Any],
    *,
    names: Mapping[str, str] | None = None,
    width: int = PNG_WIDTH,
) -> bytes:
    return svg_to_png(board_svg(board, view, names=names), width)
