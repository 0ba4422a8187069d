"""The menu of a seat for people: one line per kind of answer, in English, German or French
(every command written parses back).  Used in decision mails and after every refusal."""

from __future__ import annotations

from collections import defaultdict

from .commands import Dial, Keep, Move, Spare, Stop, Take
from .engine import legal
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
    "en": {"officials": "dial one of: {codes}", "plan": "or a plan: {syntax}"},
    "de": {"officials": "stelle einen ein von: {codes}", "plan": "oder ein Plan: {syntax}"},
    "fr": {"officials": "soudoie l'un de : {codes}", "plan": "ou un plan : {syntax}"},
}


def syntax(kind: str, language: str = "en") -> str:
    """``SYNTAX[kind]`` in ``language``: ``ziehe <Beamter> <Richtung> [<Wende> ...]``."""
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
    """The legal commands of ``seat`` as lines: moves grouped by official."""
    menu = legal(state, seat)
    lines: list[str] = []
    moves: dict[str, list[str]] = defaultdict(list)
    dials: list[str] = []
    for c in menu:
        if isinstance(c, Move):
            moves[c.code].append(format_command_in(state, c, language))
        elif isinstance(c, Dial):
            dials.append(c.code)
        elif isinstance(c, Stop | Keep | Take | Spare) or True:
            lines.append(format_command_in(state, c, language))
    if dials:
        lines.append(PHRASES[language]["officials"].format(codes=" ".join(dials)))
    for code in sorted(moves):
        lines.append(" | ".join(moves[code]))
    if moves:
        lines.append(PHRASES[language]["plan"].format(syntax=syntax("plan", language)))
    return lines
