"""The layout every game record shares (pure; COMMANDS.md "Game records"): ``key: value``
header lines, a blank line, then one ``colour: command`` line per move; ``#`` lines are
comments.  Each game reads the header's values and the moves' notation itself."""

from __future__ import annotations

from .base import IllegalCommand


def split_record(text: str) -> tuple[dict[str, str], list[tuple[int, str]]]:
    """The header (keys in lower case) and the move lines with their line numbers; a line
    that is neither raises :class:`IllegalCommand` naming it."""
    header: dict[str, str] = {}
    body: list[tuple[int, str]] = []
    in_body = False
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not line or line.startswith("#"):
            in_body = in_body or (not line and bool(header))
            continue
        key, sep, value = line.partition(":")
        if not sep:
            raise IllegalCommand(f"line {number}: expected 'key: value' or 'colour: command'")
        if in_body:
            body.append((number, line))
        else:
            header[key.strip().lower()] = value.strip()
    return header, body


def body_lines(text: str) -> tuple[dict[str, str], list[str], list[tuple[int, str]]]:
    """The header (as :func:`split_record` reads it), its comment lines (the first, the
    record's title, left out) and every line after it with its number, blank lines and
    comments included (what annotations are made of)."""
    header: dict[str, str] = {}
    notes: list[str] = []
    body: list[tuple[int, str]] = []
    in_body = False
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if in_body:
            body.append((number, line))
        elif not line:
            in_body = bool(header)
        elif line.startswith("#"):
            if number > 1 or not line.endswith("game record"):
                notes.append(line)
        else:
            key, sep, value = line.partition(":")
            if not sep:
                raise IllegalCommand(f"line {number}: expected 'key: value' or 'colour: command'")
            header[key.strip().lower()] = value.strip()
    while body and not body[-1][1]:
        body.pop()
    return header, notes, body
