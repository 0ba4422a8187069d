"""White Lotus (Martin Wallace; Kosmos 2002 and the designer's rules) as a rules module.

The public functions follow :mod:`games.rules.base`::

    from games.rules import whitelotus as wl
    board = wl.load_board("china")
    state = wl.setup(wl.Config(board, ("red", "blue", "green")), seed="7")
    state, log = wl.apply(state, 0, wl.parse_command(state, "place Ningxia"))
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import fields
from typing import Any

from ..base import Decision, IllegalCommand, LogEntry, Outcome
from . import words
from .board import Board, load_board
from .chancetext import (
    CHANCE,
    CHANCE_WORDS,
    SEEDED_FIELDS,
    drawn,
    format_chance_in,
    parse_chance,
)
from .commands import Command, command_from_dict, command_to_dict
from .constants import COLOURS, EDITIONS
from .decisions import legal, pending
from .defaults import default
from .engine import apply, outcome, replay, setup
from .mailwords import MAIL_WORDS
from .menu import describe, syntax
from .narrate import MESSAGES as NARRATION
from .narrate import narrate, narration, sealed_text
from .notation import SYNTAX, clean, format_command, format_command_in, parse_command
from .operatortext import operator_text
from .pagewords import PAGE_WORDS, PHASES, SCORE_PARTS, phase_text, score_parts
from .pagewords import WORDS as _PAGE_WORDS
from .selfplay import Bot
from .state import Config, Options, State
from .textboard import decision_text, text_board
from .views import view

# -- the rest of the contract of games.rules.base.GameRules --------------------------------

name = "whitelotus"
title = "White Lotus"
# every string the game asks the reader's language for (base.GameRules.MESSAGES)
MESSAGES: tuple[str, ...] = tuple(
    dict.fromkeys((title, *NARRATION, *_PAGE_WORDS, *PHASES.values(), SCORE_PARTS, *MAIL_WORDS.values()))
)
# Bumped whenever a change could replay an old game differently; a game pins it at creation.
# Options added later (ricefield_extra, temple_draw) read as the rule a stored config that does
# not name them was played under (Options.from_data, LEGACY), and a deadline default changes no
# replay (the command it chose is stored with the move): every game created under whitelotus-1
# replays and plays on unchanged (tests/games/test_old_game_options.py).
VERSION = "whitelotus-1"
editions = EDITIONS
player_counts = (3, 4, 5, 6)
seat_colours = COLOURS
default_board = "china"
default_first_seat: int | None = 0  # the first seat is the first emperor unless told otherwise
FIRST_SEAT_KEY = "first_emperor"  # (games.rules.base.Game) as its config and records say it
FULL_PRESS_OPTIONS = ("negotiation",)  # the negotiation variant is about dealing: full table talk
# the command line's flags for its options (games.rules.base.Game), as they always were
OPTION_FLAGS: Mapping[str, tuple[str, Any, str]] = {
    "no-zero-card": ("zero_card", False, "without the 0 card (French rules)"),
    "negotiation": ("negotiation", True, "the negotiation variant (gifts)"),
    "open-hands": ("open_hands", True, "every hand is shown to everyone"),
    "adjacency": (
        "adjacency",
        ("any", "own"),
        "designer placement: next to any player's chip, or to one's own",
    ),
}
OPTIONS: Mapping[str, Any] = {f.name: f.default for f in fields(Options)}
# no clock or short windows of its own (base.Game's defaults: the service's two days a decision)
# its board as SVG (an optional name of games.rules.base.Game), imported when first drawn
PICTURE = ".picture"
# log entries that reveal sealed choices (told to the seats that need not decide: a reveal mail)
CHAPTERS = frozenset({"year"})  # the pages fold their log by year
REVEALS = frozenset({"bids", "sides", "battle", "income"})


def make_config(
    board: Board, players: int, edition: str, options: Mapping[str, Any], first_seat: int | None
) -> Config:
    """The engine's config for a game: seats take the colours in the standard order;
    ``first_seat`` is the first emperor (None: by lot).  An option not named reads as the
    rule before it existed (``Options.from_data``); the service names every option of a
    new game (``OPTIONS`` merged with the chosen ones), so new games get the defaults."""
    if players not in player_counts:  # seven would quietly be six: there are six colours
        raise ValueError("White Lotus is for 3 to 6 players")
    return Config(board, COLOURS[:players], edition, Options.from_data(options), first_seat)


def config_to_data(config: Config) -> dict[str, Any]:
    """The config as the game's first event keeps it, every option named."""
    return {**config.to_dict(), "options": config.options.to_data()}


def config_from_data(data: Mapping[str, Any], board: Board) -> Config:
    """The config a game's first event keeps (``config_to_data``), on its board."""
    return Config(
        board=board,
        colours=tuple(data["colours"]),
        edition=data["edition"],
        options=Options.from_data(data["options"]),
        first_emperor=data["first_emperor"],
    )


def state_to_dict(state: State) -> dict[str, Any]:
    return state.to_dict()


def state_from_dict(data: Mapping[str, Any], config: Config) -> State:
    return State.from_dict(data, config.board)


__all__ = [
    "CHANCE",
    "CHANCE_WORDS",
    "CHAPTERS",
    "COLOURS",
    "FIRST_SEAT_KEY",
    "FULL_PRESS_OPTIONS",
    "MAIL_WORDS",
    "MESSAGES",
    "OPTIONS",
    "OPTION_FLAGS",
    "PAGE_WORDS",
    "PICTURE",
    "REVEALS",
    "SEEDED_FIELDS",
    "SYNTAX",
    "VERSION",
    "Board",
    "Bot",
    "Command",
    "Config",
    "Decision",
    "IllegalCommand",
    "LogEntry",
    "Options",
    "Outcome",
    "State",
    "apply",
    "clean",
    "command_from_dict",
    "command_to_dict",
    "config_from_data",
    "config_to_data",
    "decision_text",
    "default",
    "default_board",
    "default_first_seat",
    "describe",
    "drawn",
    "editions",
    "format_chance_in",
    "format_command",
    "format_command_in",
    "legal",
    "load_board",
    "make_config",
    "name",
    "narrate",
    "narration",
    "operator_text",
    "outcome",
    "parse_chance",
    "parse_command",
    "pending",
    "phase_text",
    "player_counts",
    "replay",
    "score_parts",
    "sealed_text",
    "seat_colours",
    "setup",
    "state_from_dict",
    "state_to_dict",
    "syntax",
    "text_board",
    "title",
    "view",
    "words",
]
