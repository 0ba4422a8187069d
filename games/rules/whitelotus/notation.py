"""The text notation: one human-typeable line per command (see COMMANDS.md).

Case-insensitive; provinces by name or number; colours by name.  :func:`format_command`
prints the canonical (English) line and ``parse_command(state, format_command(state, c)) == c``.
The same lines are the mail command language and the game-record format.

:func:`parse_command` also reads the German and French words of :mod:`.words` (accents
optional, languages may be mixed); :func:`format_command_in` writes a line in one of them.
"""

from __future__ import annotations

import difflib
import unicodedata

from ..base import IllegalCommand, Message, Word
from ..commandline import command_words, not_a_command
from ..text import nfkc, visible
from . import words as vocabulary
from .board import fold
from .commands import (
    Army,
    Bid,
    Command,
    Decline,
    Draw,
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
from .common import all_of, alternatives
from .state import State

KEYWORDS = vocabulary.ENGLISH_KEYWORDS
COMMAND_LIST = ", ".join(KEYWORDS)

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
    if isinstance(c, Draw):  # a temple's extra draw is written "tile" (commands.Draw)
        return vocabulary.spell(vocabulary.KEYWORDS, "tile", language)
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
    German or French (see :mod:`.words`); the command is the same.  The line is read as
    :func:`clean` leaves it; a line or word too long to be a command, and a letter of another
    script that looks Latin, are refused before any look-up (they are quoted short)."""
    words = command_words(clean(text), MAX_LINE)
    for word in words:
        _check_word(word)
    keyword, args = vocabulary.keyword(words[0]), words[1:]
    if keyword is None:
        raise not_a_command(quote(words[0]), vocabulary.closest_keyword(words[0]), COMMAND_LIST)
    try:
        return _parse(state, keyword, args, seat)
    except _Syntax as error:
        raise IllegalCommand(
            Message("{error} Write: {syntax}", error=error.text, syntax=Message(SYNTAX[keyword]))
        ) from None


# Bounds of what a command line can be: the longest real one ("give purple 12 influence", a
# province name) is far shorter, and nothing longer costs the typo suggestions any work.
MAX_LINE = 200
MAX_WORD = 40
MAX_DIGITS = 6  # no one holds a million points; int() of thousands of digits raises ValueError
QUOTED = 20  # characters of a long word quoted back
# Letters of other scripts that pass for Latin ones in most fonts ("е" in "bеd" is Cyrillic)
SCRIPTS = ("Cyrillic", "Greek")
_KEPT = ("<super>", "<sub>", "<fraction>", "<circle>")  # compatibility forms NFKC must not fold


def clean(text: str) -> str:
    """The text as a command is read: invisible characters (zero-width spaces and joiners,
    the byte order mark, soft hyphens, bidi marks: Unicode's format characters) removed and
    compatibility forms folded (NFKC: full-width ``ｂｉｄ ３`` is ``bid 3``), except that
    superscripts, subscripts, fractions and circled digits stay what they are: "army ²" is a
    slip to refuse, not "army 2"."""
    return nfkc(visible(text), _KEPT)


def quote(word: str, most: int = QUOTED) -> str:
    """Typed text as an error quotes it: at most ``most`` characters and an ellipsis."""
    return word if len(word) <= most + 1 else word[:most] + "…"


def _check_word(word: str) -> None:
    if len(word) > MAX_WORD:
        raise IllegalCommand(
            Message(
                "'{word}' is too long for a word of a command ({length} characters; at most {most}).",
                word=quote(word),
                length=len(word),
                most=MAX_WORD,
            )
        )
    for ch in word:
        script = _script(ch)
        if script is not None:
            raise IllegalCommand(
                Message(
                    "The '{letter}' in '{word}' is a {script} letter: write the word in Latin letters.",
                    letter=ch,
                    word=word,
                    script=Word(script),
                )
            )


def _script(ch: str) -> str | None:
    """``"Cyrillic"`` or ``"Greek"`` for a letter of those scripts, else None."""
    if ch.isascii() or not ch.isalpha():
        return None
    name = unicodedata.name(ch, "")
    return next((s for s in SCRIPTS if name.startswith(s.upper() + " ")), None)


class _Syntax(Exception):
    def __init__(self, text: Message) -> None:
        super().__init__(text.render())
        self.text = text


def _parse(state: State, keyword: str, args: list[str], seat: int | None) -> Command:
    if keyword == "tile" and not args:
        return Draw()  # a temple's extra draw taken (tiles.py); where a drawn tile goes, refused there
    if keyword in ("pass", "lead", "decline"):
        _arity(keyword, args, 0)
        bare: dict[str, Command] = {"pass": Pass(), "lead": Lead(), "decline": Decline()}
        return bare[keyword]
    if keyword in ("place", "resolve", "take", "tile"):
        if not args:
            raise _Syntax(Message("'{keyword}' needs a province.", keyword=Word(keyword)))
        area = _province(state, " ".join(args))
        if keyword == "place":
            return Place(area)
        if keyword == "resolve":
            return Resolve(area)
        return Take(area) if keyword == "take" else Tile(area)
    if keyword == "bid":
        if len(args) not in (2, 3):
            raise _Syntax(Message("A bid names the player you bid against and your influence points."))
        target = _seat(state, args[0])
        if len(args) == 3:  # two cards written apart (designer habit): each must be a card
            return Bid(target, _cards(state, args[1:]))
        return Bid(target, _number(args[1]))
    if keyword in ("out", "first"):
        _arity(keyword, args, 1)
        seat = _seat(state, args[0])
        return Out(seat) if keyword == "out" else First(seat)
    if keyword == "side":
        _arity(keyword, args, 1)
        side = vocabulary.side(args[0])
        if side is None:
            raise _Syntax(Message("'{word}' is not a side.", word=quote(args[0])))
        return Side(rebels=side == "rebels")
    if keyword == "army":
        _arity(keyword, args, 1)
        return Army(_number(args[0]))
    if keyword == "palace":
        return _palace(state, args, seat)
    _arity(keyword, args, 3)  # give
    kind = vocabulary.points(args[2])
    if kind is None:
        raise _Syntax(Message("'{word}' is neither influence nor army.", word=quote(args[2])))
    return Give(_seat(state, args[0]), _number(args[1]), army=kind == "army")


def _cards(state: State, words: list[str]) -> int:
    """Two influence cards written apart (``bid red 3 2``): the bid is their sum.  Influence
    cards are worth 1, 2 or 3, and each player has one 0 card unless the game is played
    without it (RULES.md; 001 "Spielmaterial", 002).  Whether the hand holds that much is the
    engine's check, as for any bid."""
    values = [_number(w) for w in words]
    zero = state.config.options.zero_card
    for word, value in zip(words, values, strict=True):
        if value > 3 or (value == 0 and not zero):
            cards = Message("0, 1, 2 and 3") if zero else Message("1, 2 and 3")
            raise _Syntax(
                Message(
                    "'{word}' is not an influence card: the cards are {cards}.",
                    word=quote(word),
                    cards=cards,
                )
            )
    if values.count(0) > 1:
        raise _Syntax(Message("You have only one 0 card."))
    return sum(values)


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
            if held == 1:
                raise _Syntax(Message("You hold 1 palace."))
            raise _Syntax(Message("You hold {held} palaces.", held=held))
        return PalaceChoice(held - n)
    raise _Syntax(Message("Say what your palaces give."))


def _arity(keyword: str, args: list[str], n: int) -> None:
    if len(args) == n:
        return
    if not args:
        if n == 1:
            raise _Syntax(Message("'{keyword}' takes 1 word after it.", keyword=Word(keyword)))
        raise _Syntax(Message("'{keyword}' takes {n} words after it.", keyword=Word(keyword), n=n))
    if n == 1:
        raise _Syntax(
            Message("'{keyword}' takes 1 word after it, not {count}.", keyword=Word(keyword), count=len(args))
        )
    raise _Syntax(
        Message(
            "'{keyword}' takes {n} words after it, not {count}.", keyword=Word(keyword), n=n, count=len(args)
        )
    )


def _number(word: str) -> int:
    if not (word.isascii() and word.isdigit()):
        raise _Syntax(Message("'{word}' is not a number.", word=quote(word)))
    if len(word.lstrip("0")) > MAX_DIGITS:
        raise _Syntax(
            Message(
                "'{word}' is too large a number: no one holds that many points.",
                word=quote(word),
            )
        )
    return int(word)


def _colour(state: State, seat: int) -> str:
    return state.config.colours[seat]


def _seat(state: State, word: str) -> int:
    colour = vocabulary.colour(word)
    seat = state.seat_of(colour) if colour is not None else None
    if seat is None:
        raise _Syntax(
            Message(
                "'{word}' is not a colour in this game (colours: {colours}).",
                word=quote(word),
                colours=all_of(state, range(state.players)),
            )
        )
    return seat


def _province(state: State, text: str) -> int:
    province = state.board.lookup(text)
    if province is None:
        names = {fold(p.name): p for p in state.board.provinces}
        close = difflib.get_close_matches(fold(text), names, n=3)
        if close:
            choices = alternatives([f"{names[c].name} ({names[c].number})" for c in close])
            raise _Syntax(
                Message(
                    "There is no province '{text}'. Did you mean {choices}?",
                    text=quote(text),
                    choices=choices,
                )
            )
        raise _Syntax(Message("There is no province '{text}'.", text=quote(text)))
    return province.index
