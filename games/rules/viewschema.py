"""The view as the service reads it: :class:`View` (a typed schema of what pages, mails and
the admin read of ``view(state, seat)``) and :func:`view_problems`, which tells what a view
lacks of it (the contract tests run it over random games of every game).  Re-exported by
:mod:`games.rules.base`.  Pure Python: no Django.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, NotRequired, TypedDict


class SeatView(TypedDict):
    """One seat in ``view["players"]``, in seat order."""

    seat: int  # its number
    colour: str  # its name, one of ``seat_colours`` (pages, mails: "Blue (Bao)")
    score: Mapping[str, int]  # its score so far: ``total`` and any parts (panels, game facts)


class DecisionView(TypedDict):
    """One decision owed now, in ``view["pending"]``."""

    colour: str  # the seat that owes it (found by colour; ``seat`` may be given too)
    kind: str  # what it is (``Decision.kind``): ``decision_text`` says it
    sealed: bool  # taken simultaneously and hidden until all are in
    seat: NotRequired[int]


class View(TypedDict):
    """What the service reads of ``view(state, seat)``; a game adds whatever its own text
    board, picture and partials read (its board, hands, dials…).

    ``you`` and ``sealed`` are in a seat's view only (not a spectator's): ``you`` the seat's
    colour (without it, the pages know the seat by its number), ``sealed`` its own sealed
    choice while the others are still choosing (None: nothing chosen), said to its seat by
    ``sealed_text``.  ``seed`` may be in a view once the
    game is over, never before (the service reveals the seed of the game's first event at the
    end anyway, so that the draws can be checked against the hash published at the start)."""

    players: list[SeatView]
    pending: list[DecisionView]
    phase: str  # the game's phase; "finished" once over (a game's PAGE_WORDS may name them)
    you: NotRequired[str]
    sealed: NotRequired[Any]
    seed: NotRequired[str]


def view_problems(view: Mapping[str, Any], seat: int | None, finished: bool) -> list[str]:
    """What in ``view`` (of ``seat``; None: a spectator's) breaks :class:`View`: empty when
    it is a view the service can read.  The contract test runs it over random games."""
    problems: list[str] = []

    def check(where: str, item: Any, keys: Mapping[str, Any]) -> None:
        if not isinstance(item, Mapping):
            problems.append(f"{where} is no mapping")
            return
        for key, want in keys.items():
            if key not in item:
                problems.append(f"{where} lacks {key!r}")
            elif not isinstance(item[key], want):
                problems.append(f"{where}[{key!r}] is {type(item[key]).__name__}, not {want}")

    check("the view", view, {"players": list, "pending": list, "phase": str})
    for i, player in enumerate(view.get("players") or ()):
        check(f"players[{i}]", player, {"seat": int, "colour": str, "score": Mapping})
        score = player.get("score") if isinstance(player, Mapping) else None
        if isinstance(score, Mapping) and not isinstance(score.get("total"), int):
            problems.append(f"players[{i}]['score'] has no int 'total'")
    for i, decision in enumerate(view.get("pending") or ()):
        check(f"pending[{i}]", decision, {"colour": str, "kind": str, "sealed": bool})
    colours = [p.get("colour") for p in view.get("players") or () if isinstance(p, Mapping)]
    if seat is None and ("you" in view or view.get("sealed") is not None):
        problems.append("a spectator's view names a seat ('you') or a sealed choice")
    if seat is not None and "you" in view and 0 <= seat < len(colours) and view["you"] != colours[seat]:
        problems.append(f"seat {seat}'s view has you={view.get('you')!r}, not {colours[seat]!r}")
    if finished and "seed" in view and not isinstance(view["seed"], str):
        problems.append("a finished game's view has a 'seed' that is no text")
    if not finished and "seed" in view:
        problems.append("a running game's view shows its 'seed'")
    return problems
