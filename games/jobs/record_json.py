"""A game's record as JSON (``/games/<id>/record.json``): the same record as the notation
text (``games.jobs.export_record``), its header lines as an object and its moves as a list, for
programs that would rather not parse the text.  ``import_game`` reads either
(``as_text``), so whatever the web offers can be imported again.

Like the text, it is published only when the game is over (``games.web.views.record``): it holds
the seed, from which every draw of a running game follows, and its sealed choices.

Format version 2 lists the record's body as the text has it: a move is
``{"colour", "command"}``, an outcome of chance ``{"chance": "draw village"}``, a comment on
its own line ``{"comment": "…"}`` (a blank line: ``{"comment": ""}``), and a line's own comment
is its ``"comment"``.  Version 1 (moves only) is read too.
"""

from __future__ import annotations

import json
from typing import Any

from games.rules.base import IllegalCommand
from games.rules.records import players_of
from games.rules.recordtext import body_lines, split_record

FORMAT = "white-lotus-by-mail/game-record"
FORMAT_VERSION = 2
READ_VERSIONS = (1, 2)


def from_text(text: str, about: dict[str, Any] | None = None) -> dict[str, Any]:
    """The record ``text`` (as ``export_record`` writes it) as a JSON object; ``about`` adds
    what the service knows of the game that the record does not say (its page, its status)."""
    header, _ = split_record(text)
    _, _, body = body_lines(text)
    title = next((line[1:].strip() for line in text.splitlines() if line.startswith("#")), "")
    colours = header.get("colours", "").split()
    names = _names(header.get("players", ""))
    moves: list[dict[str, str]] = []
    for _, line in body:
        if not line or line.startswith("#"):
            moves.append({"comment": line.lstrip("#").strip() if line else ""})
            continue
        line, _, comment = line.partition("  #") if "  #" in line else line.partition(" #")
        key, _, rest = line.partition(":")
        item = (
            {"chance": rest.strip()}
            if key.strip() == "chance"
            else {"colour": key.strip(), "command": rest.strip()}
        )
        if comment:
            item["comment"] = comment.strip()
        moves.append(item)
    return {
        "format": FORMAT,
        "format_version": FORMAT_VERSION,
        "title": title,
        **({"game": about} if about else {}),
        "players": [{"seat": n, "colour": c, "name": names.get(c, "")} for n, c in enumerate(colours)],
        "header": header,
        "moves": moves,
    }


def as_text(text: str) -> str:
    """A record in the notation: ``text`` itself, or the notation of a JSON record; a JSON
    text that is not a record raises :class:`IllegalCommand` saying why."""
    if not text.lstrip().startswith("{"):
        return text
    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        raise IllegalCommand(f"not valid JSON: {error}") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise IllegalCommand(f'a JSON record says "format": "{FORMAT}"')
    if data.get("format_version") not in READ_VERSIONS:
        raise IllegalCommand(
            f"this service reads JSON records of format_version {' or '.join(map(str, READ_VERSIONS))}"
        )
    header, moves = data.get("header"), data.get("moves")
    if not isinstance(header, dict) or not isinstance(moves, list):
        raise IllegalCommand('a JSON record has a "header" object and a "moves" list')
    lines = [f"# {_line(data.get('title', ''))}"]
    lines += [f"{_line(key)}: {_line(value)}" for key, value in header.items()]
    lines.append("")
    for move in moves:
        if not isinstance(move, dict):
            raise IllegalCommand('each of "moves" is an object with a "colour" and a "command"')
        comment = _line(move.get("comment", ""))
        if "chance" in move:
            line = f"chance: {_line(move['chance'])}"
        elif "colour" in move or "command" in move:
            line = f"{_line(move.get('colour', ''))}: {_line(move.get('command', ''))}"
        else:  # a comment on its own line, or a blank line
            lines.append(f"# {comment}" if comment else "")
            continue
        lines.append(f"{line}  # {comment}" if comment else line)
    return "\n".join(lines) + "\n"


def _line(value: object) -> str:
    """One line of the notation (a value cannot start another line, or a header a body)."""
    return " ".join(str(value).split())


def _names(players: str) -> dict[str, str]:
    """``red=Ada, blue=Bao`` (a public record's players line) → ``{colour: name}``."""
    return {colour: name for colour, (name, _) in players_of(players).items()}
