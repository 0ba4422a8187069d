"""The text notation: one line per command (COMMANDS.md, beside this file).

::

    move rg n e        slide official rg (red hat, green robe) north, then turn east
    step yb s          the short move: one square south (from a start square)
    plan rg n e; step yb s; stop
                       moves to make while the fate dice stay red, then stop
    stop               end the turn after a red fate die
    dial rg            set the secret dial (also: dial red/green, dial rot/grün)
    keep               keep the dial (re-bribe window)
    believe | doubt    answer "Do you believe me?"
    take red hat       take that card (dragon, penalty, empty pavilion)
    spare              take nothing (after a dragon, at an empty pavilion)

Case-insensitive; keywords and words in English, German or French (:mod:`.words`); an
official as its code (``rg``), ``hat/robe`` or two colour words.  :func:`format_command`
writes the canonical English line and ``parse_command(state, format_command(state, c)) == c``.
"""

from __future__ import annotations

import re
from typing import Any

from ..base import IllegalCommand, Message
from ..commandline import command_words, not_a_command
from ..text import nfkc, visible
from . import words as vocabulary
from .commands import SIMPLE, Command, Dial, Move, Plan, Take
from .constants import INITIAL, MAX_PLAN, MAX_TURNS_IN_A_MOVE, OFFICIALS

KEYWORDS = vocabulary.ENGLISH_KEYWORDS
COMMAND_LIST = ", ".join(KEYWORDS)
MAX_LINE = 400

SYNTAX = {
    "move": "move <official> <direction> [<turn> ...]",
    "step": "step <official> <direction>",
    "plan": "plan <official> <directions>; step <official> <direction>; ...; stop",
    "stop": "stop",
    "dial": "dial <official>",
    "keep": "keep",
    "believe": "believe",
    "doubt": "doubt",
    "take": "take <colour> <piece>",
    "spare": "spare",
}


def clean(text: str) -> str:
    """The text as a command is read: invisible format characters removed, compatibility
    forms folded (NFKC), spaces collapsed, trailing full stops dropped."""
    return " ".join(nfkc(visible(text)).split()).rstrip(".!")


def format_command(state: Any, command: Command) -> str:
    """The canonical (English) line: the game-record format."""
    return format_command_in(state, command, "en")


def format_command_in(state: Any, command: Command, language: str) -> str:
    c = command

    def kw(word: str) -> str:
        return vocabulary.spell(vocabulary.KEYWORDS, word, language)

    def dirs(path: tuple[str, ...]) -> str:
        if language == "en":
            return " ".join(path)
        return " ".join(vocabulary.spell(vocabulary.DIRECTIONS, d, language) for d in path)

    if isinstance(c, Move):
        return f"{kw('step' if c.short else 'move')} {c.code} {dirs(c.path)}"
    if isinstance(c, Plan):
        parts = [
            f"{kw('step')} {m.code} {dirs(m.path)}" if m.short else f"{m.code} {dirs(m.path)}"
            for m in c.moves
        ]
        if c.stop:
            parts.append(kw("stop"))
        return f"{kw('plan')} " + "; ".join(parts)
    if isinstance(c, Dial):
        return f"{kw('dial')} {c.code}"
    if isinstance(c, Take):
        colour = vocabulary.spell(vocabulary.COLOURS, c.colour, language)
        piece = vocabulary.spell(vocabulary.PIECES, c.piece, language)
        return f"{kw('take')} {colour} {piece}"
    return kw(c.kind)


def _syntax_error(keyword: str, error: Message) -> IllegalCommand:
    return IllegalCommand(Message("{error} Write: {syntax}", error=error, syntax=Message(SYNTAX[keyword])))


# the square a menu line shows after a move ("move bk s (11,7)"): a player who copies the
# line sends it too; it is read as a note and left out
END_SQUARE = re.compile(r"\s*\(\s*\d{1,2}\s*,\s*\d{1,2}\s*\)(?=\s*(?:;|$))")


def parse_command(state: Any, text: str, seat: int | None = None) -> Command:
    """One command from one line; raises :class:`IllegalCommand` saying the syntax."""
    line = END_SQUARE.sub("", clean(text))
    words = command_words(line, MAX_LINE)
    keyword = vocabulary.keyword(words[0].rstrip(":;,"))
    if keyword is None:
        if ";" in line:  # a plan written without its keyword
            return _plan(line)
        raise not_a_command(words[0][:30], vocabulary.closest_keyword(words[0]), COMMAND_LIST)
    args = words[1:]
    if keyword == "plan" or ";" in line:
        return _plan(line if keyword != "plan" else line.split(None, 1)[1] if len(words) > 1 else "")
    try:
        return _parse(keyword, args)
    except _Syntax as error:
        raise _syntax_error(keyword, error.message) from None


class _Syntax(Exception):
    def __init__(self, message: Message) -> None:
        super().__init__(message.render())
        self.message = message


def _parse(keyword: str, args: list[str]) -> Command:
    if keyword in ("move", "step"):
        code, rest = _official(args)
        path = tuple(_direction(w) for w in rest)
        if not path:
            raise _Syntax(Message("Say which way the official goes."))
        if keyword == "step" and len(path) != 1:
            raise _Syntax(Message("A short move goes one square in one direction."))
        if len(path) > MAX_TURNS_IN_A_MOVE:
            raise _Syntax(Message("A move may have at most {n} slides.", n=MAX_TURNS_IN_A_MOVE))
        return Move(code, path, short=keyword == "step")
    if keyword == "dial":
        code, rest = _official(args)
        if rest:
            raise _Syntax(Message("Name one official."))
        return Dial(code)
    if keyword == "take":
        if len(args) != 2:
            raise _Syntax(Message("Name a card by its colour and piece."))
        colour, piece = vocabulary.colour(args[0]), vocabulary.piece(args[1])
        if colour is None:
            raise _Syntax(Message("'{word}' is not a garment colour.", word=args[0][:30]))
        if piece is None:
            raise _Syntax(Message("'{word}' is not a hat, coat or trousers.", word=args[1][:30]))
        return Take(colour, piece)
    if args:
        raise _Syntax(Message("'{keyword}' takes nothing after it.", keyword=keyword))
    return SIMPLE[keyword]


def _plan(body: str) -> Plan:
    parts = [p.strip() for p in body.split(";")]
    parts = [p for p in parts if p]
    moves: list[Move] = []
    stop = False
    for i, part in enumerate(parts):
        words = part.split()
        first = vocabulary.keyword(words[0])
        if first == "stop" and len(words) == 1:
            if i != len(parts) - 1:
                raise _syntax_error("plan", Message("'stop' can only end a plan."))
            stop = True
            continue
        try:
            command = _parse(first, words[1:]) if first in ("move", "step") else _parse("move", words)
        except _Syntax as error:
            raise _syntax_error(
                "plan", Message("Move {n} of the plan: {error}", n=i + 1, error=error.message)
            ) from None
        assert isinstance(command, Move)
        moves.append(command)
    if not moves and not stop:
        raise _syntax_error("plan", Message("A plan needs at least one move."))
    if len(moves) > MAX_PLAN:
        raise _syntax_error("plan", Message("A plan may hold at most {n} moves.", n=MAX_PLAN))
    return Plan(tuple(moves), stop)


def _official(args: list[str]) -> tuple[str, list[str]]:
    """An official from the front of ``args`` (``rg``, ``red/green``, ``red green``) and the
    words after it."""
    if not args:
        raise _Syntax(Message("Name an official: hat and robe colour, as rg or red/green."))
    word = args[0].casefold()
    if word in OFFICIALS:
        return word, args[1:]
    for sep in ("/", "-", "+"):
        if sep in word:
            hat_word, robe_word = word.split(sep, 1)
            return _code(hat_word, robe_word, args[0]), args[1:]
    if len(args) >= 2 and vocabulary.official_colour(args[0]) and vocabulary.official_colour(args[1]):
        return _code(args[0], args[1], f"{args[0]} {args[1]}"), args[2:]
    raise _Syntax(
        Message(
            "'{word}' is not an official: write hat and robe colour, as rg or red/green.", word=args[0][:30]
        )
    )


def _code(hat_word: str, robe_word: str, typed: str) -> str:
    hat, robe = vocabulary.official_colour(hat_word), vocabulary.official_colour(robe_word)
    if hat is None or robe is None:
        raise _Syntax(
            Message(
                "'{word}' is not an official: write hat and robe colour, as rg or red/green.", word=typed[:30]
            )
        )
    return INITIAL[hat] + INITIAL[robe]


def _direction(word: str) -> str:
    found = vocabulary.direction(word)
    if found is None:
        if vocabulary.key(word) == "o":
            raise _Syntax(Message("'o' is east in German and west in French: write ost or ouest."))
        raise _Syntax(Message("'{word}' is not a direction: n, e, s or w.", word=word[:30]))
    return found
