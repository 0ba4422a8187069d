"""Lines after a mail's commands that are prose (a thank-you, a sign-off, a name): ignored, not refused.

The quote stripper cannot know every sign-off, so a reply often ends in a line like "thanks!",
"Cheers, Max" or a bare "Dora". Such a line is ignored, and the sender is told, when it comes
after the last line that is a command or could be a mistyped one. A line could be a mistyped
command when all of these hold:

* its first word resembles a command word by the measure of the "Did you mean …?" hint
  (``words.closest_keyword_scored``: a similarity ratio of at least 0.6 to a keyword of any language,
  or to a word of the mail service such as ``status`` or ``vacation``);
* that first word is a word: it carries no punctuation ("thanks!", "Cheers," are prose; a
  command is never written with them);
* the line has the shape of the command it resembles: a single word only when that command
  takes no argument (``pass``, ``lead``, ``decline``, ``help``, ``back``...), more words only when
  it takes arguments and one of them looks like one (after ``join``, any word is a league's
  name): a number, or a colour, side, points word
  or province name of the game, exactly or with one slip (a ratio of at least 0.8: "Hangzhu").

So a lone "Dora" after the commands is prose: it resembles ``dehors`` (out), which needs a
colour. A lone "Lea" resembles ``lead``, which takes no argument: it is taken for a mistyped
command and refuses the mail, the safe side. Lines before the last command are never ignored
("Dora" above a command refuses the mail with its hint, as every unknown line does), and a mail
with no command at all ignores nothing (it is answered with what is wrong with its first line).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from difflib import SequenceMatcher
from typing import Literal

from games.rules.whitelotus import words as vocabulary
from games.rules.whitelotus.notation import SYNTAX

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
# Words of the command tables that are arguments, in every language (folded).
_TABLE_ARGUMENTS = frozenset(
    vocabulary.key(spelled)
    for table in (vocabulary.COLOURS, vocabulary.SIDES, vocabulary.POINTS)
    for language in vocabulary.LANGUAGES
    for spellings in table[language].values()
    for spelled in spellings
)


def split_trailing_prose(
    lines: Sequence[str], mail_words: Mapping[str, Arguments], argument_words: Iterable[str] = ()
) -> tuple[list[str], list[str]]:
    """``(commands, ignored)``: the lines up to the last command or possible typo, and the rest.

    ``mail_words`` are the service's own command words (folded) with what follows each;
    ``argument_words`` more words a game argument may be (the board's province names).
    """
    arguments = _arguments(argument_words)
    last = -1
    for index, line in enumerate(lines):
        if _may_be_command(line, mail_words, arguments):
            last = index
    if last < 0:
        return list(lines), []
    return list(lines[: last + 1]), list(lines[last + 1 :])


def split_prose(
    lines: Sequence[str], mail_words: Mapping[str, Arguments], argument_words: Iterable[str] = ()
) -> tuple[list[str], list[str]]:
    """``(commands, prose)``: the lines that are, or could be mistyped, commands, and the other
    non-blank lines, wherever they stand (a greeting above ``join <league>``).  By the same rule
    as ``split_trailing_prose``, for a mail that must hold one command and nothing else."""
    arguments = _arguments(argument_words)
    commands: list[str] = []
    prose: list[str] = []
    for line in lines:
        if _may_be_command(line, mail_words, arguments):
            commands.append(line)
        elif line.strip():
            prose.append(line)
    return commands, prose


def _arguments(argument_words: Iterable[str]) -> frozenset[str]:
    return _TABLE_ARGUMENTS | {vocabulary.key(w) for w in argument_words if vocabulary.key(w)}


def _may_be_command(line: str, mail_words: Mapping[str, Arguments], arguments: frozenset[str]) -> bool:
    words = line.split()
    if not words:
        return False
    first = words[0]
    folded = vocabulary.key(first)
    if vocabulary.keyword(first) is not None or folded in mail_words:
        return True
    if not folded or not first.isalpha() or len(folded) > _LONGEST_WORD:
        return False
    takes = _resembled(folded, mail_words)
    if takes is None:
        return False
    if len(words) == 1:
        return takes == "none"
    if takes == "any":
        return True
    return takes == "game" and any(_argument_like(word, arguments) for word in words[1:])


def _resembled(folded: str, mail_words: Mapping[str, Arguments]) -> Arguments | None:
    """What follows the command word ``folded`` most resembles; None if it resembles none."""
    best: tuple[float, Arguments] | None = None
    closest = vocabulary.closest_keyword_scored(folded)
    if closest is not None:
        spelled, score = closest
        canonical = vocabulary.keyword(spelled)
        assert canonical is not None
        best = (score, "none" if SYNTAX[canonical] == canonical else "game")
    for word, takes in mail_words.items():
        ratio = _ratio(folded, word, RESEMBLES if best is None else best[0])
        if ratio >= RESEMBLES and (best is None or ratio > best[0]):
            best = (ratio, takes)
    return None if best is None else best[1]


def _argument_like(word: str, arguments: frozenset[str]) -> bool:
    folded = vocabulary.key(word)
    if not folded or len(folded) > _LONGEST_WORD:
        return False
    if any(ch.isdigit() for ch in folded):
        return True
    return any(_ratio(folded, argument, _ARGUMENT_RESEMBLES) >= _ARGUMENT_RESEMBLES for argument in arguments)


def _ratio(a: str, b: str, floor: float = 0.0) -> float:
    """The similarity ratio of ``a`` and ``b``, or 0.0 when its cheap upper bounds show it is
    below ``floor`` (every line of every mail is compared with some hundred words)."""
    matcher = SequenceMatcher(None, a, b)
    if matcher.real_quick_ratio() < floor or matcher.quick_ratio() < floor:
        return 0.0
    return matcher.ratio()
