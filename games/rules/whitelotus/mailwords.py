"""White Lotus's own words in the service's mails and pages (``presentation.MAIL_WORDS`` of
:class:`games.rules.base.Presentation`): English templates with ``{field}`` placeholders, said in
the reader's language by the service; a phrase not given here is said in the service's own,
generic words.  Its name, its editions, its hand and its years are why it says them its way."""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

MAIL_WORDS: Mapping[str, str] = MappingProxyType(
    {
        # an invitation: the game begins, in its edition
        "begins": "A game of White Lotus begins ({edition}). You play {colour}.",
        # an invitation to a seat taken over from another player
        "replacing": (
            "A moderator has given you the {colour} seat of this game of White Lotus; "
            "you play on from where it stands."
        ),
        "how_to_play": (
            "Play by replying to these mails. Every mail shows the board, your hand and, "
            "when it is your turn, the exact commands you can send."
        ),
        "other_commands": "Other commands: help, status (board and hand), log (recent events).",
        # the mail settings' "mail all", as its players have always read it
        "mail_all": "every mail: each reveal, each year, each move of the others",
        # a sealed bid is a move like any other: the subject and situation say "your move"
        "invitation_subject": "New game: you play {colour}, your move",
        "sealed_subject": "Your move: {decision_text}",
        "sealed_situation": "It is your move ({colour}): {decision_text}.",
        "sealed": (
            "Your choice is sealed. Until the last player's choice arrives you may change it by "
            "sending another command; then all choices are revealed together."
        ),
    }
)
