"""Die Verbotene Stadt's board as SVG, drawn from the board's geometry and a view only.

    svg = board_svg(board, view, names={"north": "Ada"})

The grid (paving, yellow and grey-yellow start squares, roofs, walls on the edges between
squares), the 8 pavilions (number, cards left as little cards, the target framed and
labelled), the 25 officials, the terrace of banishment under the board, the last move's path,
and a panel: the target, every player's cards and score, and a legend.

Each official is told apart without colour: its **hat** carries the hat colour's letter, its
**robe** a pattern of its own per robe colour (stripes, dots, a band, a chevron, a cross), and
its code (``rg``: red hat, green robe) is written under it.  A garment card carries its
pavilion's number and a pictogram of the piece.

The view never holds another seat's dial, and the picture draws no dial at all, not even the
viewer's: every seat's picture of one moment is the same.  Every dynamic part (an official, a
pavilion, the terrace, the path, the panel) is a group with an ``id`` and a ``data-bbox``, so
``incremental`` can redraw only what changed; the ground (squares, roofs, walls) is static.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from games.rules.drawing.incremental import Box, bbox_attr
from games.rules.drawing.style import BORDER, FONT, INK, clip, esc, text_on

from ..base import Translate, as_is


def gettext_noop(text: str) -> str:
    """Marks an English msgid for the catalogue (said later through ``translate``)."""
    return text


# the board is the game's (games.rules.verbotenestadt.board.Board), reached through the
# registry and read here by its attributes only: the service never imports a game's package
Board = Any
Square = tuple[int, int]

CELL = 64  # picture units per square; 15 squares and the margins make 1008, the mails' PNG width
MARGIN = 24
TERRACE_GAP = 44  # between the board and the terrace's row (room for its label)
ROW = 56  # a player's row in the panel
CARD_W, CARD_H = 26, 34
CARDS_X = MARGIN + 280  # where a player's cards begin (after the name and score)

PAVING = "#efe6cf"
START = "#f2d56a"  # the 25 yellow start squares
EXTRA_START = "#d8cc98"  # the 4 grey-yellow ones
ROOF = "#8e3b2d"
ROOF_RIDGE = "#5e2219"
WALL = "#3a302a"
GRID_LINE = "#cfc3a6"
BACKGROUND = "#e3d8bd"
PATH = "#1f4e9c"

# the officials' five colours and the pavilions' eight
OFFICIAL_FILL = {
    "red": "#d1343a",
    "yellow": "#f4cf3b",
    "blue": "#2f6db5",
    "green": "#2e9a4e",
    "black": "#222222",
}
PAVILION_FILL = {
    "red": "#d1343a",
    "orange": "#f0913a",
    "yellow": "#f4cf3b",
    "white": "#fbfaf5",
    "blue": "#2f6db5",
    "purple": "#9448bc",
    "green": "#2e9a4e",
    "black": "#222222",
}
LETTER = {"red": "R", "yellow": "Y", "blue": "B", "green": "G", "black": "K"}  # as in the codes

LABELS = {
    "title": gettext_noop("Die Verbotene Stadt"),
    "target": gettext_noop("Target: pavilion {number} ({colour})."),
    "terrace": gettext_noop("Terrace of banishment"),
    "points": gettext_noop("{score} points"),
    "over": gettext_noop("The game is over."),
    "partner": gettext_noop("(partner: {seat})"),
}


def board_svg(
    board: Board,
    view: Mapping[str, Any],
    *,
    names: Mapping[str, str] | None = None,
    translate: Translate = as_is,
) -> str:
    """The board, the terrace and a panel of the game's state, as a standalone SVG document,
    its words in ``translate``'s language."""
    t = translate
    names = names or {}
    size = board.size * CELL
    width = size + 2 * MARGIN
    terrace_top = MARGIN + size + TERRACE_GAP
    panel_top = terrace_top + CELL + MARGIN
    players = list(view.get("players") or ())
    height = panel_top + 40 + ROW * len(players) + CELL + MARGIN
    target = view.get("target")
    pavilions = {int(p["number"]): p for p in view.get("pavilions") or ()}
    officials = list(view.get("officials") or ())
    by_code = {str(o["code"]): o for o in officials}
    body = [
        f'<rect width="{width}" height="{height}" fill="{BACKGROUND}"/>',
        _ground(board),
        f'<text x="{MARGIN}" y="{terrace_top - 12}" font-size="16" font-weight="bold" fill="{INK}">'
        f"{esc(t(LABELS['terrace']))}</text>",
        _terrace_slots(terrace_top),
    ]
    for pavilion in board.pavilions:
        body.append(_pavilion(board, pavilion.number, pavilions.get(pavilion.number), target))
    body.append(_last_move(view.get("last_move")))
    for official in officials:
        if official.get("square") is not None:
            r, c = official["square"]
            body.append(_official(official, *_corner((int(r), int(c)))))
    terrace = [str(code) for code in view.get("terrace") or ()]
    body.append(_terrace(terrace, by_code, terrace_top))
    body.append(_panel(board, view, names, panel_top, width, t))
    title = t(LABELS["title"])
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" '
        f'width="{width}" height="{height}" role="img" aria-labelledby="board-title" '
        f'font-family="{esc(FONT)}" class="board verbotenestadt" data-board="{esc(board.name)}" '
        f'data-target="{esc(target or "")}">'
        f'<title id="board-title">{esc(title)}</title>{"".join(b for b in body if b)}</svg>'
    )


def _corner(square: Square) -> tuple[float, float]:
    """The top-left corner of a square, in picture units."""
    return MARGIN + square[1] * CELL, MARGIN + square[0] * CELL


def _centre(square: Square) -> tuple[float, float]:
    x, y = _corner(square)
    return x + CELL / 2, y + CELL / 2


def _ground(board: Board) -> str:
    """What never changes: the squares, the roofs and the walls (one static group)."""
    out = []
    n = board.size
    for r in range(n):
        for c in range(n):
            square = (r, c)
            if board.pavilion_at(square) is not None:
                continue  # a part of its own
            x, y = _corner(square)
            if square in board.blocked:
                out.append(
                    f'<rect class="roof" x="{x}" y="{y}" width="{CELL}" height="{CELL}" fill="{ROOF}"/>'
                    f'<path d="M{x + 6} {y + CELL / 2} H{x + CELL - 6} M{x + 10} {y + 16} H{x + CELL - 10} '
                    f'M{x + 10} {y + CELL - 16} H{x + CELL - 10}" stroke="{ROOF_RIDGE}" stroke-width="3"/>'
                )
                continue
            fill = START if square in board.start else EXTRA_START if board.is_start(square) else PAVING
            out.append(
                f'<rect x="{x}" y="{y}" width="{CELL}" height="{CELL}" fill="{fill}" '
                f'stroke="{GRID_LINE}" stroke-width="1"/>'
            )
    walls = []
    for wall in sorted(board.walls, key=sorted):
        (r0, c0), (r1, c1) = sorted(wall)
        if r0 == r1:  # side by side: a vertical wall
            x, y = MARGIN + c1 * CELL, MARGIN + r0 * CELL
            walls.append(f"M{x} {y - 2} V{y + CELL + 2}")
        else:
            x, y = MARGIN + c0 * CELL, MARGIN + r1 * CELL
            walls.append(f"M{x - 2} {y} H{x + CELL + 2}")
    size = n * CELL
    return (
        f'<g class="ground">{"".join(out)}'
        f'<path class="walls" d="{" ".join(walls)}" stroke="{WALL}" stroke-width="7" '
        'stroke-linecap="square"/>'
        f'<rect x="{MARGIN}" y="{MARGIN}" width="{size}" height="{size}" fill="none" '
        f'stroke="{WALL}" stroke-width="7"/></g>'
    )


def _terrace_slots(top: float) -> str:
    out = []
    for i in range(15):
        x = MARGIN + i * CELL
        out.append(
            f'<rect x="{x + 2}" y="{top + 2}" width="{CELL - 4}" height="{CELL - 4}" rx="4" '
            f'fill="{PAVING}" stroke="{BORDER}" stroke-width="1.5"/>'
            f'<text x="{x + 6}" y="{top + 14}" font-size="10" fill="{BORDER}">{i + 1}</text>'
        )
    return f'<g class="terrace-slots">{"".join(out)}</g>'


def _pavilion(board: Board, number: int, seen: Mapping[str, Any] | None, target: Any) -> str:
    """A pavilion's square: its colour, its number, its cards left (little cards, filled for
    each card still there), and, if it is the target, a heavy frame and a flag."""
    pavilion = board.pavilion(number)
    x, y = _corner(pavilion.square)
    fill = PAVILION_FILL.get(pavilion.colour, PAVING)
    ink = text_on(fill)
    left = int(seen["cards_left"]) if seen else 0
    is_target = target is not None and int(target) == number
    out = [
        f'<rect x="{x + 3}" y="{y + 3}" width="{CELL - 6}" height="{CELL - 6}" rx="6" fill="{fill}" '
        f'stroke="{INK}" stroke-width="{5 if is_target else 2}"/>',
        f'<path d="M{x + 3} {y + 20} L{x + CELL / 2} {y + 3} L{x + CELL - 3} {y + 20}" fill="none" '
        f'stroke="{ink}" stroke-width="2"/>',  # a roof line: a pavilion, not a square
        f'<text x="{x + CELL / 2}" y="{y + 40}" font-size="20" font-weight="bold" text-anchor="middle" '
        f'fill="{ink}" class="number">{number}</text>',
    ]
    for i in range(3):
        cx = x + 14 + i * 14
        card_fill = ink if i < left else "none"
        out.append(
            f'<rect x="{cx - 4}" y="{y + 46}" width="9" height="12" rx="1.5" fill="{card_fill}" '
            f'stroke="{ink}" stroke-width="1.2"/>'
        )
    if is_target:  # a flag on the corner, black on white: seen without colour
        out.append(
            f'<circle cx="{x + CELL - 10}" cy="{y + 10}" r="9" fill="#ffffff" '
            f'stroke="{INK}" stroke-width="2"/>'
            f'<circle cx="{x + CELL - 10}" cy="{y + 10}" r="4" fill="{INK}"/>'
        )
    box: Box = (x - 2, y - 2, x + CELL + 2, y + CELL + 2)
    return (
        f'<g class="pavilion" id="pavilion-{number}" data-number="{number}" '
        f'data-colour="{esc(pavilion.colour)}" data-cards-left="{left}" '
        f'data-target="{"true" if is_target else "false"}" {bbox_attr(box)}>{"".join(out)}</g>'
    )


def _robe_pattern(robe: str, x: float, y: float, ink: str) -> str:
    """The marks on a robe (its box: x..x+32, y..y+24), one kind per robe colour."""
    cx = x + 16
    if robe == "red":  # two horizontal stripes
        d = f"M{x + 4} {y + 9} H{x + 28} M{x + 3} {y + 17} H{x + 29}"
        return f'<path d="{d}" stroke="{ink}" stroke-width="2.5"/>'
    if robe == "yellow":  # three dots
        return "".join(f'<circle cx="{cx + dx}" cy="{y + 14}" r="2.6" fill="{ink}"/>' for dx in (-8, 0, 8))
    if robe == "blue":  # one band down the middle
        return f'<rect x="{cx - 2.5}" y="{y + 2}" width="5" height="21" fill="{ink}"/>'
    if robe == "green":  # a chevron
        d = f"M{x + 5} {y + 6} L{cx} {y + 18} L{x + 27} {y + 6}"
        return f'<path d="{d}" fill="none" stroke="{ink}" stroke-width="2.5"/>'
    if robe == "black":  # a cross
        d = f"M{x + 7} {y + 4} L{x + 25} {y + 21} M{x + 25} {y + 4} L{x + 7} {y + 21}"
        return f'<path d="{d}" stroke="{ink}" stroke-width="2.2"/>'
    return ""


def _figure(hat: str, robe: str, x: float, y: float) -> str:
    """An official in a CELL × CELL box at (x, y): hat (with its letter), robe (with its
    pattern); the code is the caller's."""
    hat_fill = OFFICIAL_FILL.get(hat, PAVING)
    robe_fill = OFFICIAL_FILL.get(robe, PAVING)
    hat_ink, robe_ink = text_on(hat_fill), text_on(robe_fill)
    rx, ry = x + 16, y + 24  # the robe's box: 32 × 24
    return (
        f'<path d="M{rx + 5} {ry} H{rx + 27} L{rx + 32} {ry + 24} H{rx} Z" fill="{robe_fill}" '
        f'stroke="{INK}" stroke-width="1.5" stroke-linejoin="round"/>'
        + _robe_pattern(robe, rx, ry, robe_ink)
        + f'<path d="M{x + 18} {y + 22} H{x + 46} Q{x + 44} {y + 3} {x + 32} {y + 3} '
        f'Q{x + 20} {y + 3} {x + 18} {y + 22} Z" fill="{hat_fill}" stroke="{INK}" stroke-width="1.5"/>'
        f'<text x="{x + 32}" y="{y + 19}" font-size="13" font-weight="bold" text-anchor="middle" '
        f'fill="{hat_ink}">{LETTER.get(hat, "?")}</text>'
    )


def _official(official: Mapping[str, Any], x: float, y: float, *, where: str = "board") -> str:
    code = str(official["code"])
    hat, robe = str(official.get("hat", "")), str(official.get("robe", ""))
    square = official.get("square")
    at = "" if square is None else f"{int(square[0])},{int(square[1])}"
    box: Box = (x, y, x + CELL, y + CELL)
    return (
        f'<g class="official" id="official-{esc(code)}" data-code="{esc(code)}" data-hat="{esc(hat)}" '
        f'data-robe="{esc(robe)}" data-square="{at}" data-where="{where}" {bbox_attr(box)}>'
        f"{_figure(hat, robe, x, y)}"
        f'<text x="{x + CELL / 2}" y="{y + CELL - 3}" font-size="13" font-weight="bold" '
        f'text-anchor="middle" fill="{INK}" class="code">{esc(code)}</text></g>'
    )


def _terrace(codes: Sequence[str], by_code: Mapping[str, Mapping[str, Any]], top: float) -> str:
    out = []
    for i, code in enumerate(codes[:15]):
        official = by_code.get(code) or {"code": code, "hat": "", "robe": "", "square": None}
        out.append(_official(official, MARGIN + i * CELL, top, where=f"terrace-{i + 1}"))
    return "".join(out)


def _last_move(last: Mapping[str, Any] | None) -> str:
    """The last move's path: a line through the squares it crossed, a ring where it began and
    an arrowhead where it stopped."""
    if not last or not last.get("path") or len(last["path"]) < 2:
        return ""
    points = [_centre((int(r), int(c))) for r, c in last["path"]]
    d = "M" + " L".join(f"{px:g} {py:g}" for px, py in points)
    (x0, y0), (x1, y1) = points[-2], points[-1]
    dx, dy = (x1 - x0, y1 - y0)
    length = max(abs(dx) + abs(dy), 1)
    ux, uy = dx / length, dy / length
    tip = (x1 - ux * 20, y1 - uy * 20)  # stops at the edge of the official's figure
    head = (
        f"M{tip[0] + ux * 10:g} {tip[1] + uy * 10:g} "
        f"L{tip[0] - uy * 8:g} {tip[1] + ux * 8:g} L{tip[0] + uy * 8:g} {tip[1] - ux * 8:g} Z"
    )
    xs, ys = [p[0] for p in points], [p[1] for p in points]
    box: Box = (min(xs) - 14, min(ys) - 14, max(xs) + 14, max(ys) + 14)
    sx, sy = points[0]
    return (
        f'<g class="last-move" id="last-move" data-code="{esc(last.get("code", ""))}" {bbox_attr(box)}>'
        f'<path d="{d}" fill="none" stroke="{PATH}" stroke-width="4" stroke-dasharray="10 6" '
        f'stroke-linejoin="round" opacity="0.85"/>'
        f'<circle cx="{sx:g}" cy="{sy:g}" r="9" fill="none" stroke="{PATH}" stroke-width="3"/>'
        f'<path d="{head}" fill="{PATH}"/></g>'
    )


def _piece_icon(piece: str, x: float, y: float, ink: str) -> str:
    """A pictogram of a garment in a 16 × 14 box at (x, y)."""
    if piece == "hat":
        d = f"M{x} {y + 13} H{x + 16} M{x + 3} {y + 12} Q{x + 8} {y - 2} {x + 13} {y + 12}"
        return f'<path d="{d}" stroke="{ink}" stroke-width="2" fill="{ink}"/>'
    if piece == "coat":
        d = f"M{x + 4} {y} H{x + 12} L{x + 16} {y + 14} H{x} Z"
        return f'<path d="{d}" fill="{ink}"/>'
    if piece == "trousers":
        d = (
            f"M{x + 2} {y} H{x + 14} L{x + 15} {y + 14} H{x + 10} "
            f"L{x + 8} {y + 5} L{x + 6} {y + 14} H{x + 1} Z"
        )
        return f'<path d="{d}" fill="{ink}"/>'
    return ""


def _points(player: Mapping[str, Any], players: Sequence[Mapping[str, Any]], score: Any, t: Translate) -> str:
    """ "5 points", and the partner in the partner variant: "5 points (partner: south)"."""
    text = t(LABELS["points"]).format(score=score)
    partner = next((p for p in players if p.get("seat") == player.get("partner")), None)
    if player.get("partner") is not None and partner is not None:
        text += " " + t(LABELS["partner"]).format(seat=t(str(partner["colour"])))
    return text


def _piece_order(card: Mapping[str, Any]) -> int:
    pieces = ("hat", "coat", "trousers")
    return pieces.index(card["piece"]) if card["piece"] in pieces else len(pieces)


def _panel(
    board: Board, view: Mapping[str, Any], names: Mapping[str, str], top: float, width: float, t: Translate
) -> str:
    """The target, each player's cards and score, and the legend of the robes."""
    out = []
    target = view.get("target")
    if view.get("finished"):
        headline = t(LABELS["over"])
    elif target:
        colour = board.pavilion(int(target)).colour
        headline = t(LABELS["target"]).format(number=target, colour=t(colour))
    else:
        headline = ""
    out.append(
        f'<text x="{MARGIN}" y="{top + 22}" font-size="20" font-weight="bold" fill="{INK}" '
        f'class="headline">{esc(headline)}</text>'
    )
    colours = {p.colour: p.number for p in board.pavilions}
    players = list(view.get("players") or ())
    y = top + 40
    for player in players:
        seat = str(player["colour"])
        name = names.get(seat, "")
        active = view.get("active") is not None and player.get("seat") == view.get("active")
        score = (player.get("score") or {}).get("total", 0)
        label = f"{t(seat)} {name}".strip()
        weight = "bold" if active else "normal"
        out.append(
            f'<g class="player" data-colour="{esc(seat)}" data-score="{esc(score)}" '
            f'data-active="{"true" if active else "false"}">'
            + (  # the one to move: a pointer, not only bold type
                f'<path d="M{MARGIN} {y + 9} L{MARGIN + 12} {y + 16} L{MARGIN} {y + 23} Z" fill="{INK}"/>'
                if active
                else ""
            )
            + f'<text x="{MARGIN + 18}" y="{y + 22}" font-size="16" font-weight="{weight}" fill="{INK}">'
            f"{esc(clip(label, 28))}</text>"
            f'<text x="{MARGIN + 18}" y="{y + 42}" font-size="13" fill="{INK}">'
            f"{esc(_points(player, players, score, t))}</text>"
        )
        cards = sorted(
            player.get("cards") or (), key=lambda c: (colours.get(c["colour"], 9), _piece_order(c))
        )
        step = min(CARD_W + 6, (width - MARGIN - CARDS_X - CARD_W) / max(len(cards) - 1, 1))
        for i, card in enumerate(cards):
            cx = CARDS_X + i * step
            fill = PAVILION_FILL.get(card["colour"], PAVING)
            ink = text_on(fill)
            number = colours.get(card["colour"], "")
            out.append(
                f'<g class="card" data-colour="{esc(card["colour"])}" data-piece="{esc(card["piece"])}">'
                f'<rect x="{cx}" y="{y + 6}" width="{CARD_W}" height="{CARD_H}" rx="3" fill="{fill}" '
                f'stroke="{INK}" stroke-width="1.2"/>'
                f'<text x="{cx + CARD_W / 2}" y="{y + 19}" font-size="11" font-weight="bold" '
                f'text-anchor="middle" fill="{ink}">{number}</text>'
                f"{_piece_icon(card['piece'], cx + 5, y + 23, ink)}</g>"
            )
        out.append("</g>")
        y += ROW
    # the legend: a robe of each colour with its letter
    lx = MARGIN
    for colour, letter in LETTER.items():
        out.append(
            f'<g class="legend-robe" data-colour="{colour}">{_figure(colour, colour, lx, y)}'
            f'<text x="{lx + CELL + 2}" y="{y + 38}" font-size="14" fill="{INK}">'
            f"{letter.lower()} {esc(t(colour))}</text></g>"
        )
        lx += CELL + 120
    box: Box = (0, top, width, y + CELL + 4)
    return f'<g class="panel" id="panel" {bbox_attr(box)}>{"".join(out)}</g>'
