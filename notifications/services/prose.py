"""Lines after a mail's commands that are prose (a thank-you, a sign-off, a name): ignored, not refused.

The quote stripper cannot know every sign-off, so a reply often ends in a line like "thanks!",
"Cheers, Max" or a bare "Dora". Such a line is ignored, and the sender is told, when it comes
after the last line that is a command or could be a mistyped one. A line could be a mistyped
command when all of these hold:

* its first word resembles a command word by the measure of the "Did you mean …?" hint
  (``words.closest_keyword_scored`` of the mail's game: a similarity ratio of at least 0.6 to
  a keyword of any language, or to a word of the mail service such as ``status`` or
  ``vacation``);
* that first word is a word: it carries no punctuation ("thanks!", "Cheers," are prose; a
  command is never written with them);
* the line has the shape of the command it resembles: a single word only when that command
  takes no argument (``pass``, ``lead``, ``decline``, ``help``, ``back``...), more words only when
  it takes arguments and one of them looks like one (after ``join``, any word is a league's
  name): a number, or a word of one of the game's argument tables (White Lotus: a colour, side,
  points word) or a name on its board (a province), exactly or with one slip (a ratio of at
  least 0.8: "Hangzhu").

So a lone "Dora" after the commands is prose: it resembles ``dehors`` (out), which needs a
colour. A lone "Lea" resembles ``lead``, which takes no argument: it is taken for a mistyped
command and refuses the mail, the safe side. Lines before the last command are never ignored
("Dora" above a command refuses the mail with its hint, as every unknown line does), and a mail
with no command at all ignores nothing (it is answered with what is wrong with its first line).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from functools import cache
from typing import Literal

from games.rules import registry
from games.rules.base import Rules
from games.rules.text import similarity as _ratio

__all__ = ["RESEMBLES", "Arguments", "split_prose", "split_trailing_prose"]

# What follows a command word: nothing, game arguments (numbers, colours, provinces...), or
# anything at all (a league's name after ``join``).
Arguments = Literal["none", "game", "any"]

# The ratio words.closest_keyword needs before it offers "Did you mean …?".
RESEMBLES = 0.6
# An argument word must be nearer: one slip in a name of five letters or more ("Hangzhu"), so
# that short words of prose ("lot" ~ "rot", "chance" ~ "Changan") do not pass for arguments.
_ARGUMENT_RESEMBLES = 0.8
# No command or argument word is longer; comparing a longer one would only cost time.
_LONGEST_WORD = 40


@cache
def _table_arguments(rules_name: str) -> frozenset[str]:
    """Words of the game's tables that are arguments (every table of its vocabulary but the
    keywords: White Lotus's colours, sides and points), in every language (folded)."""
    vocabulary = registry.get(rules_name).notation.words
    return frozenset(
        vocabulary.key(spelled)
        for name, table in getattr(vocabulary, "TABLES", {}).items()
        if name != "keyword"
        for language in vocabulary.LANGUAGES
        for spellings in table[language].values()
        for spelled in spellings
    )


def _default() -> Rules:
    """The game whose words are read where no game is known (a mail to the service address:
    ``join <league>``): the default game's (its folding, its keywords as possible typos)."""
    return registry.get(registry.DEFAULT)


def split_trailing_prose(
    lines: Sequence[str],
    mail_words: Mapping[str, Arguments],
    argument_words: Iterable[str] = (),
    rules: Rules | None = None,
) -> tuple[list[str], list[str]]:
    """``(commands, ignored)``: the lines up to the last command or possible typo, and the rest.

    ``mail_words`` are the service's own command words (folded) with what follows each;
    ``argument_words`` more words a game argument may be (the board's province names);
    ``rules`` the game the mail is for (None: the default game).
    """
    rules = rules or _default()
    arguments = _arguments(argument_words, rules)
    last = -1
    for index, line in enumerate(lines):
        if _may_be_command(line, mail_words, arguments, rules):
            last = index
    if last < 0:
        return list(lines), []
    return list(lines[: last + 1]), list(lines[last + 1 :])


def split_prose(
    lines: Sequence[str],
    mail_words: Mapping[str, Arguments],
    argument_words: Iterable[str] = (),
    rules: Rules | None = None,
) -> tuple[list[str], list[str]]:
    """``(commands, prose)``: the lines that are, or could be mistyped, commands, and the other
    non-blank lines, wherever they stand (a greeting above ``join <league>``).  By the same rule
    as ``split_trailing_prose``, for a mail that must hold one command and nothing else;
    ``rules`` as there (a mail to the service address is for no game yet: the default's words)."""
    rules = rules or _default()
    arguments = _arguments(argument_words, rules)
    commands: list[str] = []
    prose: list[str] = []
    for line in lines:
        if _may_be_command(line, mail_words, arguments, rules):
            commands.append(line)
        elif line.strip():
            prose.append(line)
    return commands, prose


def _arguments(argument_words: Iterable[str], rules: Rules) -> frozenset[str]:
    key = rules.notation.words.key
    return _table_arguments(rules.name) | {key(w) for w in argument_words if key(w)}


def _may_be_command(
    line: str, mail_words: Mapping[str, Arguments], arguments: frozenset[str], rules: Rules
) -> bool:
    words = line.split()
    if not words:
        return False
    first = words[0]
    vocabulary = rules.notation.words
    folded = vocabulary.key(first)
    if vocabulary.keyword(first) is not None or folded in mail_words:
        return True
    if not folded or not first.isalpha() or len(folded) > _LONGEST_WORD:
        return False
    takes = _resembled(folded, mail_words, rules)
    if takes is None:
        return False
    if len(words) == 1:
        return takes == "none"
    if takes == "any":
        return True
    return takes == "game" and any(_argument_like(word, arguments, rules) for word in words[1:])


def _resembled(
    folded: str, mail_words: Mapping[str, Arguments], rules: Rules | None = None
) -> Arguments | None:
    """What follows the command word ``folded`` most resembles; None if it resembles none."""
    rules = rules or _default()
    vocabulary = rules.notation.words
    best: tuple[float, Arguments] | None = None
    closest = vocabulary.closest_keyword_scored(folded)
    if closest is not None:
        spelled, score = closest
        canonical = vocabulary.keyword(spelled)
        assert canonical is not None
        best = (score, "none" if rules.notation.SYNTAX[canonical] == canonical else "game")
    for word, takes in mail_words.items():
        ratio = _ratio(folded, word, RESEMBLES if best is None else best[0])
        if ratio >= RESEMBLES and (best is None or ratio > best[0]):
            best = (ratio, takes)
    return None if best is None else best[1]


def _argument_like(word: str, arguments: frozenset[str], rules: Rules) -> bool:
    folded = rules.notation.words.key(word)
    if not folded or len(folded) > _LONGEST_WORD:
        return False
    if any(ch.isdigit() for ch in folded):
        return True
    return any(_ratio(folded, argument, _ARGUMENT_RESEMBLES) >= _ARGUMENT_RESEMBLES for argument in arguments)
