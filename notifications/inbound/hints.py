""" "Did you mean …?" for a reader: only words of their language, and setting words explained.

A game's notation refuses a first word that is no keyword with the keyword closest to it in
any of its languages (``games.rules.commandline.not_a_command``): it does not know who reads
the refusal.  The mail does, so before the refusal is written into the answer it is said
again for its reader here:

* the guess is the closest keyword of the reader's language (ratio at least 0.6, as the
  notation's); a keyword of another language only when the typed word is one slip from it
  (ratio at least 0.8: ``setz`` is ``setze`` whoever writes it, the command's own language),
  so ``here`` is never "Did you mean 'enchère'?" and German ``hier`` never "'miser'";
* a word of the mail settings written alone or first (``here``/``hier``/``ici``, ``digest``,
  ``off``…) is explained: it goes after ``mail`` or ``picture``, and ``here`` sets this game
  only.
"""

from __future__ import annotations

from games.rules import text
from games.rules.base import Message, Rules
from notifications.services.mailwords import key
from notifications.services.preferences import HERE, MODES, SWITCH

__all__ = ["for_reader"]

NOT_A_COMMAND = "'{word}' is not a command. Commands: {commands}."
DID_YOU_MEAN = "'{word}' is not a command. Did you mean '{guess}'? Commands: {commands}."
# as the notation's "Did you mean": a word of the reader's language ...
_RESEMBLES = 0.6
# ... or one slip from a word of another (a ratio of 0.8: "setz" and "setze")
_ONE_SLIP = 0.8

_HERE = frozenset(key(w) for w in HERE)
_SETTING_VALUES = frozenset(key(w) for w in (*MODES, *SWITCH))


def for_reader(message: Message, line: str, rules: Rules, language: str) -> Message:
    """The refusal ``message`` of ``line`` as its reader should read it: the notation's
    "is not a command" with a guess of the reader's language or an explanation of a setting
    word; any other message as it is."""
    if message.template not in (NOT_A_COMMAND, DID_YOU_MEAN):
        return message
    words = rules.notation.clean(line).split()
    if not words:
        return message
    typed = words[0]
    folded = key(typed)
    word = message.args.get("word", typed)
    if folded in _HERE:
        return Message(
            "'{word}' goes after a mail setting, to set it for this game only, e.g.: mail digest "
            "here, picture off here.",
            word=word,
        )
    if folded in _SETTING_VALUES and rules.notation.words.keyword(typed) is None:
        return Message(
            "'{word}' goes after mail or picture, e.g.: mail {word}, picture off (add here to set "
            "it for this game only).",
            word=word,
        )
    commands = message.args.get("commands", "")
    guess = guess_in(typed, rules, language)
    if guess is None:
        return Message(NOT_A_COMMAND, word=word, commands=commands)
    return Message(DID_YOU_MEAN, word=word, guess=guess, commands=commands)


def guess_in(typed: str, rules: Rules, language: str) -> str | None:
    """The keyword spelling a reader of ``language`` is offered for a mistyped word, or None."""
    vocabulary = rules.notation.words
    table = getattr(vocabulary, "TABLES", {}).get("keyword")
    languages = tuple(getattr(vocabulary, "LANGUAGES", ("en",)))
    if table is None:
        found = vocabulary.closest_keyword_scored(typed)
        return found[0] if found and found[1] >= _ONE_SLIP else None
    own = language if language in languages else "en"
    canonicals = tuple(table["en"])
    mine = text.closest_scored(typed, text.spellings(table, canonicals, (own,)), _RESEMBLES)
    others = tuple(lang for lang in languages if lang != own)
    theirs = text.closest_scored(typed, text.spellings(table, canonicals, others), _ONE_SLIP)
    if theirs is not None and (mine is None or theirs[1] > mine[1]):
        return theirs[0]
    return mine[0] if mine is not None else None
