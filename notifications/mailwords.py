"""The service's own command words in mail, beside the game's notation (``words``).

One small place, free of Django, for the modules that must know them: ``inbound`` sorts a
mail's lines by them, ``preferences`` reads the mail settings, ``quotes`` must not cut a line
that may be a command as if it were a signature, and ``prose`` tells them from trailing prose.
"""

from __future__ import annotations

from games.rules.whitelotus.notation import clean
from games.rules.whitelotus.words import key, keyword

from .prose import Arguments

__all__ = ["AWAY", "JOIN_WORDS", "MAIL_WORDS", "SUBJECTS", "TOPICS", "may_be_command_word"]

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
# the words above as the trailing-prose rule compares them (notifications.prose), with what
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
    """Whether a line's first word is a command word: a keyword of the notation in any
    language, a word of the mail service (``MAIL_WORDS``) or ``join``.  A reply's closing
    ("Thanks!", "Danke") is cut only when no such line follows it (``quotes``)."""
    words = clean(line.strip()[:_FIRST_WORD_CHARS]).split(None, 1)
    if not words:
        return False
    first = words[0]
    return keyword(first) is not None or key(first) in MAIL_WORDS or key(first) in JOIN_WORDS
