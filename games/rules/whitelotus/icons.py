"""White Lotus's icons on its board and its cards: the five buildings, the lotus and the dragon,
each a silhouette a reader tells apart at a glance and in greyscale."""

from __future__ import annotations

# Icons are drawn around (0, 0) in a box about 20 units wide, in one ink colour.
_ICONS = {
    # Five silhouettes a reader tells apart at a glance and in greyscale: the palace is the
    # only tall, tiered roof; the temple an open gate; the fort a block with battlements; the
    # ricefield thin stalks; the village two low huts.
    "palace": (
        '<path d="M-1 -11.5 H1 V-8 H-1 Z M-8.5 -4.5 Q-4 -5.5 0 -9 Q4 -5.5 8.5 -4.5 Z '
        'M-5 -5 H5 V-1.5 H-5 Z M-11.5 2 Q-6 1 0 -3 Q6 1 11.5 2 Z M-8.5 1.5 H8.5 V9.5 H-8.5 Z" '
        'fill="{ink}"/>'
        '<rect x="-6" y="4.5" width="2.5" height="5" fill="{paper}"/>'
        '<rect x="-1.25" y="4.5" width="2.5" height="5" fill="{paper}"/>'
        '<rect x="3.5" y="4.5" width="2.5" height="5" fill="{paper}"/>'
    ),
    "temple": (
        '<path d="M-11.5 -9 Q0 -11.5 11.5 -9 V-6 H-11.5 Z" fill="{ink}"/>'
        '<rect x="-9" y="-3" width="18" height="2.2" fill="{ink}"/>'
        '<rect x="-8.5" y="-6" width="2.8" height="15.5" fill="{ink}"/>'
        '<rect x="5.7" y="-6" width="2.8" height="15.5" fill="{ink}"/>'
    ),
    "fort": (
        '<path d="M-6 9.5 V-9 H-3.25 V-5.5 H-1.25 V-9 H1.25 V-5.5 H3.25 V-9 H6 V9.5 Z" fill="{ink}"/>'
        '<path d="M-2.25 9.5 V4.5 A2.25 2.25 0 0 1 2.25 4.5 V9.5 Z" fill="{paper}"/>'
    ),
    "ricefield": (
        '<path d="M-10 8 H10 M-10 4 H10 M-5 4 V-5 M0 4 V-8 M5 4 V-5 M-5 -1 L-8.5 -4.5 M0 -3 L3.5 -6.5 '
        'M5 -1 L8.5 -4.5" stroke="{ink}" stroke-width="1.8" stroke-linecap="round" fill="none"/>'
    ),
    "village": (
        '<path d="M-11 8.5 V2.5 L-6.5 -1.5 L-2 2.5 V8.5 Z" fill="{ink}"/>'
        '<path d="M0 8.5 V0.5 L5.5 -4.5 L11 0.5 V8.5 Z" fill="{ink}"/>'
        '<rect x="-7.75" y="5" width="2.5" height="3.5" fill="{paper}"/>'
        '<rect x="4.25" y="4.5" width="2.5" height="4" fill="{paper}"/>'
    ),
    "lotus": (
        '<circle r="9" fill="#fde4ee" stroke="#b0306a" stroke-width="1.2"/>'
        '<path d="M0 5 C-3.5 1 -3.5 -2.5 0 -6 C3.5 -2.5 3.5 1 0 5 Z '
        "M0 5 C-4 4.5 -7 1.5 -7 -2.5 C-4 -1.5 -1.5 1 0 5 Z "
        'M0 5 C4 4.5 7 1.5 7 -2.5 C4 -1.5 1.5 1 0 5 Z" fill="#c2185b"/>'
    ),
    "dragon": (
        '<circle r="9" fill="#ffd75e" stroke="#8a6a00" stroke-width="1.2"/>'
        '<path d="M-5.5 5 C-6 0 0 1.5 0 -1.5 C0 -4.5 4.5 -5.5 5.5 -2" stroke="#a11d1d" '
        'stroke-width="2.4" fill="none" stroke-linecap="round"/>'
        '<circle cx="5.2" cy="-2.4" r="2" fill="#a11d1d"/>'
    ),
}


def icon(kind: str, x: float, y: float, ink: str, paper: str, scale: float = 1.0) -> str:
    """An icon centred at (x, y); ``paper`` is the fill it stands on (for its cut-outs)."""
    body = _ICONS[kind].format(ink=ink, paper=paper)
    size = "" if scale == 1.0 else f" scale({scale:g})"
    return f'<g class="icon icon-{kind}" transform="translate({x:g} {y:g}){size}">{body}</g>'
