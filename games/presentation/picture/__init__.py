"""The board as a picture: SVG for the pages, the same SVG rasterised to PNG for the mails.

    svg = board_svg(board, rules.view(state, seat), names={"red": "Ada"}, rules=game.rules, translate=gettext)
    png = board_png(board, rules.view(state, seat), names={"red": "Ada"}, rules=game.rules, translate=gettext)

Both are drawn from a view only, so a picture shows exactly what its viewer may see.  A game
draws its own picture in its package, where it may: the module its optional ``PICTURE`` names
(:class:`games.rules.base.Presentation`), imported when first asked for, offers
``board_svg(board, view, *, names, translate)``.  A game without one has no picture
(:func:`has_picture`): its mails and pages show the text board alone.

The helpers every game's picture shares (``geometry``, ``incremental``, ``style``) live here and
import no Django, since a game's package (pure, by an import contract) imports them; so does this
module: the caller says the reader's language by its ``translate``.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from types import ModuleType
from typing import Any, cast

from games.presentation.picture import raster
from games.presentation.picture.raster import svg_to_png
from games.rules import registry
from games.rules.base import Translate, as_is
from games.rules.drawing import incremental

PNG_WIDTH = 1008  # one pixel per picture unit on the China board: crisp text, and small enough for mails

__all__ = [
    "PNG_WIDTH",
    "Drawn",
    "board_png",
    "board_svg",
    "draw_png",
    "forget",
    "has_picture",
    "parts_of",
    "svg_to_png",
]

Drawer = Callable[..., str]


@cache
def _module(rules: str) -> ModuleType | None:
    """The drawing module of the game ``rules`` (imported the first time), or None for a game
    without a picture; raises ``registry.UnknownRules`` for a name no game has."""
    game = registry.get(rules)
    name = game.presentation.PICTURE
    if not name:
        return None
    return importlib.import_module(str(name), package=game.package)


def has_picture(rules: str) -> bool:
    """Whether the game ``rules`` draws its board (else the text board stands alone)."""
    return _module(rules) is not None


def drawer(rules: str) -> Drawer:
    """The ``board_svg`` of the game ``rules``; raises ``LookupError`` for a game without a
    picture (ask :func:`has_picture` first)."""
    module = _module(rules)
    if module is None:
        raise LookupError(f"the game {rules!r} has no picture")
    return cast(Drawer, module.board_svg)


def board_svg(
    board: Any,
    view: Mapping[str, Any],
    *,
    names: Mapping[str, str] | None = None,
    rules: str,
    translate: Translate = as_is,
) -> str:
    """The board of the game ``rules`` and a panel of its state, as a standalone SVG
    document, drawn from ``view``, its words in ``translate``'s language."""
    return drawer(rules)(board, view, names=names, translate=translate)


def forget() -> None:
    """Drop what this process remembers of pictures drawn (a cold start, for benchmarks):
    the rasteriser's caches and each game picture's own (its optional ``forget()``)."""
    svg_to_png.cache_clear()
    raster._piece.cache_clear()
    for rules in registry.names():
        module = _module(rules)
        if module is not None and callable(getattr(module, "forget", None)):
            module.forget()


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


def parts_of(svg: str) -> dict[str, list[Any]]:
    """What :class:`Drawn` keeps of ``svg``'s parts (digest and box of each), without drawing
    it: enough to tell whether two pictures show the same map (``notifications.outbound.pictures``)."""
    return {k: [d, list(b)] for k, (d, b) in incremental.parts(incremental.parse(svg)).items()}


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
    board: Any,
    view: Mapping[str, Any],
    *,
    names: Mapping[str, str] | None = None,
    width: int = PNG_WIDTH,
    rules: str,
    translate: Translate = as_is,
) -> bytes:
    return svg_to_png(board_svg(board, view, names=names, rules=rules, translate=translate), width)
