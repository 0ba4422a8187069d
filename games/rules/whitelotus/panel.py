"""The panel under the map: year and step, emperor, rebel leader, the bag, every player's
score and VP chips, who must decide now, and a legend of the symbols.

Labels are English msgids said through the ``translate`` the service passes (its gettext, in
the reader's language); they live in the notifications catalogue with the other mail words.
Pure Python, like the rest of the game (no Django): the service supplies the language.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.rules.drawing.incremental import bbox_attr, text_box, union
from games.rules.drawing.style import BORDER, INK, NEUTRAL_FILL, esc, fill_of, text_on

from ..base import Translate, particular
from .icons import icon
from .pagewords import phase_text


def gettext_noop(text: str) -> str:
    """Marks an English msgid for the catalogue (said later through ``translate``)."""
    return text


LABELS = {
    "year": gettext_noop("Year {year}"),
    "last_year": gettext_noop("Year {year}, the last"),
    "emperor": gettext_noop("Emperor: {who}"),
    "rebel": gettext_noop("Rebel leader: {who}"),
    "no_rebel": gettext_noop("Rebel leader: none"),
    "bag": gettext_noop("Tiles in the bag: {count}"),
    "points": gettext_noop("Score {points} · VP chips {chips}"),
    "to_decide": gettext_noop("to decide now"),
    "sealed": gettext_noop("has sealed"),
    "game_over": gettext_noop("Game over. Winner: {who}"),
    "marker": gettext_noop("control marker"),
    "lotus": gettext_noop("lotus area"),
    "dragon": gettext_noop("dragon area"),
    "out": gettext_noop("not in play"),
    "title": gettext_noop("White Lotus board, year {year}: {phase}"),
}
# Each owner's letter, drawn on the provinces it owns, in its control markers and on its card
# in the panel, so owners are told apart without colour (greyscale, colour-blind readers).
# Translated, with a context, so each language may use its colour words' initials; they must
# stay distinct within a language (two letters where initials collide: "Gr"/"Ge" for Grün/Gelb).
LETTER_CONTEXT = "letter of a player colour"
LETTERS = {"red": "R", "blue": "B", "green": "G", "yellow": "Y", "purple": "P", "orange": "O"}
BUILDINGS = ("palace", "temple", "fort", "ricefield", "village")
ROW = 56  # height of a row of players: a card and the room for a tag on its top edge
CARD = 44
COLUMNS = 3


def letter(colour: str, t: Translate) -> str:
    """The owner's letter of a player colour, in ``t``'s language."""
    if colour not in LETTERS:
        return colour[:1].upper()
    return particular(t, LETTER_CONTEXT, LETTERS[colour])


def colour_word(colour: str, t: Translate) -> str:
    """A player colour as people read it ("Red", "Rot")."""
    return t(colour.capitalize()) if colour in LETTERS else t(colour)


def title(view: Mapping[str, Any], t: Translate) -> str:
    return t(LABELS["title"]).format(year=view["year"], phase=phase_text(view, t))


def draw(
    view: Mapping[str, Any], names: Mapping[str, str], t: Translate, *, top: int, width: int
) -> tuple[str, int]:
    """The panel's SVG and its height, placed ``top`` units down a picture ``width`` wide."""
    left, right = 14, width - 14
    out = [f'<g class="panel" transform="translate(0 {top})">']
    out.append(_headline(view, names, t, left, right, top))
    rows = -(-len(view["players"]) // COLUMNS)
    column = (right - left) / COLUMNS
    for i, player in enumerate(view["players"]):
        x = left + (i % COLUMNS) * column
        y = 62 + (i // COLUMNS) * ROW
        out.append(_player(view, player, names, t, x, y, column - 12, top))
    legend_y = 62 + rows * ROW + 12
    out.append(_legend(t, left, legend_y, top, width))
    out.append("</g>")
    return "".join(out), legend_y + 22


def _who(colour: str | None, names: Mapping[str, str], t: Translate) -> str:
    if not colour:
        return ""
    name = names.get(colour, "")
    return f"{colour_word(colour, t)} ({_short(name)})" if name else colour_word(colour, t)


def _short(name: str) -> str:
    return name if len(name) <= 22 else name[:21].rstrip() + "…"


def _headline(
    view: Mapping[str, Any], names: Mapping[str, str], t: Translate, left: float, right: float, top: float = 0
) -> str:
    outcome = view.get("outcome")
    if outcome:
        winners = ", ".join(_who(c, names, t) for c in outcome["winners"])
        first = t(LABELS["game_over"]).format(who=winners)
    else:
        year = t(LABELS["last_year" if view["final_year"] else "year"]).format(year=view["year"])
        first = f"{year} · {phase_text(view, t)}"
    emperor = t(LABELS["emperor"]).format(who=_who(view["emperor"], names, t))
    rebel = (
        t(LABELS["rebel"]).format(who=_who(view["rebel"], names, t))
        if view["rebel"]
        else t(LABELS["no_rebel"])
    )
    bag = t(LABELS["bag"]).format(count=view["bag"])
    # each line its own part, boxed in the picture's units (redrawn alone when it changes)
    boxes = (
        bbox_attr(text_box(left, top + 24, first, 20)),
        bbox_attr(text_box(right, top + 24, bag, 15, "end")),
        bbox_attr(text_box(left, top + 49, emperor + rebel + "    ", 15)),
    )
    return (
        f'<text class="headline" x="{left}" y="24" font-size="20" font-weight="bold" fill="{INK}" '
        f"{boxes[0]}>{esc(first)}</text>"
        f'<text class="bag" x="{right}" y="24" font-size="15" text-anchor="end" fill="{INK}" {boxes[1]}>'
        f"{esc(bag)}</text>"
        f'<text class="rulers" x="{left}" y="49" font-size="15" fill="{INK}" {boxes[2]}>'
        f'<tspan class="emperor" data-colour="{esc(view["emperor"])}">{esc(emperor)}</tspan>'
        f'<tspan dx="28" class="rebel" data-colour="{esc(view["rebel"] or "")}">{esc(rebel)}</tspan></text>'
    )


def _player(
    view: Mapping[str, Any],
    player: Mapping[str, Any],
    names: Mapping[str, str],
    t: Translate,
    x: float,
    y: float,
    w: float,
    top: float = 0,
) -> str:
    colour = player["colour"]
    fill = fill_of(colour)
    waiting = {d["colour"] for d in view["pending"]}
    sealed = set(view["step"].get("sealed_by", ())) | set(view["step"].get("chosen_by", ()))
    name = names.get(colour, "")
    head = colour_word(colour, t) + (f" · {_short(name)}" if name else "")
    score = player["score"]["total"]
    line = t(LABELS["points"]).format(points=score, chips=player["vp_chips"])
    edge, thick = (INK, 2.5) if colour in waiting else ("#cfc6b2", 1)
    card = (x - 3, top + y - 11, x + w + 3, top + y + CARD + 3)
    box = union(card, text_box(x + 40, top + y + 19, head, 15), text_box(x + 40, top + y + 37, line, 14))
    parts = [
        f'<g class="player" data-colour="{esc(colour)}" data-score="{score}" '
        f'data-vp-chips="{player["vp_chips"]}" data-to-decide="{"true" if colour in waiting else "false"}" '
        f"{bbox_attr(box)}>",
        f'<rect x="{x:g}" y="{y:g}" width="{w:g}" height="{CARD}" rx="6" fill="#fbf8f0" '
        f'stroke="{edge}" stroke-width="{thick}"/>',
        f'<rect x="{x + 8:g}" y="{y + 8:g}" width="26" height="26" rx="4" fill="{fill}" stroke="{BORDER}"/>',
        _letter(colour, t, x + 21, y + 21, text_on(fill), 15 if len(letter(colour, t)) < 2 else 12.5),
    ]
    if player["emperor"]:
        parts.append(_crown(x + w - 18, y + 30, INK))
    parts.append(
        f'<text x="{x + 40:g}" y="{y + 19:g}" font-size="15" font-weight="bold" fill="{INK}">'
        f"{esc(head)}</text>"
        f'<text x="{x + 40:g}" y="{y + 37:g}" font-size="14" fill="{INK}">{esc(line)}</text>'
    )
    tag = "to_decide" if colour in waiting else "sealed" if colour in sealed else ""
    if tag:
        label = esc(t(LABELS[tag]))
        ink, paper = ("#ffffff", INK) if tag == "to_decide" else (INK, "#e2dccd")
        # on the card's top edge, clear of its two lines however long a language makes them
        parts.append(
            f'<rect x="{x + w - 124:g}" y="{y - 9:g}" width="116" height="18" rx="9" fill="{paper}" '
            f'stroke="{INK}" stroke-width="1"/>'
            f'<text class="tag" x="{x + w - 66:g}" y="{y + 4:g}" font-size="11.5" text-anchor="middle" '
            f'font-weight="bold" fill="{ink}">{label}</text>'
        )
    parts.append("</g>")
    return "".join(parts)


def _letter(colour: str, t: Translate, x: float, y: float, ink: str, size: float) -> str:
    """The owner's letter centred at (x, y)."""
    return (
        f'<text class="letter" x="{x:g}" y="{y + size * 0.36:g}" font-size="{size:g}" font-weight="bold" '
        f'text-anchor="middle" fill="{ink}">{esc(letter(colour, t))}</text>'
    )


def _crown(x: float, y: float, ink: str) -> str:
    return (
        f'<path d="M{x - 8:g} {y + 5:g} L{x - 8:g} {y - 5:g} L{x - 4:g} {y:g} L{x:g} {y - 7:g} '
        f'L{x + 4:g} {y:g} L{x + 8:g} {y - 5:g} L{x + 8:g} {y + 5:g} Z" fill="{ink}"/>'
    )


def _legend(t: Translate, x: float, y: float, top: float, width: float) -> str:
    items = [(kind, t(kind)) for kind in BUILDINGS]
    items += [("lotus", t(LABELS["lotus"])), ("dragon", t(LABELS["dragon"]))]
    parts = [f'<g class="legend" {bbox_attr((0, top + y - 14, width, top + y + 14))}>']
    for kind, label in items:
        parts.append(icon(kind, x + 10, y, INK, NEUTRAL_FILL, 0.9))
        parts.append(f'<text x="{x + 24:g}" y="{y + 5:g}" font-size="13" fill="{INK}">{esc(label)}</text>')
        x += 34 + 7.2 * len(label)
    marker = t(LABELS["marker"])
    parts.append(
        f'<circle cx="{x + 8:g}" cy="{y:g}" r="6.5" fill="#ffffff" stroke="{INK}" stroke-width="1.6"/>'
        f'<text x="{x + 20:g}" y="{y + 5:g}" font-size="13" fill="{INK}">{esc(marker)}</text>'
    )
    x += 30 + 7.2 * len(marker)
    parts.append(
        f'<rect x="{x:g}" y="{y - 8:g}" width="22" height="16" fill="url(#out-of-play)" stroke="{BORDER}"/>'
        f'<text x="{x + 28:g}" y="{y + 5:g}" font-size="13" fill="{INK}">{esc(t(LABELS["out"]))}</text>'
    )
    parts.append("</g>")
    return "".join(parts)
