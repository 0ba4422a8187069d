"""Table talk in mail: reading ``say <whom>: <text>`` out of a reply, and relaying what was said.

A message starts on a line whose first word is ``say`` (German ``sag``/``sage``, French
``dis``/``dire``), followed by whom it is for (``all``/``alle``/``tous``, or seats' colours in
any of the game's languages, separated by spaces or commas) and a colon.  Whom it is for may be
said as people say it: ``say to all:``, ``say to blue and green:``, ``say everyone:``, ``sag an
alle:``, ``sag allen:``, ``dis à tous :``, ``dis à tout le monde :``, ``dis aux autres :``
(``to``/``an``/``zu``/``à``/``au``/``aux`` and the joining ``and``/``und``/``et`` are left out).

A line that starts with a talk word but lacks that shape (no colon, or words before the colon
that name no addressee: ``Say hi to Bao from me.``, ``Sag mal: wer ist dran?``, ``Dis donc, on
joue vite !``) is not talk: it is an ordinary line, so after the last command it is prose,
ignored and said in the answer (``prose``); elsewhere the answer explains how to talk
(``talk_like``).  It runs from the colon
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
from notifications.outbound import outbox
from notifications.services.mailwords import SAY, key

# ``say blue, green: …``: the words between the say word and the colon; ``and`` may join them
_SAY_LINE = re.compile(r"^(\w+)(?=[\s:])(.*)$")
# a line that starts with a talk word as prose does: "Sag, …", "Dis donc, …", "Say hi"
_TALK_WORD = re.compile(r"^(\w+)(?=[\s:,;!.?]|$)")
_SEPARATORS = re.compile(r"[\s,;&+/]+")
# words of natural addressing that name no one: "say to all", "sag an alle", "dis à tous",
# "say to blue and green", "dis à bleu et vert"
_JOINING = frozenset({"and", "und", "et", "to", "an", "zu", "a", "au", "aux"})
# several words that mean everyone, as one addressee word (``games.services.press.ALL_WORDS``)
_EVERYONE = {
    ("everyone",): "all",
    ("everybody",): "all",
    ("all", "of", "you"): "all",
    ("you", "all"): "all",
    ("euch", "alle"): "alle",
    ("alle", "anderen"): "alle",
    ("allen", "anderen"): "alle",
    ("jeden",): "alle",
    ("tout", "le", "monde"): "tous",
    ("les", "autres"): "tous",
    ("autres",): "tous",
    ("others",): "all",
    ("the", "others"): "all",
    ("all", "the", "others"): "all",
}


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


def talk_like(line: str) -> bool:
    """Whether a line starts with a talk word (``Say hi…``, ``Sag mal…``, ``Dis donc…``)."""
    match = _TALK_WORD.match(line.strip())
    return match is not None and key(match.group(1)) in SAY


def addressed(whom_part: str) -> tuple[str, ...]:
    """The addressee words of the text between a say word and its colon, natural addressing
    undone: ``to all`` is ``all``, ``à tout le monde`` is ``tous``, ``blue and green`` is
    ``blue green``."""
    words = [w for w in _SEPARATORS.split(whom_part.strip()) if w and key(w) not in _JOINING]
    folded = [key(w) for w in words]
    out: list[str] = []
    i = 0
    while i < len(words):
        for phrase, meaning in _EVERYONE.items():
            if tuple(folded[i : i + len(phrase)]) == phrase:
                out.append(meaning)
                i += len(phrase)
                break
        else:
            out.append(words[i])
            i += 1
    return tuple(out)


def say_line(line: str, addressee: Callable[[str], bool] | None = None) -> _Open | None:
    """The start of a message if ``line`` is a say line, else None.

    ``addressee`` tells a word that may name whom a message is for (``all`` or a seat's
    colour in the game's words); with it, a line whose words before the colon are not all such
    words is no say line (``Sag mal: wer ist dran?``), nor is one without a colon or without
    any addressee.  Without it (None) every such line starts a message, complete or not."""
    match = _SAY_LINE.match(line)
    if match is None or key(match.group(1)) not in SAY:
        return None
    rest = match.group(2)
    whom_part, colon, text = rest.partition(":")
    if addressee is None:
        if not colon:
            return _Open(line, (), complete=False)
    elif not colon or len(whom_part) > _WHOM_CHARS:
        return None
    whom = addressed(whom_part)
    if addressee is not None and (not whom or not all(addressee(w) for w in whom)):
        return None
    return _Open(line, whom, complete=True, text=[text.strip()] if text.strip() else [])


# whom a message is for is a few words; a longer text before the first colon is a sentence
_WHOM_CHARS = 80


def split(
    reply: str, is_command: Callable[[str], bool], addressee: Callable[[str], bool] | None = None
) -> tuple[list[str], list[Said]]:
    """``(lines, said)``: the reply's command lines (stripped, no blank or ``#`` lines, as
    ``ParsedMail.lines``) and the messages in it, in the order written; ``addressee`` as for
    ``say_line`` (a line that starts with a talk word but lacks the talk shape is a line)."""
    lines: list[str] = []
    said: list[Said] = []
    current: _Open | None = None
    for raw in reply.split("\n"):
        line = raw.strip()
        if line.startswith("#"):
            continue
        start = say_line(line, addressee) if line else None
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
