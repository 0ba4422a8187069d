"""Die Verbotene Stadt's codes as people read them on pages (``PAGE_WORDS`` of the
contract): an edition, a board, an option, a phase, a die and its faces, in English words that
are the catalogue's msgids (the service says them in the reader's language)."""

from __future__ import annotations

from collections.abc import Mapping

from .narrate import DIES, FACE_WORDS

PAGE_WORDS: Mapping[str, Mapping[str, str]] = {
    "edition": {"ravensburger": "Ravensburger (published rules)"},
    "board": {"forbidden_city": "the Forbidden City (the published board)"},
    "option": {
        "partners": "partners (4 players: opposite seats play together)",
        "many_turns": "a move may turn more than once",
    },
    "phase": {
        "dial": "setting the dials",
        "move": "moving officials",
        "take": "taking a card",
        "challenge": "the challenge",
        "finished": "finished",
    },
    "die": DIES,
    "face": FACE_WORDS,
}
WORDS: tuple[str, ...] = tuple(dict.fromkeys(w for kind in PAGE_WORDS.values() for w in kind.values()))
