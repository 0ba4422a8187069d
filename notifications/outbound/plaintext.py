"""The text part of every mail made readable in an 80-column client, in one place.

``notifications.outbound.mailrender.render_template`` passes every text part through
:func:`wrap`, so no mail kind can escape it: lines are hard-wrapped at :data:`WIDTH` columns
(none is longer than :data:`LIMIT`), a URL stands on a line of its own, and the signature
separator is exactly ``"-- "`` (RFC 3676: clients recognise it and leave the footer out of quotes).

A line is broken only between words, and a word is never split: a command, an e-mail
address or a link longer than the line stays whole.  A number is kept with the word before
it and a province's number with its name ("Changan (17)", "palace 2", "score 7"), so a list
of provinces or chips breaks only between its items.  Continuation lines hang under the
start of the text (two columns in from a bullet "- " or a quote "> ", four from an indented
line such as a menu line), so one alternative of a menu never looks like the next.
"""

from __future__ import annotations

from games.rules import text
from games.rules.text import URL as _URL
from games.rules.text import wrap_line

__all__ = ["LIMIT", "SIGNATURE", "WIDTH", "wrap", "wrap_line"]

WIDTH = text.WIDTH  # where lines are wrapped (76)
LIMIT = 78  # no line of a text part is longer (RFC 5322's recommendation)
SIGNATURE = "-- "  # RFC 3676: the line that separates the footer


def wrap(text: str, width: int = WIDTH) -> str:
    """``text`` with every line of it at most ``width`` columns (see the module's docstring)."""
    out: list[str] = []
    for line in text.split("\n"):
        if line.rstrip() == SIGNATURE.rstrip():
            out.append(SIGNATURE)
        elif not line.strip():
            if out and out[-1]:  # one blank line between paragraphs, none at the top
                out.append("")
        else:
            for part in _urls_apart(line.rstrip()):
                out.extend(wrap_line(part, width))
    while out and not out[-1]:
        out.pop()
    return "\n".join(out) + "\n"


def _urls_apart(line: str) -> list[str]:
    """The line, with each URL in it moved to a line of its own (keeping the indentation)."""
    if not _URL.search(line) or _URL.fullmatch(line.strip()):
        return [line]
    indent = line[: len(line) - len(line.lstrip(" "))]
    parts: list[str] = []
    rest = line.strip()
    while match := _URL.search(rest):
        before = rest[: match.start()].strip()
        if before:
            parts.append(indent + before)
        parts.append(indent + match.group(0))
        rest = rest[match.end() :].strip()
    if rest:
        parts.append(indent + rest)
    return parts
