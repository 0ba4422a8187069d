"""The text part of every mail made readable in an 80-column client, in one place.

``notifications.emails._render`` passes every text part through :func:`wrap`, so no mail kind
can escape it: lines are hard-wrapped at :data:`WIDTH` columns (none is longer than
:data:`LIMIT`), a URL stands on a line of its own, and the signature separator is exactly
``"-- "`` (RFC 3676: clients recognise it and leave the footer out of quotes).

A line is broken only between words, and a word is never split: a command, an e-mail
address or a link longer than the line stays whole.  A number is kept with the word before
it and a province's number with its name ("Changan (17)", "palace 2", "score 7"), so a list
of provinces or chips breaks only between its items.  Continuation lines hang under the
start of the text (two columns in from a bullet "- " or a quote "> ", four from an indented
line such as a menu line), so one alternative of a menu never looks like the next.
"""

from __future__ import annotations

import re

WIDTH = 76  # where lines are wrapped
LIMIT = 78  # no line of a text part is longer (RFC 5322's recommendation)
SIGNATURE = "-- "  # RFC 3676: the line that separates the footer

_URL = re.compile(r"\bhttps?://\S+")
_BULLET = re.compile(r"(?:[-*>]|\d+\.) ")
# a word that is kept on the line of the word before it: "(17)", "(17),", "2;", "12"
_TRAILING = re.compile(r"\(?\d+\)?[,;:.]?")


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


def wrap_line(line: str, width: int = WIDTH, hang: int | None = None) -> list[str]:
    """One line as lines of at most ``width`` columns; continuation lines are indented by
    ``hang`` columns (by default: under the text after a bullet, or four in from an indented
    line, or not at all for a paragraph)."""
    if len(line) <= width:
        return [line]
    body = line.lstrip(" ")
    indent = len(line) - len(body)
    if hang is None:
        bullet = _BULLET.match(body)
        hang = indent + (len(bullet.group(0)) if bullet else 4 if indent else 0)
    lines: list[str] = []
    current = " " * indent
    fresh = True  # nothing but indentation on the current line yet
    for space, word in _words(body):
        if not fresh and len(current) + len(space) + len(word) > width:
            lines.append(current)
            current, fresh = " " * hang, True
        current = current + word if fresh else current + space + word
        fresh = False
    lines.append(current)
    return lines


def _words(body: str) -> list[tuple[str, str]]:
    """The words of ``body``, each with the spaces before it (kept: a menu's double space
    stays double), a number glued to the word before it."""
    words: list[tuple[str, str]] = []
    for space, word in re.findall(r"( *)(\S+)", body):
        if words and _TRAILING.fullmatch(word) and not _URL.match(words[-1][1]):
            words[-1] = (words[-1][0], words[-1][1] + space + word)
        else:
            words.append((space, word))
    return words


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
