"""The menu of a seat written for people: one line per kind of command, with the choices.

Used at the end of every error message and (later) in every decision mail."""

from __future__ import annotations

from collections import defaultdict

from .commands import Army, Bid, Command, First, Out, PalaceChoice, Place, Resolve, Take, Tile
from .contest import bid_amounts, span
from .notation import SYNTAX
from .state import Bidding, State


def describe(state: State, seat: int) -> list[str]:
    from .engine import legal

    menu = legal(state, seat)
    by_kind: dict[str, list[Command]] = defaultdict(list)
    for c in menu:
        by_kind[c.kind].append(c)
    lines = []
    for kind, commands in by_kind.items():
        lines.append(_line(state, seat, kind, commands))
    if state.config.options.negotiation and state.phase.name != "finished":
        lines.append(f"{SYNTAX['give']}  (negotiation variant: a gift, any time)")
    return lines


def _line(state: State, seat: int, kind: str, commands: list[Command]) -> str:
    first = commands[0]
    if isinstance(first, Place | Resolve | Take | Tile):
        areas = [c.area for c in commands if isinstance(c, Place | Resolve | Take | Tile)]
        names = ", ".join(f"{state.board.label(a)} ({state.board.provinces[a].number})" for a in areas)
        return f"{SYNTAX[kind]}  where <province> is one of: {names}"
    if isinstance(first, Bid):
        assert isinstance(state.phase, Bidding)
        targets = sorted({c.target for c in commands if isinstance(c, Bid)})
        amounts = bid_amounts(state, seat)
        return (
            f"bid <colour> <points>  with <colour>: "
            f"{' or '.join(state.config.colours[t] for t in targets)}; <points>: "
            f"{span(amounts)}"
        )
    if isinstance(first, Out | First):
        seats = [c.target if isinstance(c, Out) else c.seat for c in commands if isinstance(c, Out | First)]
        return f"{SYNTAX[kind]}  with <colour>: {' or '.join(state.config.colours[s] for s in seats)}"
    if isinstance(first, Army):
        return f"army <points>  from 0 to {len(commands) - 1}"
    if isinstance(first, PalaceChoice):
        n = len(commands) - 1
        if n == 1:
            return "palace influence (2 influence points)  or  palace army (1 army point)"
        return (
            f"palace influence  or  palace army  or  palace <n> army  (you hold {n} palaces; "
            "each gives 2 influence or 1 army)"
        )
    return " | ".join(sorted({SYNTAX[c.kind] for c in commands}))
