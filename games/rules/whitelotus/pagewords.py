"""White Lotus's codes as people read them on pages (``PAGE_WORDS`` of the contract): an
edition, a board, an option and its values, in English words that are the catalogue's msgids
(the service says them in the reader's language)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..base import Message, Translate
from .constants import BUILDINGS

PAGE_WORDS: Mapping[str, Mapping[str, str]] = {
    "edition": {"kosmos": "Kosmos (published rules)", "designer": "Designer (Wallace's rules)"},
    "board": {"china": "China (the published board)"},
    "option": {
        "zero_card": "the zero influence card",
        "negotiation": "gifts between players (variant for keen negotiators)",
        "open_hands": "hands shown to everyone",
        "adjacency": "a new marker next to",
        "ricefield_extra": "a ricefield's extra marker",
        "temple_draw": "a temple's extra draw",
    },
    # the chips a player holds, by the building they come from
    "chip": {b.label: b.label for b in BUILDINGS},
    "value": {
        "any": "any player's marker",
        "own": "one's own marker",
        "may": "may be declined",
        "must": "must be taken",
    },
}
WORDS: tuple[str, ...] = tuple(dict.fromkeys(w for kind in PAGE_WORDS.values() for w in kind.values()))

# each phase of a view as the picture and the pages say it (``{area}``: the contested province)
PHASES = {
    "placement": "placing control markers",
    "choose_contest": "choosing the next contest",
    "bidding": "bidding for {area}",
    "tie_break": "breaking a tie for {area}",
    "rebellion_offer": "a rebellion may start",
    "rebellion": "rebellion",
    "spoils": "taking the spoils",
    "palace_choice": "palaces give cards",
    "new_areas": "new tiles",
    "step_done": "between steps",
    "finished": "game over",
}


def phase_text(view: Mapping[str, Any], t: Translate) -> str:
    """The view's phase as people read it ("bidding for Yanan", "Gebote für Yanan"): the
    game's ``presentation.phase_text`` (games.rules.base), the picture's too."""
    template = PHASES.get(view["phase"], view["phase"])
    return t(template).format(area=view["step"].get("area", ""))


# a final score's parts as the game-over mail says them
SCORE_PARTS = (
    "buildings {buildings} + dragons {dragons} + largest territory {territory} "
    "({size} areas) + VP chips {chips}"
)


def score_parts(breakdown: Mapping[str, int]) -> Message:
    """A final score's parts ("buildings 23 + dragons 0 + largest territory 3 (14 areas) +
    VP chips 2"): the game's ``presentation.score_parts`` (games.rules.base)."""
    return Message(
        SCORE_PARTS,
        buildings=breakdown["buildings"],
        dragons=breakdown["dragons"],
        territory=breakdown["territory"],
        size=breakdown["territory_size"],
        chips=breakdown["chips"],
    )
