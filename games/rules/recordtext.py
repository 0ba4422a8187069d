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
