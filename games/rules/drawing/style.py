"""Colours, text contrast and escaping of the board picture (a game draws its own icons).

The six player colours are picked to stay apart for the common colour-vision deficiencies
as far as six hues can (red and orange differ in lightness as well as hue), and every text
drawn on a fill takes black or white, whichever contrasts more with that fill.
"""

from __future__ import annotations

import html
import unicodedata

FONT = "'Liberation Sans', Arial, Helvetica, sans-serif"  # Liberation Sans has Arial's metrics

PLAYER_FILL = {
    "red": "#d1343a",
    "blue": "#2f6db5",
    "green": "#2e9a4e",
    "yellow": "#f4cf3b",
    "purple": "#9448bc",
    "orange": "#f0913a",
}
NEUTRAL_FILL = "#e4d9bf"  # a neutral tile lies there
EMPTY_FILL = "#faf6ec"  # no tile, nobody
OUT_FILL = "#c9c6c0"  # brown area not in play (under the hatching)
OUT_TEXT = "#6b6864"
LAND = "#ede6d4"
SEA = "#bcd6e8"
INK = "#2b2622"
BORDER = "#4a4038"


def fill_of(colour: str | None) -> str:
    return PLAYER_FILL.get(colour or "", NEUTRAL_FILL)


def _luminance(hex_colour: str) -> float:
    """Relative luminance (WCAG 2)."""
    channels = [int(hex_colour[i : i + 2], 16) / 255 for i in (1, 3, 5)]
    linear = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def contrast(a: str, b: str) -> float:
    la, lb = sorted((_luminance(a), _luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


def text_on(fill: str) -> str:
    """Black or white ink, whichever reads better on ``fill``."""
    return "#111111" if contrast(fill, "#111111") >= contrast(fill, "#ffffff") else "#ffffff"


def esc(text: object) -> str:
    """Text for an SVG element or attribute: escaped, and without the control characters
    XML forbids (a player's name is typed by the player)."""
    clean = "".join(ch for ch in str(text) if unicodedata.category(ch) != "Cc")
    return html.escape(clean, quote=True)


def clip(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


def hatch_pattern() -> str:
    """Diagonal hatching for the areas not in play.  Drawn in an unrotated tile (the lines
    run corner to corner), because a rotated pattern makes resvg take twice as long."""
    return (
        '<pattern id="out-of-play" width="8" height="8" patternUnits="userSpaceOnUse">'
        f'<rect width="8" height="8" fill="{OUT_FILL}"/>'
        '<path d="M-2 2 L2 -2 M0 8 L8 0 M6 10 L10 6" stroke="#a9a59e" stroke-width="2.2"/></pattern>'
    )
