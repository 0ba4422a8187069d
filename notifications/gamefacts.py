"""What a game's own mail partials (``mail/<rules>/_board.*``, ``game_over``) show besides
its text board: facts drawn from the seat's view, its menu and the game's outcome, keyed by
the game's name.  Like the partials they serve, they read views and the contract only, never
a game's package (the import contract).

``facts(rules, ...)`` is empty for a game without an entry (White Lotus's partials read
its view directly)."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext, gettext_noop, ngettext

from games.rules.base import GameRules

from . import words


@dataclass(frozen=True)
class Asked:
    """What the facts of one mail are drawn from."""

    rules: GameRules
    state: Any
    view: Mapping[str, Any]
    seat: int
    decision: str  # the kind of decision this seat owes ("" for none)
    legal: Sequence[Any]
    language: str
    names: Mapping[str, str]  # seat colour -> player name
    outcome: Any  # the game's Outcome once it is over


def facts(asked: Asked) -> dict[str, Any]:
    maker = FACTS.get(asked.rules.name)
    return maker(asked) if maker is not None else {}


# --- Die Verbotene Stadt -----------------------------------------------------------------------

ANSWERS = {"keep": gettext_noop("keep"), "believe": gettext_noop("believe"), "doubt": gettext_noop("doubt")}
PLAN_MOVES = 2  # moves in the example of a plan


def _official(code: str) -> str:
    """``rg (red/green)`` in the reader's language (as the narration says it)."""
    initials = {"r": "red", "y": "yellow", "b": "blue", "g": "green", "k": "black"}
    if len(code) != 2 or any(c not in initials for c in code):
        return code
    return f"{code} ({gettext(initials[code[0]])}/{gettext(initials[code[1]])})"


def _seat_name(view: Mapping[str, Any], seat: Any, names: Mapping[str, str]) -> str:
    for player in view.get("players") or ():
        if player["seat"] == seat:
            colour = str(player["colour"])
            name = names.get(colour, "")
            said = words.colour(colour).capitalize()
            return f"{said} ({name})" if name else said
    return str(seat)


def _cards(cards: Sequence[Mapping[str, str]]) -> str:
    return ", ".join(f"{gettext(c['piece'])} ({gettext(c['colour'])})" for c in cards)


def _plan_example(asked: Asked) -> tuple[str, str]:
    """A plan of moves from the menu (different officials, none into the target, then stop)
    and one move into the target if there is one, in the reader's language."""
    rules, state = asked.rules, asked.state
    moves = [rules.command_to_dict(c) for c in asked.legal]
    moves = [m for m in moves if m.get("kind") == "move"]
    chosen: list[dict[str, Any]] = []
    for m in moves:
        if len(m["path"]) == 1 and all(m["code"] != c["code"] for c in chosen):
            chosen.append(m)
        if len(chosen) == PLAN_MOVES:
            break
    if not chosen:
        return "", ""
    plan = rules.command_from_dict({"kind": "plan", "moves": chosen, "stop": True})
    move = rules.command_from_dict(chosen[0])
    return rules.format_command_in(state, plan, asked.language), rules.format_command_in(
        state, move, asked.language
    )


def verbotenestadt(asked: Asked) -> dict[str, Any]:
    view, seat = asked.view, asked.seat
    me = next((p for p in view.get("players") or () if p["seat"] == seat), None)
    out: dict[str, Any] = {}
    dial = (view.get("dial") or {}).get("code")
    if me is not None:
        out["my_dial"] = _official(dial) if dial else ""
        out["my_cards"] = _cards(me.get("cards") or ())
        out["my_score"] = (me.get("score") or {}).get("total", 0)
        partner = me.get("partner")
        out["my_partner"] = _seat_name(view, partner, asked.names) if partner is not None else ""
    target = view.get("target")
    if target:
        pavilion = next((p for p in view.get("pavilions") or () if p["number"] == target), None)
        out["target"] = target
        out["target_colour"] = gettext(pavilion["colour"]) if pavilion else ""
    if asked.decision == "move":
        out["plan_example"], out["move_example"] = _plan_example(asked)
    sealed = (view.get("sealed") or {}).get("choice")
    if sealed:
        out["my_answer"] = gettext(ANSWERS[sealed]) if sealed in ANSWERS else _official(str(sealed))
    out["dial_window"] = asked.decision == "dial"
    if asked.decision in ("rebribe", "challenge"):
        out["window"] = asked.decision
        entry = view.get("entry") or {}
        out["mover"] = _seat_name(view, entry.get("seat"), asked.names) if entry else ""
        out["entered"] = _official(str(entry.get("code", ""))) if entry else ""
        out["pavilion"] = entry.get("pavilion", "")
        # a dial whose official is on the terrace cannot be kept: the default draws a new one
        on_board = {o["code"] for o in view.get("officials") or () if o.get("square") is not None}
        out["dial_by_lot"] = bool(dial) and dial not in on_board
    if asked.outcome is not None:
        out.update(_results(asked))
    return out


def _results(asked: Asked) -> dict[str, Any]:
    """The final places, each seat's cards and groups, and the partnerships' results."""
    view, outcome = asked.view, asked.outcome
    order = sorted(range(len(outcome.rank)), key=lambda s: (outcome.rank[s], s))
    tied = {r for r in outcome.rank if list(outcome.rank).count(r) > 1}
    rows = []
    for s in order:
        b = dict(outcome.breakdown[s])
        rows.append(
            {
                "place": _place(outcome.rank[s], tied),
                "seat": _seat_name(view, s, asked.names),
                "total": b.get("total", outcome.scores[s]),
                "own": b.get("own", b.get("total", 0)),
                "cards": b.get("cards", 0),
                "singles": b.get("singles", 0),
                "pairs": b.get("pairs", 0),
                "triples": b.get("triples", 0),
                "suits": b.get("suits", 0),
                "groups": _groups(b),
            }
        )
    partnerships = []
    done: set[int] = set()
    for s in order:
        partner = outcome.breakdown[s].get("partner")
        if partner is None or s in done:
            continue
        done |= {s, int(partner)}
        partnerships.append(
            {
                "seats": words.joined(
                    [_seat_name(view, s, asked.names), _seat_name(view, int(partner), asked.names)]
                ),
                "place": _place(outcome.rank[s], tied),
                "total": outcome.scores[s],
                "won": outcome.rank[s] == 1,
            }
        )
    mine = outcome.breakdown[asked.seat].get("partner")
    return {
        "results": rows,
        "partnerships": partnerships,
        "partnered": mine is not None,
        "won": outcome.rank[asked.seat] == 1,
    }


def _groups(breakdown: Mapping[str, Any]) -> str:
    """``9 cards: 2 triples, 1 pair, 1 single``: the groups a seat scored, the empty ones left
    out ("0 single, 0 suit groups" read as a form)."""
    cards = int(breakdown.get("cards", 0))
    if not cards:
        return gettext("no cards")
    said = [
        ngettext(singular, plural, n) % {"n": n}
        for singular, plural, n in (
            ("%(n)s triple", "%(n)s triples", int(breakdown.get("triples", 0))),
            (
                "%(n)s suit (hat, coat, trousers)",
                "%(n)s suits (hat, coat, trousers)",
                int(breakdown.get("suits", 0)),
            ),
            ("%(n)s pair", "%(n)s pairs", int(breakdown.get("pairs", 0))),
            ("%(n)s single", "%(n)s singles", int(breakdown.get("singles", 0))),
        )
        if n
    ]
    counted = ngettext("%(n)s card", "%(n)s cards", cards) % {"n": cards}
    if not said:
        return counted
    return gettext("%(cards)s: %(groups)s") % {"cards": counted, "groups": ", ".join(said)}


def _place(rank: int, tied: set[int]) -> str:
    place = words.place(rank)
    return gettext("%(place)s (tied)") % {"place": place} if rank in tied else place


FACTS: dict[str, Callable[[Asked], dict[str, Any]]] = {"verbotenestadt": verbotenestadt}
