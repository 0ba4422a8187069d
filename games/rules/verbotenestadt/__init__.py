"""Die Verbotene Stadt (Alex Randolph and Johann Rüttinger, Ravensburger 1992) as a rules module
(seed 003; RULES.md beside this file cites the seed for every rule and lists every open point
with the decision taken).

Its core is the top level, its parts the classes ``About``, ``Serial``, ``Chance``,
``Notation`` and ``Presentation`` (:mod:`games.rules.base`), as the service reaches them::

    from games.rules import registry
    vs = registry.get("verbotenestadt")
    config = vs.serial.make_config(vs.serial.load_board("forbidden_city"), 3, "ravensburger", {}, None)
    state = vs.setup(config, seed="7")
    state, log = vs.apply(state, 0, vs.parse_command(state, "dial rg"))
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import fields
from typing import Any

from .. import base
from ..base import Message, Translate
from . import words
from .board import Board, load_board
from .bots import Bot
from .chancetext import (
    CHANCE,
    CHANCE_WORDS,
    SEEDED_FIELDS,
    drawn,
    format_chance_in,
    parse_chance,
)
from .commands import Command, Plan, command_from_dict, command_to_dict
from .constants import SEATS, hat, robe
from .decisions import legal, pending
from .defaults import default
from .engine import Draft, apply, outcome, replay, setup
from .mailfacts import WORDS as _FACT_WORDS
from .mailfacts import mail_facts, score_parts
from .mailwords import MAIL_WORDS
from .menu import describe, syntax
from .narrate import MESSAGES as NARRATION
from .narrate import narrate, narration
from .notation import SYNTAX, clean, format_command, format_command_in, parse_command
from .pagewords import PAGE_WORDS
from .pagewords import WORDS as _PAGE_WORDS
from .state import EDITIONS, Config, Options, State
from .textboard import text_board
from .views import view

name = "verbotenestadt"
title = "Die Verbotene Stadt"
player_counts = (2, 3, 4)
seat_colours = SEATS
OPTIONS: Mapping[str, Any] = {f.name: f.default for f in fields(Options)}


def public_notation(command: Command) -> str | None:
    """A plan is told to the others as "plan": its moves are narrated one by one as they are
    made, and those never made were the mover's own intent (they can point at the dial)."""
    return "plan" if isinstance(command, Plan) else None


def make_config(
    board: Board, players: int, edition: str, options: Mapping[str, Any], first_seat: int | None
) -> Config:
    """The engine's config for a new game: seats are the winds in order; ``first_seat`` None
    means the start player is found by the fate die (seed 003)."""
    unknown = set(options) - set(OPTIONS) - {"one_turn"}  # one_turn: the former name, still read
    if unknown:
        raise ValueError(f"unknown options: {', '.join(sorted(unknown))}")
    if players not in player_counts:
        raise ValueError("Die Verbotene Stadt is played by 2 to 4 players")
    return Config(board, SEATS[:players], edition, Options.from_data(options), first_seat)


def config_to_data(config: Config) -> dict[str, Any]:
    return config.to_dict()


def config_from_data(data: Mapping[str, Any], board: Board) -> Config:
    return Config.from_dict(data, board)


def state_to_dict(state: State) -> dict[str, Any]:
    return state.to_dict()


def state_from_dict(data: Mapping[str, Any], config: Config) -> State:
    return State.from_dict(data, config)


def decision_text(view: Mapping[str, Any], kind: str, translate: Translate = lambda s: s) -> str:
    """What a decision asks, from the seat's view."""
    from .narrate import DECISIONS

    t = translate
    template = DECISIONS.get(kind, kind)
    values: dict[str, Any] = {"target": view.get("target") or "?"}
    pavilions = view.get("pavilions") or []
    target = next((p for p in pavilions if p.get("number") == view.get("target")), None)
    values["colour"] = t(target["colour"]) if target else ""
    values["moves"] = (view.get("fate") or {}).get("moves", 0)
    entry = view.get("entry") or {}
    seats = {p["seat"]: p["colour"] for p in view.get("players") or []}
    values["mover"] = t(str(seats.get(entry.get("seat"), ""))).capitalize() if entry else ""
    code = str(entry.get("code", ""))
    # "by (blue/yellow)", as the narration says it: a bare code reads as a word ("moved by into")
    values["official"] = f"{code} ({t(hat(code))}/{t(robe(code))})" if len(code) == 2 else code
    choice = view.get("choice") or {}
    giver = choice.get("from")
    values["giver"] = t(str(seats.get(giver, ""))).capitalize() if giver is not None else ""
    return Message(template, **{k: str(v) for k, v in values.items()}).render(t)


# -- its parts of the contract (games.rules.base): what differs from the defaults ---------------


class About(base.About):
    # Bumped whenever a change could replay an old game differently; a game pins it at creation.
    VERSION = "verbotenestadt-2"
    editions = EDITIONS
    default_board = "forbidden_city"
    default_first_seat: int | None = None  # the start player by the roll-off (seed 003), unless told
    OPTIONS = OPTIONS
    # a turn is short and most decisions follow a die, so a day per decision (RULES.md, play by mail)
    time_controls: Mapping[str, Any] = {"hours_per_decision": 24, "reminder_hours": [12, 2]}
    short_windows: Mapping[str, float] = {"rebribe": 12, "challenge": 12}
    CHAPTERS = frozenset({"turn"})  # the pages fold their log by turn
    # log entries that reveal sealed choices: a dial window closing, the challenge's answers, a dial shown
    REVEALS = frozenset({"dials", "answers", "revealed"})
    PAGE_WORDS = PAGE_WORDS
    # every string the game asks the reader's language for
    MESSAGES: tuple[str, ...] = tuple(
        dict.fromkeys((title, *NARRATION, *_PAGE_WORDS, *MAIL_WORDS.values(), *_FACT_WORDS))
    )
    Bot = staticmethod(Bot)  # its player program


class Serial(base.Serial):
    load_board = staticmethod(load_board)
    make_config = staticmethod(make_config)
    config_to_data = staticmethod(config_to_data)
    config_from_data = staticmethod(config_from_data)
    state_to_dict = staticmethod(state_to_dict)
    state_from_dict = staticmethod(state_from_dict)
    command_to_dict = staticmethod(command_to_dict)
    command_from_dict = staticmethod(command_from_dict)
    replay = staticmethod(replay)
    draft = staticmethod(Draft)


class Chance(base.Chance):
    SYNTAX = CHANCE
    WORDS = CHANCE_WORDS
    SEEDED_FIELDS = SEEDED_FIELDS
    parse = staticmethod(parse_chance)
    format_in = staticmethod(format_chance_in)
    drawn = staticmethod(drawn)


class Notation(base.Notation):
    SYNTAX = SYNTAX
    words = words
    clean = staticmethod(clean)
    format_command = staticmethod(format_command)
    describe = staticmethod(describe)
    syntax = staticmethod(syntax)
    public = staticmethod(public_notation)


class Presentation(base.Presentation):
    MAIL_WORDS = MAIL_WORDS
    PICTURE = ".picture"  # its board as SVG, imported when first drawn
    narrate = staticmethod(narrate)
    decision_text = staticmethod(decision_text)
    mail_facts = staticmethod(mail_facts)
    score_parts = staticmethod(score_parts)


__all__ = [
    "About",
    "Board",
    "Chance",
    "Command",
    "Config",
    "Notation",
    "Options",
    "Presentation",
    "Serial",
    "State",
    "apply",
    "default",
    "format_command_in",
    "legal",
    "narration",
    "outcome",
    "parse_command",
    "pending",
    "player_counts",
    "seat_colours",
    "setup",
    "text_board",
    "title",
    "view",
]
