"""Table talk in mail: reading ``say <whom>: <text>`` out of a reply, and relaying what was said.

A message starts on a line whose first word is ``say`` (German ``sag``/``sage``, French
``dis``/``dire``), followed by whom it is for (``all``/``alle``/``tous``, or seats' colours in
any of the game's languages, separated by spaces or commas) and a colon.  It runs from the colon
to the end of that line and on over the following lines, up to the first blank line, the next
``say`` line or a line that starts with a command word (a game keyword, ``help``, ``mail``,
``vacation``…), whichever comes first.  Lines starting with ``#`` are left out, as everywhere in
a reply; the quoted text and signature were cut before (``quotes``).

A mail may hold commands and messages.  It is applied whole or not at all: the messages are
passed on only when every command (and every message) is accepted; if anything fails, nothing
is applied or said, and the answer says so.  The messages go out as mails of their own
(``press`` kind) to each addressee, from the service with the addressee's own seat reply
address as Reply-To; the sender reads a short confirmation in the answer to their mail.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from games.models import Game, Press

from . import outbox
from .mailwords import SAY, key

# ``say blue, green: …``: the words between the say word and the colon; ``and`` may join them
_SAY_LINE = re.compile(r"^(\w+)(?=[\s:])(.*)$")
_SEPARATORS = re.compile(r"[\s,;&+/]+")
_JOINING = frozenset({"and", "und", "et"})


@dataclass(frozen=True)
class Said:
    """One message as written: its first line (quoted back in a refusal), the words naming its
    addressees (empty when none was given), its text, and whether the line had its colon."""

    line: str
    whom: tuple[str, ...]
    text: str
    complete: bool = True


@dataclass
class _Open:
    line: str
    whom: tuple[str, ...]
    complete: bool
    text: list[str] = field(default_factory=list)

    def close(self) -> Said:
        return Said(self.line, self.whom, "\n".join(self.text).strip(), self.complete)


def say_line(line: str) -> _Open | None:
    """The start of a message if ``line`` is a say line, else None."""
    match = _SAY_LINE.match(line)
    if match is None or key(match.group(1)) not in SAY:
        return None
    rest = match.group(2)
    whom_part, colon, text = rest.partition(":")
    if not colon:
        return _Open(line, (), complete=False)
    whom = tuple(w for w in _SEPARATORS.split(whom_part.strip()) if w and key(w) not in _JOINING)
    return _Open(line, whom, complete=True, text=[text.strip()] if text.strip() else [])


def split(reply: str, is_command: Callable[[str], bool]) -> tuple[list[str], list[Said]]:
    """``(lines, said)``: the reply's command lines (stripped, no blank or ``#`` lines, as
    ``ParsedMail.lines``) and the messages in it, in the order written."""
    lines: list[str] = []
    said: list[Said] = []
    current: _Open | None = None
    for raw in reply.split("\n"):
        line = raw.strip()
        if line.startswith("#"):
            continue
        start = say_line(line) if line else None
        if current is not None and (not line or start is not None or is_command(line)):
            said.append(current.close())
            current = None
        if start is not None:
            current = start
        elif current is not None:
            current.text.append(line)
        elif line:
            lines.append(line)
    if current is not None:
        said.append(current.close())
    return lines, said


def relay(game: Game, press: Press) -> None:
    """A ``press`` mail to each addressee (never the sender), written in this transaction and
    sent after it commits; always sent, whatever the addressee's mail settings."""
    planned = [outbox.Planned("press", position, {"press": press.pk}) for position in press.to_seats]
    outbox.write(game, press.seq, planned, tag=f"p{press.pk}")


def summary(messages: Sequence[Press]) -> list[int]:
    """The messages an answer confirms, as its context keeps them (their ids)."""
    return [p.pk for p in messages]
