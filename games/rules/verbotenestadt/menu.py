"""The menu of a seat for people: one line per kind of answer, in English, German or French
(every command written parses back).  Used in decision mails and after every refusal."""

from __future__ import annotations

from collections import defaultdict

from .commands import Dial, Stop
from .decisions import legal, move_options, owed
from .notation import SYNTAX, format_command_in
from .state import State
from .words import KEYWORDS, spell

PLACEHOLDERS = {
    "en": {
        "<official>": "<official>",
        "<direction>": "<direction>",
        "<directions>": "<directions>",
        "<turn>": "<turn>",
        "<colour>": "<colour>",
        "<piece>": "<piece>",
    },
    "de": {
        "<official>": "<Beamter>",
        "<direction>": "<Richtung>",
        "<directions>": "<Richtungen>",
        "<turn>": "<Wende>",
        "<colour>": "<Farbe>",
        "<piece>": "<Teil>",
    },
    "fr": {
        "<official>": "<fonctionnaire>",
        "<direction>": "<direction>",
        "<directions>": "<directions>",
        "<turn>": "<virage>",
        "<colour>": "<couleur>",
        "<piece>": "<pièce>",
    },
}
PHRASES = {
    "en": {
        "officials": "dial one of: {codes}",
        "plan": "or a plan: {syntax}",
        "enter": "into the target: {moves}",
        "turn": "after the slide the official may turn left or right once and slide on: {example}",
        "turns": "after each slide the official may turn left or right and slide on: {example}",
    },
    "de": {
        "officials": "besteche einen von: {codes}",
        "plan": "oder ein Plan: {syntax}",
        "enter": "in den Zielpavillon: {moves}",
        "turn": "nach dem Rutschen darf der Beamte einmal links oder rechts abbiegen und weiter: {example}",
        "turns": "nach jedem Rutschen darf der Beamte links oder rechts abbiegen und weiter: {example}",
    },
    "fr": {
        "officials": "soudoie l'un de : {codes}",
        "plan": "ou un plan : {syntax}",
        "enter": "dans le pavillon cible : {moves}",
        "turn": "après la glissade le fonctionnaire peut tourner une fois à gauche ou à droite et"
        " repartir : {example}",
        "turns": "après chaque glissade le fonctionnaire peut tourner à gauche ou à droite et repartir :"
        " {example}",
    },
}


# decision kind -> the commands that answer it
ANSWERS = {
    "dial": ("dial",),
    "rebribe": ("keep", "dial"),
    "move": ("move", "step", "plan", "stop"),
    "challenge": ("believe", "doubt"),
    "dragon": ("take", "spare"),
    "penalty": ("take",),
    "empty": ("take", "spare"),
}


def syntax(kind: str, language: str = "en") -> str:
    """The syntax line of a command keyword (``SYNTAX[kind]``) or of the answers to a decision
    kind (``rebribe``: ``keep | dial <official>``) in ``language``:
    ``ziehe <Beamter> <Richtung> [<Wende> ...]``."""
    if kind not in SYNTAX:
        return " | ".join(syntax(keyword, language) for keyword in ANSWERS[kind])
    line = SYNTAX[kind]
    if language == "en":
        return line
    out = []
    for word in line.split(" "):
        bare = word.strip(";[]")
        if bare in KEYWORDS["en"]:
            word = word.replace(bare, spell(KEYWORDS, bare, language))
        elif bare in PLACEHOLDERS[language]:
            word = word.replace(bare, PLACEHOLDERS[language][bare])
        out.append(word)
    return " ".join(out)


def describe(state: State, seat: int, language: str = "en") -> list[str]:
    """The legal commands of ``seat`` as lines.  A move menu is short: the moves that enter
    the target now, then per official its single slides and short moves with the square each
    ends on (row,column); a slide may be followed by a turn (by turns, with many_turns), so
    more squares are reachable."""
    phrases = PHRASES[language]
    if owed(state, seat) == "move":
        return _move_lines(state, seat, language)
    lines: list[str] = []
    dials: list[str] = []
    for c in legal(state, seat):
        if isinstance(c, Dial):
            dials.append(c.code)
        else:
            lines.append(format_command_in(state, c, language))
    if dials:
        lines.append(phrases["officials"].format(codes=" ".join(dials)))
    return lines


def _move_lines(state: State, seat: int, language: str) -> list[str]:
    phrases = PHRASES[language]
    options = move_options(state, seat)
    target = state.board.pavilion(state.target).square if state.target else None
    lines: list[str] = []
    if state.moves:
        lines.append(format_command_in(state, Stop(), language))
    entering = [m for m, end in options if end == target]
    if entering:
        lines.append(
            phrases["enter"].format(moves=" | ".join(format_command_in(state, m, language) for m in entering))
        )
    simple: dict[str, list[str]] = defaultdict(list)
    for m, end in options:
        if len(m.path) == 1 and end != target:
            simple[m.code].append(f"{format_command_in(state, m, language)} ({end[0]},{end[1]})")
    for code in sorted(simple):
        lines.append(" | ".join(simple[code]))
    # the example is a move with a turn this seat can make now (a fixed one named officials
    # already on the terrace or walled in); no line when no official can turn
    turning = [(m, end) for m, end in options if len(m.path) > 1 and end != target]
    if turning:
        move, end = max(turning, key=lambda option: len(option[0].path))
        example = f"{format_command_in(state, move, language)} ({end[0]},{end[1]})"
        lines.append(phrases["turns" if state.config.options.many_turns else "turn"].format(example=example))
    lines.append(phrases["plan"].format(syntax=syntax("plan", language)))
    return lines
