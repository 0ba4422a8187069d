"""What a game's own mail partials (``mail/<rules>/_board.*``, ``game_over``) show besides its
text board: the game's ``presentation.mail_facts``
(:meth:`games.rules.base.Presentation.mail_facts`), drawn from the seat's view, its menu and the
outcome, said here in the reader's language.  Empty for a game that gives none (its partials,
if any, read its view directly)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.utils.translation import gettext, ngettext

from games.presentation import words
from games.rules.base import Asked

__all__ = ["Asked", "facts"]


class _Said:
    """The service's words for a game's ``mail_facts`` (``games.rules.base.Say``)."""

    def __call__(self, text: str) -> str:
        return gettext(text)

    def plural(self, singular: str, plural: str, n: int) -> str:
        return ngettext(singular, plural, n)

    def colour(self, colour: str) -> str:
        return words.colour(colour)

    def place(self, rank: int) -> str:
        return words.place(rank)

    def joined(self, items: Sequence[str]) -> str:
        return words.joined(items)


SAID = _Said()


def facts(asked: Asked) -> dict[str, Any]:
    return dict(asked.rules.presentation.mail_facts(asked, SAID))
