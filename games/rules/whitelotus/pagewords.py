"""White Lotus's codes as people read them on pages (``PAGE_WORDS`` of the contract): an
edition, a board, an option and its values, in English words that are the catalogue's msgids
(the service says them in the reader's language)."""

from __future__ import annotations

from collections.abc import Mapping

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
    "value": {
        "any": "any player's marker",
        "own": "one's own marker",
        "may": "may be declined",
        "must": "must be taken",
    },
}
WORDS: tuple[str, ...] = tuple(dict.fromkeys(w for kind in PAGE_WORDS.values() for w in kind.values()))
