"""Game words in the reader's language (the engine speaks English; its words are msgids).

The seats' colours, buildings and a final score's parts (the game's own, ``score_parts``, else
the parts its outcome names); what a decision asks is the game's (``rules.presentation.decision_text``)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django.utils.translation import gettext, gettext_noop, ngettext

from games.rules.base import Rules

PLACES = {
    1: gettext_noop("1st"),
    2: gettext_noop("2nd"),
    3: gettext_noop("3rd"),
    4: gettext_noop("4th"),
    5: gettext_noop("5th"),
    6: gettext_noop("6th"),
}


def score_parts(row: dict[str, int], rules: Rules) -> str:
    """A final score's parts in the reader's language, as the game says them (its optional
    ``score_parts``: "buildings 23 + dragons 0 + …"), else as its outcome names them
    ("officials 12 + …")."""
    return str(rules.presentation.score_parts(row).render(gettext))


def colour(name: str) -> str:
    """A seat's name in the reader's language, as a name is written: capitalised wherever it
    stands ("Rot", "Est": the catalogue may spell a seat as the word it also is, "est")."""
    said = gettext(name)
    return said[:1].upper() + said[1:]


def game_word(rules: Rules, kind: str, code: object) -> str:
    """A code of a game's config or view (an edition, a board, an option or its value, a
    phase, a die) in the reader's language, through the game's words (``rules.about.PAGE_WORDS``);
    a code the game has no words for, as it is."""
    english = page_words(rules).get(kind, {}).get(str(code))
    return gettext(english) if english else str(code)


def page_words(rules: Rules) -> Mapping[str, Mapping[str, str]]:
    """The game's words for its codes (``rules.about.PAGE_WORDS``); none for a game that gives none
    (every code is then shown as it is)."""
    return rules.about.PAGE_WORDS or {}


def game_name(rules: Rules) -> str:
    """The game's name in the reader's language ("Der weiße Lotus")."""
    return gettext(rules.title)


def place(rank: int) -> str:
    """A final place: "2nd", "2.", "2e"."""
    return gettext(PLACES[rank]) if rank in PLACES else str(rank)


def waiting(view: Mapping[str, Any], names: Mapping[str, str], rules: Rules) -> str:
    """Whose move it is, told to a seat that has nothing to decide: "It is not your move:
    Blue (Bao) must place a control marker." (several seats: the sealed choices they owe);
    the decision in the words of the game (``rules``)."""
    pending = view.get("pending", [])
    if not pending:
        if view.get("phase") == "finished":
            return gettext("The game is over: nobody has a move to make.")
        return gettext("It is not your move; nobody has a decision to make just now.")
    kinds = list(dict.fromkeys(d["kind"] for d in pending))
    who = joined([_who(d["colour"], names) for d in pending])
    what = (
        rules.presentation.decision_text(view, kinds[0], gettext)
        if len(kinds) == 1
        else gettext("make their sealed choices")
    )
    return ngettext(
        "It is not your move: %(who)s must %(what)s.",
        "It is not your move: %(who)s must %(what)s.",
        len(pending),
    ) % {"who": who, "what": what}


def sealed_choice(rules: Rules, sealed: Any) -> str:
    """A seat's sealed choice from its view ("bid 3 against green", "side rebels, army 2"),
    in the reader's language, as the game says it (``rules.presentation.sealed_text``)."""
    return rules.presentation.sealed_text(sealed, gettext)


def joined(items: Sequence[str]) -> str:
    """ "Blue", "Blue and Green", "Blue, Green and Yellow"."""
    if len(items) < 2:
        return "".join(items)
    return gettext("%(some)s and %(last)s") % {"some": ", ".join(items[:-1]), "last": items[-1]}


def _who(name: str, names: Mapping[str, str]) -> str:
    player = names.get(name, "")
    return f"{colour(name)} ({player})" if player else colour(name)
