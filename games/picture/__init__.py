"""The board as a picture: SVG for the pages, the same SVG rasterised to PNG for the mails.

    svg = board_svg(state.board, wl.view(state, seat), names={"red": "Ada"})
    png = board_png(state.board, wl.view(state, seat), names={"red": "Ada"})

Both are drawn from a view only, so a picture shows exactly what its viewer may see.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.rules import whitelotus as wl

from .draw import board_svg
from .raster import svg_to_png

PNG_WIDTH = 1008  # one pixel per picture unit on the China board: crisp text, and small enough for mails

__all__ = ["PNG_WIDTH", "board_png", "board_svg", "svg_to_png"]


def board_png(
    board: wl.Board,
    view: Mapping[str, Any],
    *,
    names: Mapping[str, str] | None = None,
    width: int = PNG_WIDTH,
) -> bytes:
    return svg_to_png(board_svg(board, view, names=names), width)
