"""White Lotus as the operator reads it on the command line (``manage.py show_game``; the
``operator_text`` of :class:`games.rules.base.Presentation`): the provinces in
play, the players with their chips, the step, and a seat's hand, in plain English lines drawn
from a view (after the service's line that names the game)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..operatortext import result, waiting, words


def operator_text(view: Mapping[str, Any], names: Mapping[str, str]) -> list[str]:
    """``names``: seat colour -> the player as the operator knows them ("Ada <ada@x.org>")."""
    out = [
        f"seed hash: {view['seed_digest']}" + (f"  seed: {view['seed']}" if "seed" in view else ""),
        f"options: {words(view['options'])}",
        f"{'year' if view['edition'] == 'kosmos' else 'turn'} {view['year']}"
        f"{' (the last)' if view['final_year'] else ''}, phase {view['phase']}, emperor {view['emperor']}"
        f"{', rebel leader ' + view['rebel'] if view['rebel'] else ''}, tiles in the bag {view['bag']}",
        "",
        "Provinces in play:",
    ]
    areas = [a for a in view["areas"] if a["in_play"]]
    width = max(len(a["name"]) for a in areas)
    for a in areas:
        marks = "".join(m for m, on in (("*", a["lotus"]), ("D", a["dragon"])) if on)
        markers = f"  markers: {', '.join(a['markers'])}" if a["markers"] else ""
        out.append(
            f"  {a['number']:>2} {a['name']:<{width}} {marks:<2} {a['building'] or '-':<9} "
            f"{a['owner'] or '-':<7}{markers}".rstrip()
        )
    out += ["  (* lotus area, D dragon)", "", "Players:"]
    for p in view["players"]:
        chips = ", ".join(f"{k} {v}" for k, v in p["chips"].items() if v)
        hand = f"  hand: {words(p['hand'])}" if "hand" in p else ""
        out.append(
            f"  {p['colour']:<7} {names[p['colour']]}{'  (emperor)' if p['emperor'] else ''}"
            f"  VP chips {p['vp_chips']}  chips: {chips or 'none'}  score {p['score']['total']}{hand}"
        )
    out.append("")
    out += waiting(view)
    if view["step"]:
        out.append(f"Step: {words(view['step'])}")
    out += result(view)
    if "you" in view:
        out += ["", f"As {view['you']}: hand {words(view['hand'])}"]
        if view.get("sealed"):
            out.append(f"  sealed: {words(view['sealed'])}")
        if "drawn" in view:
            out.append(f"  drawn tile: {view['drawn']}")
    return out
