"""A game as the operator reads it on the command line (``manage.py show_game``): plain English
lines drawn from a view, shared by the service's text of any game and a game's own
``operator_text`` (of :class:`games.rules.base.Presentation`).  Pure Python: no Django."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any


def words(value: Mapping[str, Any]) -> str:
    """A view's small dict as ``key value`` words."""
    parts = []
    for key, item in value.items():
        if isinstance(item, bool):
            text = "yes" if item else "no"
        elif isinstance(item, list | tuple):
            text = "/".join(str(x) for x in item) or "-"
        elif isinstance(item, Mapping):
            text = "(" + words(item) + ")"
        else:
            text = str(item)
        parts.append(f"{key.replace('_', ' ')} {text}")
    return ", ".join(parts)


def waiting(view: Mapping[str, Any]) -> list[str]:
    """Who owes a decision, and which, as one line (none when nobody does)."""
    pending = view.get("pending") or []
    if not pending:
        return []
    owed = ", ".join(f"{d['colour']} ({d['kind']}{', sealed' if d.get('sealed') else ''})" for d in pending)
    return [f"Waiting for: {owed}"]


def result(view: Mapping[str, Any]) -> list[str]:
    """A finished game's places and scores in seat order among equals, and its winners."""
    outcome = view.get("outcome")
    if not outcome:
        return []
    colours = [p["colour"] for p in view["players"]]
    order = sorted(colours, key=lambda c: (outcome["rank"][c], colours.index(c)))
    scores = (f"{outcome['rank'][c]}. {c} {_total(outcome['scores'][c])}" for c in order)
    return [f"Final scores: {', '.join(scores)}", f"Winner(s): {', '.join(outcome['winners'])}"]


def _total(score: Any) -> Any:
    return score.get("total", score) if isinstance(score, Mapping) else score
