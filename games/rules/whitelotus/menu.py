"""The menu of a seat written for people: one line per kind of command, with the choices, in
English, German or French (the command words of ``words.py``; every line parses back).

Used at the end of every error message and in every decision mail."""

from __future__ import annotations

from collections import defaultdict

from .commands import Army, Bid, Command, Draw, First, Out, PalaceChoice, Place, Resolve, Take, Tile
from .contest import bid_amounts
from .decisions import legal
from .notation import SYNTAX
from .state import Bidding, State
from .words import COLOURS, KEYWORDS, POINTS, SIDES, spell

PLACEHOLDERS = {
    "en": {"<province>": "<province>", "<colour>": "<colour>", "<points>": "<points>"},
    "de": {"<province>": "<Provinz>", "<colour>": "<Farbe>", "<points>": "<Punkte>"},
    "fr": {"<province>": "<province>", "<colour>": "<couleur>", "<points>": "<points>"},
}
PHRASES = {
    "en": {
        "where": "where {province} is one of:",
        "with": "with {colour}:",
        "range": "from {low} to {high}",
        "to": " to ",
        "or": " or ",
        "palace_one": "{influence} (2 influence points)  or  {army} (1 army point)",
        "palace_many": "{influence}  or  {army}  or  {some}  "
        "(you hold {n} palaces; each gives 2 influence or 1 army)",
        "gift": "{syntax}  (negotiation variant: a gift, any time)",
    },
    "de": {
        "where": "wobei {province} eines ist von:",
        "with": "mit {colour}:",
        "range": "von {low} bis {high}",
        "to": " bis ",
        "or": " oder ",
        "palace_one": "{influence} (2 Einflusspunkte)  oder  {army} (1 Armeepunkt)",
        "palace_many": "{influence}  oder  {army}  oder  {some}  "
        "(du hast {n} Paläste; jeder gibt 2 Einfluss oder 1 Armee)",
        "gift": "{syntax}  (Verhandlungsvariante: ein Geschenk, jederzeit)",
    },
    "fr": {
        "where": "où {province} est l'une de :",
        "with": "avec {colour} :",
        "range": "de {low} à {high}",
        "to": " à ",
        "or": " ou ",
        "palace_one": "{influence} (2 points d'influence)  ou  {army} (1 point d'armée)",
        "palace_many": "{influence}  ou  {army}  ou  {some}  "
        "(vous avez {n} palais ; chacun donne 2 influence ou 1 armée)",
        "gift": "{syntax}  (variante négociation : un don, à tout moment)",
    },
}


def describe(state: State, seat: int, language: str = "en") -> list[str]:
    menu = legal(state, seat)
    by_kind: dict[str, list[Command]] = defaultdict(list)
    for c in menu:
        by_kind[c.kind].append(c)
    lines = [_line(state, seat, commands, language) for commands in by_kind.values()]
    if state.config.options.negotiation and state.phase.name != "finished":
        lines.append(PHRASES[language]["gift"].format(syntax=syntax("give", language)))
    return lines


def syntax(kind: str, language: str = "en") -> str:
    """``SYNTAX[kind]`` in ``language``: ``setze <Provinz>``, ``seite kaiser | seite rebellen``."""
    if language == "en":
        return SYNTAX[kind]
    return " | ".join(_alternative(part, language) for part in SYNTAX[kind].split(" | "))


def _alternative(text: str, language: str) -> str:
    keyword, *rest = text.split()
    words = [spell(KEYWORDS, keyword, language)]
    for word in rest:
        words.append("|".join(_word(w, language) for w in word.split("|")))
    return " ".join(words)


def _word(word: str, language: str) -> str:
    if word in PLACEHOLDERS[language]:
        return PLACEHOLDERS[language][word]
    for table in (SIDES, POINTS):
        if word in table["en"]:
            return spell(table, word, language)
    return word


def _colour(state: State, seat: int, language: str) -> str:
    return spell(COLOURS, state.config.colours[seat], language)


def _span(amounts: list[int], language: str) -> str:
    """``[2, 3, 4, 5]`` as "2 to 5", ``[0, 1]`` as "0 or 1" (in ``language``)."""
    words = PHRASES[language]
    if amounts == list(range(amounts[0], amounts[-1] + 1)) and len(amounts) > 2:
        return f"{amounts[0]}{words['to']}{amounts[-1]}"
    return words["or"].join(str(a) for a in amounts)


def _line(state: State, seat: int, commands: list[Command], language: str) -> str:
    first = commands[0]
    kind = first.kind
    words = PHRASES[language]
    marks = PLACEHOLDERS[language]
    if isinstance(first, Place | Resolve | Take | Tile):
        areas = [c.area for c in commands if isinstance(c, Place | Resolve | Take | Tile)]
        names = ", ".join(f"{state.board.label(a)} ({state.board.provinces[a].number})" for a in areas)
        return f"{syntax(kind, language)}  {words['where'].format(province=marks['<province>'])} {names}"
    if isinstance(first, Bid):
        assert isinstance(state.phase, Bidding)
        targets = sorted({c.target for c in commands if isinstance(c, Bid)})
        colours = words["or"].join(_colour(state, t, language) for t in targets)
        amounts = _span(bid_amounts(state, seat), language)
        return (
            f"{syntax('bid', language)}  {words['with'].format(colour=marks['<colour>'])} {colours}; "
            f"{marks['<points>']}: {amounts}"
        )
    if isinstance(first, Out | First):
        seats = [c.target if isinstance(c, Out) else c.seat for c in commands if isinstance(c, Out | First)]
        colours = words["or"].join(_colour(state, s, language) for s in seats)
        return f"{syntax(kind, language)}  {words['with'].format(colour=marks['<colour>'])} {colours}"
    if isinstance(first, Army):
        span = words["range"].format(low=0, high=len(commands) - 1)
        return f"{syntax('army', language)}  {span}"
    if isinstance(first, PalaceChoice):
        palace = spell(KEYWORDS, "palace", language)
        influence = f"{palace} {spell(POINTS, 'influence', language)}"
        army = f"{palace} {spell(POINTS, 'army', language)}"
        n = len(commands) - 1
        if n == 1:
            return words["palace_one"].format(influence=influence, army=army)
        some = f"{palace} <n> {spell(POINTS, 'army', language)}"
        return words["palace_many"].format(influence=influence, army=army, some=some, n=n)
    if isinstance(first, Draw):
        return spell(KEYWORDS, "tile", language)  # a temple's extra tile: "tile" draws it
    return " | ".join(sorted({syntax(c.kind, language) for c in commands}))
