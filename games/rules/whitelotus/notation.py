"""The text notation: one human-typeable line per command (see COMMANDS.md).

Case-insensitive; provinces by name or number; colours by name.  :func:`format_command`
prints the canonical (English) line and ``parse_command(state, format_command(state, c)) == c``.
The same lines are the mail command language and the game-record format.

:func:`parse_command` also reads the German and French words of :mod:`.words` (accents
optional, languages may be mixed); :func:`format_command_in` writes a line in one of them.
"""

from __future__ import annotations

import difflib

from ..base import IllegalCommand
from . import words as vocabulary
from .board import fold
from .commands import (
    Army,
    Bid,
    Command,
    Decline,
    First,
    Give,
    Lead,
    Out,
    PalaceChoice,
    Pass,
    Place,
    Resolve,
    Side,
    Take,
    Tile,
)
from .state import State

KEYWORDS = vocabulary.ENGLISH_KEYWORDS

SYNTAX = {
    "place": "place <province>",
    "pass": "pass",
    "resolve": "resolve <province>",
    "bid": "bid <colour> <points>",
    "out": "out <colour>",
    "lead": "lead",
    "decline": "decline",
    "side": "side emperor | side rebels",
    "army": "army <points>",
    "take": "take <province>",
    "first": "first <colour>",
    "palace": "palace influence | palace army | palace <n> army",
    "tile": "tile <province>",
    "give": "give <colour> <points> influence|army",
}


def format_command(state: State, command: Command) -> str:
    """The canonical (English) line: the game-record format."""
    return format_command_in(state, command, "en")


def format_command_in(state: State, command: Command, language: str) -> str:
    """The line in ``language`` ("en", "de" or "fr"): keyword, colours and other words
    translated, provinces and numbers as they are.  ``parse_command`` reads it back."""
    c = command
    keyword = vocabulary.spell(vocabulary.KEYWORDS, c.kind, language)

    def colour(seat: int) -> str:
        return vocabulary.spell(vocabulary.COLOURS, _colour(state, seat), language)

    def points(army: bool) -> str:
        return vocabulary.spell(vocabulary.POINTS, "army" if army else "influence", language)

    if isinstance(c, Place | Resolve | Take | Tile):
        return f"{keyword} {state.board.label(c.area)}"
    if isinstance(c, Bid):
        return f"{keyword} {colour(c.target)} {c.amount}"
    if isinstance(c, Out | First):
        return f"{keyword} {colour(c.target if isinstance(c, Out) else c.seat)}"
    if isinstance(c, Side):
        side = vocabulary.spell(vocabulary.SIDES, "rebels" if c.rebels else "emperor", language)
        return f"{keyword} {side}"
    if isinstance(c, Army):
        return f"{keyword} {c.amount}"
    if isinstance(c, PalaceChoice):
        if c.army == 0:
            return f"{keyword} {points(False)}"
        return f"{keyword} {c.army} {points(True)}"
    if isinstance(c, Give):
        return f"{keyword} {colour(c.to)} {c.amount} {points(c.army)}"
    return keyword  # pass, lead, decline


def parse_command(state: State, text: str, seat: int | None = None) -> Command:
    """One command from one line; raises :class:`IllegalCommand` explaining the syntax.

    ``seat`` (who writes) is needed only by ``palace army`` and ``palace <n> influence``,
    which depend on how many palaces the writer holds.  Keywords and words may be English,
    German or French (see :mod:`.words`); the command is the same."""
    words = text.strip().split()
    if not words:
        raise IllegalCommand("An empty line is not a command.")
    keyword, args = vocabulary.keyword(words[0]), words[1:]
    if keyword is None:
        guess = vocabulary.closest_keyword(words[0])
        hint = f" Did you mean '{guess}'?" if guess else ""
        raise IllegalCommand(f"'{words[0]}' is not a command.{hint} Commands: {', '.join(KEYWORDS)}.")
    try:
        return _parse(state, keyword, args, seat)
    except _Syntax as error:
        raise IllegalCommand(f"{error} Write: {SYNTAX[keyword]}") from None


class _Syntax(Exception):
    pass


def _parse(state: State, keyword: str, args: list[str], seat: int | None) -> Command:
    if keyword in ("pass", "lead", "decline"):
        _arity(keyword, args, 0)
        bare: dict[str, Command] = {"pass": Pass(), "lead": Lead(), "decline": Decline()}
        return bare[keyword]
    if keyword in ("place", "resolve", "take", "tile"):
        if not args:
            raise _Syntax(f"'{keyword}' needs a province.")
        area = _province(state, " ".join(args))
        if keyword == "place":
            return Place(area)
        if keyword == "resolve":
            return Resolve(area)
        return Take(area) if keyword == "take" else Tile(area)
    if keyword == "bid":
        if len(args) not in (2, 3):
            raise _Syntax("A bid names the player you bid against and your influence points.")
        points = [_number(a) for a in args[1:]]  # designer: two cards may be written apart
        return Bid(_seat(state, args[0]), sum(points))
    if keyword in ("out", "first"):
        _arity(keyword, args, 1)
        seat = _seat(state, args[0])
        return Out(seat) if keyword == "out" else First(seat)
    if keyword == "side":
        _arity(keyword, args, 1)
        side = vocabulary.side(args[0])
        if side is None:
            raise _Syntax(f"'{args[0]}' is not a side.")
        return Side(rebels=side == "rebels")
    if keyword == "army":
        _arity(keyword, args, 1)
        return Army(_number(args[0]))
    if keyword == "palace":
        return _palace(state, args, seat)
    _arity(keyword, args, 3)  # give
    kind = vocabulary.points(args[2])
    if kind is None:
        raise _Syntax(f"'{args[2]}' is neither influence nor army.")
    return Give(_seat(state, args[0]), _number(args[1]), army=kind == "army")


def _palace(state: State, args: list[str], seat: int | None) -> PalaceChoice:
    kinds = [vocabulary.points(a) for a in args]  # None for a number
    if kinds == ["influence"]:
        return PalaceChoice(0)
    if len(args) == 2 and kinds[1] == "army":
        return PalaceChoice(_number(args[0]))
    held = state.palaces(seat) if seat is not None else None
    if kinds == ["army"] and held is not None:
        return PalaceChoice(held)
    if len(args) == 2 and kinds[1] == "influence" and held is not None:
        n = _number(args[0])
        if n > held:
            raise _Syntax(f"You hold {held} palace{'s' if held != 1 else ''}.")
        return PalaceChoice(held - n)
    raise _Syntax("Say what your palaces give.")


def _arity(keyword: str, args: list[str], n: int) -> None:
    if len(args) != n:
        raise _Syntax(
            f"'{keyword}' takes {n} word{'s' if n != 1 else ''} after it"
            f"{', not ' + str(len(args)) if args else ''}."
        )


def _number(word: str) -> int:
    if not (word.isascii() and word.isdigit()):
        raise _Syntax(f"'{word}' is not a number.")
    return int(word)


def _colour(state: State, seat: int) -> str:
    return state.config.colours[seat]


def _seat(state: State, word: str) -> int:
    colour = vocabulary.colour(word)
    seat = state.seat_of(colour) if colour is not None else None
    if seat is None:
        raise _Syntax(f"'{word}' is not a colour in this game (colours: {', '.join(state.config.colours)}).")
    return seat


def _province(state: State, text: str) -> int:
    province = state.board.lookup(text)
    if province is None:
        names = {fold(p.name): p for p in state.board.provinces}
        close = difflib.get_close_matches(fold(text), names, n=3)
        hint = (
            (" Did you mean " + " or ".join(f"{names[c].name} ({names[c].number})" for c in close) + "?")
            if close
            else ""
        )
        raise _Syntax(f"There is no province '{text}'.{hint}")
    return province.index
