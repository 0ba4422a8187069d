"""What a seat (or a spectator, ``seat=None``) may see: a JSON-able dict.

Shown to everyone: the board, where every official stands, the terrace, how many cards each
pavilion still holds, every player's cards (face up), the dials' commitments (hashes), the
dials shown at the last entry, the fate dice, who owes what.  Shown only to its seat: its
own dial, its sealed answer in an open window and its plan.  Never shown while the game runs:
another seat's dial or sealed answer, the order of the face-down cards.  At the end every
dial is shown with its salt.
"""

from __future__ import annotations

from typing import Any

from .constants import OFFICIALS, hat, robe
from .decisions import bluffing_open, pending, take_options
from .notation import format_command
from .scoring import score
from .state import State


def view(state: State, seat: int | None) -> dict[str, Any]:
    config = state.config
    finished = state.phase == "finished"
    players = []
    for s in range(state.players):
        players.append(
            {
                "seat": s,
                "colour": config.seats[s],
                "cards": [{"colour": c, "piece": p} for c, p in state.hands[s]],
                "score": score(state.hands[s]),
                "partner": config.partner(s),
                "commitment": state.commitments[s],
                "dial": state.dials[s] if finished else None,
            }
        )
    out: dict[str, Any] = {
        "game": "verbotenestadt",
        "board": state.board.name,
        "phase": state.phase,
        "finished": finished,
        "active": None if finished else state.active,
        "target": None if finished else state.target,
        "turn": state.turn,
        "officials": [
            {"code": code, "hat": hat(code), "robe": robe(code), "square": list(sq) if sq else None}
            for code, sq in zip(OFFICIALS, state.squares, strict=True)
        ],
        "terrace": list(state.terrace),
        "pavilions": [
            {"number": p.number, "colour": p.colour, "cards_left": len(state.piles[p.number - 1])}
            for p in state.board.pavilions
        ],
        "players": players,
        "dial": None if seat is None or state.dials[seat] is None else {"code": state.dials[seat]},
        "fate": {
            "moves": state.moves,
            "last": None
            if state.fate_last is None
            else {"die": state.fate_last[0], "face": state.fate_last[1]},
        },
        "last_move": None
        if state.last_move is None
        else {"code": state.last_move[0], "path": [list(sq) for sq in state.last_move[1]]},
        "pending": [
            {"seat": d.seat, "colour": config.seats[d.seat], "kind": d.kind, "sealed": d.sealed}
            for d in pending(state)
        ],
        "revealed": [{"seat": s, "code": code, "salt": salt} for s, code, salt in state.revealed],
        "bluffing": None if finished else bluffing_open(state, state.active),
        "take_all": len(state.terrace) >= 10,
        "entry": None
        if state.entry is None
        else {"seat": state.entry.mover, "code": state.entry.code, "pavilion": state.entry.pavilion},
        "choice": None,
        "sealed": None,
        "plan": None,
    }
    if state.phase == "take" and state.tasks:
        task = state.tasks[0]
        out["choice"] = {
            "kind": task[0],
            "seat": task[1],
            "from": task[2] if len(task) > 2 else None,
            "cards": [
                {"colour": c, "piece": p, "holder": state.holder((c, p))} for c, p in take_options(state)
            ],
        }
    if seat is not None and state.phase in ("dial", "challenge"):
        window = [s for s, _ in state.window]
        out["window"] = {"kind": "challenge" if state.phase == "challenge" else "dial", "seats": window}
        if seat in window:
            out["sealed"] = {"choice": state.sealed[seat]}
    if seat is not None and seat == state.active and (state.plan or state.plan_stop):
        out["plan"] = {"moves": [format_command(state, m) for m in state.plan], "stop": state.plan_stop}
    return out
