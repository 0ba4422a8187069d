"""Reading a command line: what every game's ``parse_command`` says before its own syntax.

A line too long to be a command, an empty line and a first word that is no command are
refused with the same sentences in every game (their translations are in the service's
catalogues).  How a word is quoted back, which keywords exist and the closest one are each
game's: the game passes them in.
"""

from __future__ import annotations

from .base import IllegalCommand, Message


def command_words(line: str, most: int) -> list[str]:
    """The words of a cleaned command line; refused when it has more than ``most``
    characters or no word at all."""
    if len(line) > most:
        raise IllegalCommand(
            Message(
                "This line has {length} characters; a command has at most {most}.",
                length=len(line),
                most=most,
            )
        )
    words = line.split()
    if not words:
        raise IllegalCommand(Message("An empty line is not a command."))
    return words


def not_a_command(quoted: str, guess: str | None, commands: str) -> IllegalCommand:
    """The refusal of a first word that is no keyword: ``quoted`` as the game quotes it, the
    closest keyword if any, and the game's list of commands (said in the reader's language:
    "setze, passe, ...")."""
    listed = Message(commands)
    if guess:
        return IllegalCommand(
            Message(
                "'{word}' is not a command. Did you mean '{guess}'? Commands: {commands}.",
                word=quoted,
                guess=guess,
                commands=listed,
            )
        )
    return IllegalCommand(
        Message("'{word}' is not a command. Commands: {commands}.", word=quoted, commands=listed)
    )
