"""Die Verbotene Stadt's board as plain text for mails, drawn from a view (pure: no Django).

``text_board(view, names, translate)`` gives lines of at most 76 columns: the 15 × 15 grid
(officials by their two-letter codes, pavilions as ``P1``–``P8``, the target as ``*n``, roofs
``##``, walls ``|`` and ``-`` between squares, start squares ``:``), a legend, the terrace of
banishment, the cards left in the pavilions and each player's cards.  Every English phrase goes
through ``translate`` (gettext in the service); the official codes stay the same in every
language.  Only the viewer's own dial (``view["dial"]``) is ever shown.
"""

from __future__ import annotations

import textwrap
from collections.abc import Callable, Mapping, Sequence
from functools import lru_cache
from typing import Any

from .board import Board, Square, load_board

WIDTH = 76
HANG = 4  # a wrapped line's continuation indent

Translate = Callable[[str], str]

# msgids, so that a catalogue tool can find them; translate() says them in the reader's language
LEGEND_OFFICIALS = "Officials: hat, then robe: r red, y yellow, b blue, g green, k black."
LEGEND_SQUARES = "P1-P8 pavilions, *n the target, ## roof, | - walls, : start square."
TARGET = "Target: pavilion {number} ({colour})."
NO_TARGET = "No target pavilion yet."
TERRACE = "Terrace of banishment ({count} of 15): {codes}"
CARDS_LEFT = "Cards left in the pavilions: {list}"
LAST_MOVE = "Last move: {code} {path}"
# "Moves this turn: 1", not "1 moves": the board's words have no plural forms
FATE = "Moves this turn: {moves}; last fate die: {die}, {face}."
FATE_NONE = "Moves this turn: {moves}."
YOUR_DIAL = "Your dial (secret): {code}"
TO_MOVE = "To move: {seat}"
WAITING = "Waiting for: {seats}"
STILL_TO_ANSWER = "Still to answer (sealed, all at once): {seats}"
PLAYER = "{seat} {name}: {cards}; score {score}"
PARTNER = "(partner: {seat})"
NO_CARDS = "no cards"
CARD_GROUP = "{colour}: {pieces}"
FINISHED = "The game is over."

COLOUR_WORDS = ("red", "orange", "yellow", "white", "blue", "purple", "green", "black")
SEAT_WORDS = ("north", "east", "south", "west")
PIECE_WORDS = ("hat", "coat", "trousers")
DIE_WORDS = {"small": "small die", "middle": "middle die", "large": "large die"}
FACE_WORDS = {
    "black": "black dot",
    "red": "red face",
    "red-dragon": "red face with the dragon",
    "red-pavilion": "red face with the pavilion",
}


@lru_cache(maxsize=8)
def _board(name: str) -> Board:
    return load_board(name)


def text_board(view: Mapping[str, Any], names: Mapping[str, str], translate: Translate) -> list[str]:
    """The board and its state as plain-text lines (≤ 76 columns) for the viewer of ``view``.
    ``names`` maps a seat's colour ("north") to the player's name."""
    t = translate
    board = _board(str(view.get("board") or "forbidden_city"))
    lines = _grid(board, view)
    lines.append("")
    lines += _wrap(t(LEGEND_OFFICIALS))
    lines += _wrap(t(LEGEND_SQUARES))
    lines.append("")
    target = view.get("target")
    if view.get("finished"):
        lines.append(t(FINISHED))
    elif target:
        colour = board.pavilion(int(target)).colour
        lines.append(t(TARGET).format(number=target, colour=t(colour)))
    else:
        lines.append(t(NO_TARGET))
    terrace = list(view.get("terrace") or ())
    lines += _wrap(t(TERRACE).format(count=len(terrace), codes=" ".join(terrace) or "-"))
    pavilions = view.get("pavilions") or ()
    left = ", ".join(_keep(f"{p['number']} {t(p['colour'])} {p['cards_left']}") for p in pavilions)
    lines += _wrap(t(CARDS_LEFT).format(list=left or "-"))
    last = view.get("last_move")
    if last and last.get("path"):
        lines += _wrap(t(LAST_MOVE).format(code=last["code"], path=_path_text(last["path"])))
    fate = view.get("fate") or {}
    if fate and not view.get("finished"):
        roll = fate.get("last")
        if roll:
            die = t(DIE_WORDS.get(roll["die"], roll["die"]))
            face = t(FACE_WORDS.get(roll["face"], roll["face"]))
            lines += _wrap(t(FATE).format(moves=fate["moves"], die=die, face=face))
        elif fate["moves"]:  # before the first roll of the game there is nothing to say
            lines += _wrap(t(FATE_NONE).format(moves=fate["moves"]))
    dial = view.get("dial")
    if dial and dial.get("code"):  # the viewer's own dial; a spectator's view has none
        lines += _wrap(t(YOUR_DIAL).format(code=_official(str(dial["code"]), t)))
    lines.append("")
    players = list(view.get("players") or ())
    by_seat = {p["seat"]: p for p in players}

    def seat_text(seat: Any) -> str:
        player = by_seat.get(seat)
        if player is None:
            return str(seat)
        name = names.get(player["colour"], "")
        return f"{_name(player['colour'], t)} {name}".rstrip()

    pending = list(view.get("pending") or ())
    if any(p.get("sealed") for p in pending) and not view.get("finished"):
        # a window where every seat answers at once (the dials, the challenge): nobody is "to
        # move"; the seats that still owe a sealed answer, the active one among them if it does
        seats = ", ".join(seat_text(s) for s in dict.fromkeys(p["seat"] for p in pending))
        lines += _wrap(t(STILL_TO_ANSWER).format(seats=seats))
    elif not view.get("finished"):
        if view.get("active") is not None:
            lines.append(t(TO_MOVE).format(seat=seat_text(view["active"])))
        waiting = [p["seat"] for p in pending if p.get("seat") != view.get("active")]
        if waiting:
            seats = ", ".join(seat_text(s) for s in dict.fromkeys(waiting))
            lines += _wrap(t(WAITING).format(seats=seats))
    for p in players:
        line = t(PLAYER).format(
            seat=_name(p["colour"], t),
            name=names.get(p["colour"], ""),
            cards=_cards_text(p.get("cards") or (), t),
            score=(p.get("score") or {}).get("total", 0),
        )
        if p.get("partner") is not None:
            partner = by_seat.get(p["partner"])
            line += " " + t(PARTNER).format(seat=_name(partner["colour"], t) if partner else p["partner"])
        lines += _wrap(line)
    return lines


def _name(seat: str, t: Translate) -> str:
    """A seat's name as a name is written, capitalised in every language ("Est", not "est")."""
    said = t(seat)
    return said[:1].upper() + said[1:]


def _grid(board: Board, view: Mapping[str, Any]) -> list[str]:
    """Row and column numbers (0-14, as in BOARD.md), each square two characters wide with a
    wall column after it, and a wall line under each row (blank where there is none)."""
    at: dict[Square, str] = {}
    for official in view.get("officials") or ():
        if official.get("square") is not None:
            r, c = official["square"]
            at[(int(r), int(c))] = str(official["code"])
    target = view.get("target")
    n = board.size
    lines = ["    " + "".join(f"{c:>2} " for c in range(n)).rstrip()]
    for r in range(n):
        row = f"{r:>2}  "
        under = "    "
        for c in range(n):
            square = (r, c)
            row += _cell(board, square, at, target)
            row += "|" if frozenset((square, (r, c + 1))) in board.walls else " "
            under += "-- " if r + 1 < n and frozenset((square, (r + 1, c))) in board.walls else "   "
        lines.append(row.rstrip())
        if r + 1 < n:
            lines.append(under.rstrip() if under.strip() else "")
    return lines


def _cell(board: Board, square: Square, at: Mapping[Square, str], target: Any) -> str:
    pavilion = board.pavilion_at(square)
    if pavilion is not None:
        return f"{'*' if target == pavilion.number else 'P'}{pavilion.number}"
    if square in at:
        return at[square][:2].ljust(2)
    if square in board.blocked:
        return "##"
    if board.is_start(square):
        return " :"
    return " ."


def _official(code: str, t: Translate) -> str:
    """``rg (red/green)``: an official's code with its hat and robe colours."""
    initials = dict(zip("rybgk", ("red", "yellow", "blue", "green", "black"), strict=True))
    if len(code) != 2 or any(c not in initials for c in code):
        return code
    return f"{code} ({t(initials[code[0]])}/{t(initials[code[1]])})"


def _path_text(path: Sequence[Sequence[int]]) -> str:
    """The squares where the official started, turned and stopped: ``5,7 > 3,7 > 3,4``."""
    points = [(int(r), int(c)) for r, c in path]
    corners = points[:1]
    for i in range(1, len(points) - 1):
        before, here, after = points[i - 1], points[i], points[i + 1]
        if (here[0] - before[0], here[1] - before[1]) != (after[0] - here[0], after[1] - here[1]):
            corners.append(here)
    if len(points) > 1:
        corners.append(points[-1])
    return " > ".join(f"{r},{c}" for r, c in corners)


def _cards_text(cards: Sequence[Mapping[str, str]], t: Translate) -> str:
    """A player's cards grouped by colour, as the scoring groups them: ``red: hat, coat``."""
    if not cards:
        return t(NO_CARDS)
    by_colour: dict[str, list[str]] = {}
    for card in cards:
        by_colour.setdefault(card["colour"], []).append(card["piece"])
    order = {c: i for i, c in enumerate(COLOUR_WORDS)}
    pieces = {p: i for i, p in enumerate(PIECE_WORDS)}
    groups = []
    for colour in sorted(by_colour, key=lambda c: order.get(c, len(order))):
        held = sorted(by_colour[colour], key=lambda p: pieces.get(p, len(pieces)))
        groups.append(_keep(t(CARD_GROUP).format(colour=t(colour), pieces=", ".join(t(p) for p in held))))
    return " / ".join(groups)


NBSP = "\u00a0"  # textwrap does not break at it; _wrap turns it back into a space


def _keep(text: str) -> str:
    """``text`` kept on one line when wrapped."""
    return text.replace(" ", NBSP)


def _wrap(line: str) -> list[str]:
    if len(line) <= WIDTH:
        return [line.replace(NBSP, " ")]
    wrapped = textwrap.wrap(line, WIDTH, subsequent_indent=" " * HANG, break_on_hyphens=False)
    return [part.replace(NBSP, " ") for part in wrapped]
