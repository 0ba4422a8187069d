"""Game records: a header and one ``colour: command`` line per accepted command.

::

    # White Lotus game record
    edition: kosmos
    board: china
    colours: red blue green yellow purple
    options: zero_card=yes negotiation=no open_hands=no adjacency=any
    first_emperor: red
    seed: 7

    red: place Ningxia
    blue: place Yanan

Unknown header keys are kept (the service adds players and dates).  Forced moves are not
written: replaying the listed commands plays them again.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, fields

from ..base import IllegalCommand
from ..recordtext import split_record
from .board import Board, load_board
from .commands import Command
from .engine import apply, setup
from .notation import format_command, parse_command
from .state import Config, Options, State

HEADER = "# White Lotus game record"


@dataclass(frozen=True)
class Record:
    config: Config
    seed: str
    moves: tuple[tuple[int, Command], ...]
    extra: dict[str, str] = field(default_factory=dict)


def format_record(record: Record) -> str:
    config = record.config
    opts = " ".join(f"{f.name}={_word(getattr(config.options, f.name))}" for f in fields(Options))
    first = "lot" if config.first_emperor is None else config.colours[config.first_emperor]
    lines = [
        HEADER,
        f"edition: {config.edition}",
        f"board: {config.board.name}",
        f"colours: {' '.join(config.colours)}",
        f"options: {opts}",
        f"first_emperor: {first}",
        f"seed: {record.seed}",
    ]
    lines += [f"{k}: {v}" for k, v in record.extra.items()]
    lines.append("")
    state = setup(config, record.seed)
    for seat, command in record.moves:
        lines.append(f"{config.colours[seat]}: {format_command(state, command)}")
    return "\n".join(lines) + "\n"


def _word(value: object) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value)


def parse_record(text: str, boards: Callable[[str], Board] = load_board) -> tuple[Record, State]:
    """The record and the final state it replays to; an illegal line raises
    :class:`IllegalCommand` naming the line."""
    header, body = split_record(text)
    config = _config(header, boards)
    seed = header.pop("seed", None)
    if seed is None:
        raise IllegalCommand("bad record header: no 'seed:' line")
    state = setup(config, seed)
    moves: list[tuple[int, Command]] = []
    for number, line in body:
        who, _, text_ = line.partition(":")
        seat = state.seat_of(who.strip().lower())
        if seat is None:
            raise IllegalCommand(f"line {number}: '{who.strip()}' is not a colour of this game")
        try:
            command = parse_command(state, text_, seat)
            state, _ = apply(state, seat, command)
        except IllegalCommand as error:
            raise IllegalCommand(f"line {number} ({line}): {error.message}") from None
        moves.append((seat, command))
    known = {"edition", "board", "colours", "options", "first_emperor"}
    extra = {k: v for k, v in header.items() if k not in known}
    return Record(config, seed, tuple(moves), extra), state


def _config(header: dict[str, str], boards: Callable[[str], Board]) -> Config:
    try:
        colours = tuple(header["colours"].split())
        options: dict[str, object] = {}
        for item in header.get("options", "").split():
            key, _, value = item.partition("=")
            options[key] = (
                value in ("yes", "true", "on")
                if value in ("yes", "no", "true", "false", "on", "off")
                else value
            )
        first = header.get("first_emperor", colours[0])
        return Config(
            board=boards(header.get("board", "china")),
            colours=colours,
            edition=header.get("edition", "kosmos"),
            options=Options.from_data(options),  # unnamed options: the rule before them
            first_emperor=None if first == "lot" else colours.index(first),
        )
    except (KeyError, ValueError, TypeError, OSError) as error:
        raise IllegalCommand(f"bad record header: {error}") from None
