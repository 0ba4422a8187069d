"""What a seat (or a spectator) may see.  Every page and mail is rendered from a view.

Public: the board, chips, markers, VP chips, the emperor and rebel leader, the number of
tiles in the bag, who must decide what, who has already sealed a choice, and every choice
once revealed.  Private to a seat: its hand, its own sealed choice and the tile it drew.
Hands are face down (001 "Alle Karten ... halten sie während des Spiels verdeckt"), so other
hands are shown only with the ``open_hands`` option (D6).  The seed is shown once the game
is over, so the draws can be checked against the digest published at the start.
"""

from __future__ import annotations

from typing import Any

from .. import rng
from .constants import CHIP_LIMIT, CHIPS_PER_COLOUR, Building
from .decisions import pending
from .engine import outcome
from .rebellion import UNDECIDED
from .scoring import breakdown
from .state import Bidding, ChooseContest, NewAreas, PalaceChoices, Rebellion, Spoils, State, TieBreak, bits


def view(state: State, seat: int | None) -> dict[str, Any]:
    colours = state.config.colours
    name = colours.__getitem__
    in_play = state.in_play()
    scores = breakdown(state)
    decisions = pending(state)
    out: dict[str, Any] = {
        "game": "whitelotus",
        "edition": state.config.edition,
        "options": {
            "zero_card": state.config.options.zero_card,
            "negotiation": state.config.options.negotiation,
            "open_hands": state.config.options.open_hands,
        },
        "board": state.board.name,
        "year": state.year,
        "phase": state.phase.name,
        "final_year": state.final_year,
        "emperor": name(state.emperor),
        "rebel": name(state.rebel) if state.rebel >= 0 else None,
        "bag": sum(state.bag),
        "boxed": state.boxed,
        "seed_digest": rng.seed_digest(state.seed),
        "areas": [
            {
                "number": p.number,
                "name": p.name,
                "in_play": p.index in in_play,
                "lotus": p.lotus,
                "dragon": p.dragon,
                "building": Building(state.building[p.index]).label if state.building[p.index] else None,
                "owner": name(state.owner[p.index]) if state.owner[p.index] >= 0 else None,
                "markers": [name(s) for s in bits(state.markers[p.index])],
            }
            for p in state.board.provinces
        ],
        "players": [_player(state, s, scores[s]) for s in range(state.players)],
        "pending": [{"colour": name(d.seat), "kind": d.kind, "sealed": d.sealed} for d in decisions],
        "step": _step(state),
    }
    if seat is not None:
        out["you"] = name(seat)
        out["hand"] = _hand(state, seat)
        out["sealed"] = _sealed(state, seat)
        if isinstance(state.phase, NewAreas) and state.phase.queue[0] == seat and state.phase.drawn:
            out["drawn"] = Building(state.phase.drawn).label
    if state.config.options.open_hands:
        for s, player in enumerate(out["players"]):
            player["hand"] = _hand(state, s)
    result = outcome(state)
    if result is not None:
        out["outcome"] = {
            "scores": {name(s): result.breakdown[s] for s in range(state.players)},
            "rank": {name(s): result.rank[s] for s in range(state.players)},
            "winners": [name(s) for s in result.winners],
        }
        out["seed"] = state.seed
    return out


def _player(state: State, seat: int, score: dict[str, int]) -> dict[str, Any]:
    counts = {b.label: state.count(seat, b) for b in Building}
    on_board = state.chips_on_board(seat)
    return {
        "colour": state.config.colours[seat],
        "seat": seat,
        "emperor": seat == state.emperor,
        "vp_chips": state.vp[seat],
        "chips": counts,
        "chips_left": {
            b.label: min(CHIP_LIMIT[b] - counts[b.label], CHIPS_PER_COLOUR - on_board) for b in Building
        },
        "score": score,
    }


def _hand(state: State, seat: int) -> dict[str, Any]:
    return {
        "influence": state.influence[seat],
        "army": state.army[seat],
        "zero_card": state.config.options.zero_card,
    }


def _sealed(state: State, seat: int) -> dict[str, Any] | None:
    phase = state.phase
    colours = state.config.colours
    if isinstance(phase, Bidding) and phase.bids[seat] is not None:
        target, amount = phase.bids[seat]  # type: ignore[misc]
        return {"bid": {"against": colours[target], "amount": amount}}
    if isinstance(phase, Rebellion):
        mine: dict[str, Any] = {}
        if phase.sides[seat] != UNDECIDED and seat not in (state.emperor, phase.leader):
            mine["side"] = "rebels" if phase.sides[seat] else "emperor"
        if phase.army[seat] != UNDECIDED:
            mine["army"] = phase.army[seat]
        return mine or None
    if isinstance(phase, PalaceChoices) and phase.choices[seat] >= 0:
        return {"palaces_as_army": phase.choices[seat]}
    return None


def _step(state: State) -> dict[str, Any]:
    """Public facts about the decision under way."""
    phase = state.phase
    colours = state.config.colours
    label = state.board.label
    if isinstance(phase, ChooseContest):
        return {"contested": [label(a) for a in bits(phase.remaining)]}
    if isinstance(phase, Bidding | TieBreak):
        info: dict[str, Any] = {
            "area": label(phase.area),
            "contenders": [colours[s] for s in bits(phase.contenders)],
            "contested_after": [label(a) for a in bits(phase.remaining)],
        }
        if isinstance(phase, Bidding):
            info["sealed_by"] = [colours[s] for s in bits(phase.contenders) if phase.bids[s]]
        else:
            info["tied"] = [colours[s] for s in bits(phase.tied)]
            info["bids"] = {
                colours[s]: {"against": colours[b[0]], "amount": b[1]}
                for s in bits(phase.contenders)
                if (b := phase.bids[s])
            }
        return info
    if isinstance(phase, Rebellion):
        info = {"leader": colours[phase.leader], "stage": phase.stage}
        if phase.stage == "army":  # sides were revealed (kosmos)
            info["sides"] = {colours[s]: "rebels" if v else "emperor" for s, v in enumerate(phase.sides)}
        info["sealed_by"] = [colours[s] for s in range(state.players) if _done_with(phase, s)]
        return info
    if isinstance(phase, Spoils):
        return {
            "to_pick": [[colours[s] for s in g] for g in phase.groups],
            "losers": [colours[s] for s in bits(phase.losers)],
        }
    if isinstance(phase, PalaceChoices):
        return {"chosen_by": [colours[s] for s, c in enumerate(phase.choices) if c >= 0]}
    if isinstance(phase, NewAreas):
        return {"drawing": colours[phase.queue[0]]}
    return {}


def _done_with(phase: Rebellion, seat: int) -> bool:
    if phase.stage == "sides":
        return phase.sides[seat] != UNDECIDED
    return phase.army[seat] != UNDECIDED and phase.sides[seat] != UNDECIDED
