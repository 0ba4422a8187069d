"""The board as SVG, drawn from the board's geometry and a view (never from a raw state).

Every province is one ``<g class="province">`` whose ``data-*`` attributes say what the
view says about it (owner, building, markers, in play), so a test or a page script can read
the picture back; the shapes, labels and pieces inside it are what a person sees.

White Lotus's ``presentation.PICTURE`` (:class:`games.rules.base.Presentation`): pure Python, its words
said through the ``translate`` the service passes; the drawing helpers it shares with every
game's picture are :mod:`games.picture`'s (no Django either).
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache
from typing import Any

from games.rules.drawing.geometry import label_rect, outline, path_data
from games.rules.drawing.incremental import Box, bbox_attr, text_box, union
from games.rules.drawing.style import (
    BORDER,
    EMPTY_FILL,
    FONT,
    LAND,
    OUT_FILL,
    OUT_TEXT,
    SEA,
    esc,
    fill_of,
    hatch_pattern,
    text_on,
)

from ..base import LANGUAGE_CODE, Translate, as_is
from . import panel
from .icons import icon

CELL = 32  # picture units per grid cell; the PNG is drawn at one pixel per unit
MARGIN = 8
MARKER_R = 7.5
MARKER_STEP = 17  # between the centres of control markers, closer where a province is narrow
OWNER_LETTER_SIZE = 22


# the game's board and province (``.board``): the picture reads their geometry and draws
# what the views say
Board = Any
Province = Any


def board_svg(
    board: Board,
    view: Mapping[str, Any],
    *,
    names: Mapping[str, str] | None = None,
    translate: Translate = as_is,
) -> str:
    """The board and a panel of the game's state, as a standalone SVG document, its words in
    ``translate``'s language."""
    t = translate
    names = names or {}
    x0, y0, x1, y1 = _frame(board)
    origin = (MARGIN - x0 * CELL, MARGIN - y0 * CELL)
    width = (x1 - x0) * CELL + 2 * MARGIN
    map_bottom = MARGIN + (y1 - y0) * CELL
    sea = [(x, y) for x, y in board.sea if x0 <= x < x1 and y0 <= y < y1]
    panel_svg, panel_height = panel.draw(view, names, t, top=map_bottom + MARGIN, width=width)
    height = map_bottom + MARGIN + panel_height
    title = panel.title(view, t)
    provinces = "".join(_province(board, area, origin, t) for area in view["areas"])
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" '
        f'width="{width}" height="{height}" role="img" aria-labelledby="board-title" '
        f'font-family="{esc(FONT)}" class="board" data-board="{esc(board.name)}">'
        f'<title id="board-title">{esc(title)}</title>'
        f"<defs>{hatch_pattern()}</defs>"
        f'<rect width="{width}" height="{height}" fill="{LAND}"/>'
        f'<path class="sea" d="{path_data(outline(sea), CELL, origin)}" fill="{SEA}" '
        f'fill-rule="evenodd"/>'
        f"{provinces}{panel_svg}</svg>"
    )


def _frame(board: Board) -> tuple[int, int, int, int]:
    """The cells drawn: the provinces and one cell of what lies around them, within the grid
    (a board file's grid may carry more sea than the picture needs)."""
    cells = [cell for p in board.provinces for cell in p.cells]
    if not cells:
        return 0, 0, board.width, board.height
    xs, ys = [x for x, _ in cells], [y for _, y in cells]
    return (
        max(min(xs) - 1, 0),
        max(min(ys) - 1, 0),
        min(max(xs) + 2, board.width),
        min(max(ys) + 2, board.height),
    )


@lru_cache(maxsize=256)  # the same outlines are drawn in every picture of a board
def _shape(cells: tuple[tuple[int, int], ...], origin: tuple[float, float]) -> str:
    return path_data(outline(cells), CELL, origin)


_DRAWN: dict[tuple[Any, ...], str] = {}  # a province looks the same in most pictures of a game
_DRAWN_MAX = 4096


def _province(board: Board, area: Mapping[str, Any], origin: tuple[float, float], t: Translate) -> str:
    """A province's group, remembered: what it shows follows from its cells, the view of it
    and the language (of its "not in play" label) alone."""
    province = board.provinces[area["number"] - 1]
    key = (province.cells, origin, repr(sorted(area.items())), t(LANGUAGE_CODE))
    found = _DRAWN.get(key)
    if found is None:
        if len(_DRAWN) >= _DRAWN_MAX:
            _DRAWN.clear()
        found = _DRAWN[key] = _draw_province(province, area, origin, t)
    return found


def _draw_province(
    province: Province, area: Mapping[str, Any], origin: tuple[float, float], t: Translate
) -> str:
    in_play = bool(area["in_play"])
    owner = area["owner"]
    building = area["building"]
    if not in_play:
        fill, ink = "url(#out-of-play)", OUT_TEXT
    else:
        fill = fill_of(owner) if owner or building else EMPTY_FILL
        ink = text_on(fill)
    shape = _shape(province.cells, origin)
    attrs = (
        f'class="province" id="province-{area["number"]}" data-number="{area["number"]}" '
        f'data-name="{esc(area["name"])}" data-owner="{esc(owner or "")}" '
        f'data-building="{esc(building or "")}" data-markers="{esc(" ".join(area["markers"]))}" '
        f'data-in-play="{"true" if in_play else "false"}" '
        f'data-lotus="{"true" if area["lotus"] else "false"}" '
        f'data-dragon="{"true" if area["dragon"] else "false"}"'
    )
    if not province.cells:  # a board file without geometry for it: the data, nothing to see
        return f"<g {attrs}></g>"
    attrs += " " + bbox_attr(_extent(province.cells, area, origin, t))
    body = [
        f'<path d="{shape}" fill="{fill}" stroke="{BORDER}" stroke-width="1.5" stroke-linejoin="round"/>',
        *_labels(province.cells, area, origin, ink, fill if in_play else OUT_FILL, t),
    ]
    return f"<g {attrs}>{''.join(body)}</g>"


def _extent(
    cells: tuple[tuple[int, int], ...], area: Mapping[str, Any], origin: tuple[float, float], t: Translate
) -> Box:
    """What a province paints: its cells and its stroke, and its labels where a narrow
    province lets them run over its edge (for redrawing only what changed)."""
    xs, ys = [x for x, _ in cells], [y for _, y in cells]
    shape = (
        origin[0] + min(xs) * CELL - 1,
        origin[1] + min(ys) * CELL - 1,
        origin[0] + (max(xs) + 1) * CELL + 1,
        origin[1] + (max(ys) + 1) * CELL + 1,
    )
    rect = label_rect(cells)
    x, y = origin[0] + rect.x * CELL, origin[1] + rect.y * CELL
    mid = x + rect.w * CELL / 2
    texts = [
        text_box(x + 6, y + 17, str(area["number"]), 16),
        text_box(mid, y + 37, area["name"], 14, "middle"),
    ]
    if not area["in_play"]:
        texts.append(text_box(mid, y + 58, t(panel.LABELS["out"]), 11, "middle"))
    return union(shape, *texts)


def _labels(
    cells: tuple[tuple[int, int], ...],
    area: Mapping[str, Any],
    origin: tuple[float, float],
    ink: str,
    paper: str,
    t: Translate,
) -> list[str]:
    rect = label_rect(cells)
    x, y = origin[0] + rect.x * CELL, origin[1] + rect.y * CELL
    w, h = rect.w * CELL, rect.h * CELL
    mid = x + w / 2
    out = [
        f'<text x="{x + 6}" y="{y + 17}" font-size="16" font-weight="bold" fill="{ink}" '
        f'class="number">{area["number"]}</text>',
        f'<text x="{mid:g}" y="{y + 37}" font-size="14" text-anchor="middle" fill="{ink}" '
        f'class="name">{esc(area["name"])}</text>',
    ]
    badges = [kind for kind in ("dragon", "lotus") if area[kind]]
    for i, kind in enumerate(badges):
        out.append(icon(kind, x + w - 13 - 21 * i, y + 13, ink, paper))
    if not area["in_play"]:
        out.append(
            f'<text x="{mid:g}" y="{y + 58}" font-size="11" font-style="italic" text-anchor="middle" '
            f'fill="{ink}">{esc(t(panel.LABELS["out"]))}</text>'
        )
        return out
    if area["building"]:  # moved right in a narrow province, to leave room for the owner's letter
        centre = max(mid, x + 58) if area["owner"] else mid
        out.append(icon(area["building"], centre, y + 58, ink, paper, 1.3))
    if area["owner"]:  # the owner's letter left of the building: owners apart without colour
        size = _letter_size(area["owner"], OWNER_LETTER_SIZE, t)
        out.append(
            f'<text class="owner" x="{x + 18:g}" y="{y + 58 + size * 0.36:g}" '
            f'font-size="{size:g}" font-weight="bold" '
            f'text-anchor="middle" fill="{ink}" data-colour="{esc(area["owner"])}">'
            f"{esc(panel.letter(area['owner'], t))}</text>"
        )
    out.extend(_markers(area["markers"], mid, y + h - 13, w, ink, t))
    return out


def _markers(markers: list[str], mid: float, cy: float, room: float, ink: str, t: Translate) -> list[str]:
    """Control marker discs in a row, each with its owner's letter."""
    if not markers:
        return []
    step = (
        MARKER_STEP if len(markers) < 2 else min(MARKER_STEP, (room - 2 * MARKER_R - 6) / (len(markers) - 1))
    )
    first = mid - (len(markers) - 1) * step / 2
    out = []
    for i, colour in enumerate(markers):
        cx = first + i * step
        fill = fill_of(colour)
        size = _letter_size(colour, 10.5, t)
        out.append(
            f'<circle class="marker" cx="{cx:g}" cy="{cy:g}" r="{MARKER_R}" '
            f'fill="{fill}" stroke="{ink}" stroke-width="1.5" data-colour="{esc(colour)}"/>'
            f'<text class="marker-letter" x="{cx:g}" y="{cy + size * 0.36:g}" font-size="{size:g}" '
            f'font-weight="bold" text-anchor="middle" fill="{text_on(fill)}" data-colour="{esc(colour)}">'
            f"{esc(panel.letter(colour, t))}</text>"
        )
    return out


def _letter_size(colour: str, size: float, t: Translate) -> float:
    """Two letters (where a language's initials collide) are set smaller to fit."""
    return size if len(panel.letter(colour, t)) < 2 else round(size * 0.78, 1)


def forget() -> None:
    """Drop the provinces remembered (``games.picture.forget``: a cold start, for benchmarks)."""
    _DRAWN.clear()
