"""Log entries as English sentences, for the terminal (selfplay, show_game) and tests.

Mails render the same entries through translated templates (notifications app)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from ..base import LogEntry
from .constants import Building
from .state import State

Text = Callable[[State, Mapping[str, Any]], str]


def _c(state: State, seat: int) -> str:
    return state.config.colours[seat].capitalize()


def _a(state: State, area: int) -> str:
    p = state.board.provinces[area]
    return f"{p.name} ({p.number})"


def _b(kind: int) -> str:
    return Building(kind).label


def _bids(state: State, d: Mapping[str, Any]) -> str:
    parts = [
        f"{_c(state, b['seat'])} {b['amount']} against {state.config.colours[b['target']]}" for b in d["bids"]
    ]
    tied = d.get("tied")
    tail = f"; tie between {', '.join(_c(state, s) for s in tied)}" if tied else ""
    return f"Bids for {_a(state, d['area'])}: {'; '.join(parts)}{tail}."


def _battle(state: State, d: Mapping[str, Any]) -> str:
    rebels = [_c(state, s) for s, v in enumerate(d["sides"]) if v == 1]
    loyal = [_c(state, s) for s, v in enumerate(d["sides"]) if v == 0]
    armies = ", ".join(f"{_c(state, s)} {a}" for s, a in enumerate(d["army"]))
    return (
        f"Battle: emperor's side {'/'.join(loyal)} {d['emperor_strength']} against rebels "
        f"{'/'.join(rebels)} {d['rebel_strength']} (army: {armies}). "
        f"The {'rebels win' if d['winner'] == 'rebels' else 'emperor wins'}."
    )


TEXTS: dict[str, Text] = {
    "year": lambda s, d: f"--- Year {d['year']} (emperor: {_c(s, d['emperor'])}) ---",
    "placed": lambda s, d: f"{_c(s, d['seat'])} places a marker in {_a(s, d['area'])}.",
    "passed": lambda s, d: f"{_c(s, d['seat'])} passes.",
    "no_area": lambda s, d: f"{_c(s, d['seat'])} has no area left for a marker.",
    "claimed": lambda s, d: (
        f"{_c(s, d['seat'])} takes {_a(s, d['area'])} ({_b(d['building'])})"
        f"{' unopposed' if d['how'] == 'alone' else ''}."
    ),
    "contest": lambda s, d: (
        f"Contest for {_a(s, d['area'])} between {', '.join(_c(s, x) for x in d['contenders'])}."
    ),
    "sealed": lambda s, d: f"(You sealed: {', '.join(f'{k} {v}' for k, v in d.items() if k != 'seat')}.)",
    "submitted": lambda s, d: f"{_c(s, d['seat'])} has sealed a choice.",
    "bids": _bids,
    "tie_broken": lambda s, d: f"The emperor sends {_c(s, d['out'])} out.",
    "out": lambda s, d: f"{_c(s, d['seat'])} is out of {_a(s, d['area'])} and keeps {d['kept']} influence.",
    "emperor": lambda s, d: f"{_c(s, d['seat'])} becomes emperor with {d['palaces']} palace(s).",
    "emperor_vp": lambda s, d: f"The emperor, {_c(s, d['seat'])}, takes a victory point chip.",
    "final_year": lambda s, d: "Every area is held: this is the last year.",
    "no_rebellion": lambda s, d: "There is no rebellion this year.",
    "declined": lambda s, d: f"{_c(s, d['seat'])} declines to lead a rebellion.",
    "rebellion": lambda s, d: f"{_c(s, d['leader'])} leads a rebellion against {_c(s, d['emperor'])}.",
    "sides": lambda s, d: (
        "Sides: "
        + ", ".join(f"{_c(s, x)} {'rebels' if v else 'emperor'}" for x, v in enumerate(d["sides"]))
        + "."
    ),
    "battle": _battle,
    "pick_order": lambda s, d: f"The emperor lets {_c(s, d['first'])} pick first.",
    "took": lambda s, d: (
        f"{_c(s, d['seat'])} takes {_a(s, d['area'])} ({_b(d['building'])}) from {_c(s, d['from'])}."
    ),
    "consolation": lambda s, d: f"{_c(s, d['seat'])} can take no area and takes a VP chip.",
    "income": lambda s, d: f"{_c(s, d['seat'])} receives {d['influence']} influence and {d['army']} army.",
    "drew": lambda s, d: f"(You drew a {_b(d['building'])}.)",
    "tile": lambda s, d: f"{_c(s, d['seat'])} puts a {_b(d['building'])} on {_a(s, d['area'])}.",
    "filled": lambda s, d: f"The other tiles are placed at random on {len(d['tiles'])} areas.",
    "gift": lambda s, d: f"{_c(s, d['seat'])} gives {d['amount']} {d['kind']} to {_c(s, d['to'])}.",
    "forced": lambda s, d: f"({_c(s, d['seat'])} had a single choice; it is played.)",
    "game_over": lambda s, d: (
        "The game is over. " + ", ".join(f"{_c(s, x)} {score}" for x, score in enumerate(d["scores"])) + "."
    ),
}


def narrate(state: State, entry: LogEntry) -> str:
    text = TEXTS.get(entry.kind)
    return text(state, entry.data) if text else f"{entry.kind}: {dict(entry.data)}"
