"""The service's own command words in mail, beside the game's notation (``words``).

One small place, free of Django, for the modules that must know them: ``inbound`` sorts a
mail's lines by them, ``preferences`` reads the mail settings, ``quotes`` must not cut a line
that may be a command as if it were a signature, and ``prose`` tells them from trailing prose.

These words are the service's, not a game's; they are folded (``key``) as the default game's
notation folds a word (case, accents, ``ß``), which every game's folding agrees with.
"""

from __future__ import annotations

from games.rules import registry
from games.rules.base import Rules
from notifications.services.prose import Arguments

# the default game's notation: how the service's words are folded, and the notation a line is
# read as where its game is not known yet (``may_be_command_word``: quotes are stripped before
# the reply address says which game a mail is for)
_DEFAULT = registry.get(registry.DEFAULT)
key = _DEFAULT.notation.words.key

__all__ = ["AWAY", "JOIN_WORDS", "MAIL_WORDS", "SAY", "SUBJECTS", "TOPICS", "may_be_command_word"]

# status commands, in English, German and French
TOPICS = {
    "help": "help",
    "hilfe": "help",
    "aide": "help",
    "status": "status",
    "stand": "status",
    "etat": "status",
    "état": "status",
    "log": "log",
    "protokoll": "log",
    "journal": "log",
}
# time away, in English, German and French
AWAY = {
    "vacation": "vacation",
    "urlaub": "vacation",
    "vacances": "vacation",
    "back": "back",
    "zurück": "back",
    "zurueck": "back",
    "retour": "back",
}
# the first words of the mail settings (``mail all``, ``bild aus``), in English, German and French
SUBJECTS = {
    "mail": "mail",
    "mails": "mail",
    "post": "mail",
    "courrier": "mail",
    "courriel": "mail",
    "courriels": "mail",
    "picture": "picture",
    "bild": "picture",
    "image": "picture",
}
# table talk: ``say blue: …`` (``sag``/``sage``, ``dis``/``dire``); read apart from the commands
# (``notifications.inbound.press``), so the trailing-prose rule never sees them
SAY = frozenset({"say", "sag", "sage", "dis", "dire"})
# the words above as the trailing-prose rule compares them (notifications.services.prose), with what
# follows each
MAIL_WORDS: dict[str, Arguments] = {
    **{key(word): "game" if AWAY.get(word) == "vacation" else "none" for word in (*TOPICS, *AWAY)},
    **{key(word): "any" for word in SUBJECTS},  # mail all, bild aus, image non...
}
# no command word is longer: the rest of a long line need not be read
_FIRST_WORD_CHARS = 64
# the service address's one command word (it takes a league's name)
JOIN_WORDS: dict[str, Arguments] = {"join": "any"}


def may_be_command_word(line: str) -> bool:
    """Whether a line's first word is a command word: a keyword of any registered game's
    notation in any language, a word of the mail service (``MAIL_WORDS``) or ``join``.  A
    reply's closing ("Thanks!", "Danke") is cut only when no such line follows it (``quotes``).

    The mail's game is not known when its quotes are stripped, so every game's keywords
    count (``plan`` and ``glaube`` as much as ``bid``)."""
    head = line.strip()[:_FIRST_WORD_CHARS]
    words = _DEFAULT.notation.clean(head).split(None, 1)
    if not words:
        return False
    first = words[0]
    if key(first) in MAIL_WORDS or key(first) in JOIN_WORDS or key(first.rstrip(":")) in SAY:
        return True
    return any(rules.notation.words.keyword(first) is not None for rules in _games())


def _games() -> tuple[Rules, ...]:
    # asked each time (registry.get is cached): a game registered later counts too
    return tuple(registry.get(name) for name in registry.names())
