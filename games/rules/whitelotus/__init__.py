"""White Lotus (Martin Wallace; Kosmos 2002 and the designer's rules) as a rules module.

Its core is the top level, its parts the classes ``About``, ``Serial``, ``Chance``,
``Notation`` and ``Presentation`` (:mod:`games.rules.base`); its own functions are here too::

    from games.rules import whitelotus as wl
    board = wl.load_board("china")
    state = wl.setup(wl.Config(board, ("red", "blue", "green")), seed="7")
    state, log = wl.apply(state, 0, wl.parse_command(state, "place Ningxia"))
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import fields
from typing import Any

from .. import base
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
from .engine import Draft, apply, outcome, replay, setup
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

name = "whitelotus"
title = "White Lotus"
player_counts = (3, 4, 5, 6)
seat_colours = COLOURS


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


# -- its parts of the contract (games.rules.base): what differs from the defaults ---------------


class About(base.About):
    # Bumped whenever a change could replay an old game differently; a game pins it at creation.
    # Options added later (ricefield_extra, temple_draw) read as the rule a stored config that
    # does not name them was played under (Options.from_data, LEGACY), and a deadline default
    # changes no replay (the command it chose is stored with the move): every game created under
    # whitelotus-1 replays and plays on unchanged (tests/games/test_old_game_options.py).
    VERSION = "whitelotus-1"
    editions = EDITIONS
    default_board = "china"
    default_first_seat: int | None = 0  # the first seat is the first emperor unless told otherwise
    FIRST_SEAT_KEY = "first_emperor"  # as its config and records say it
    FULL_PRESS_OPTIONS: tuple[str, ...] = (
        "negotiation",
    )  # the negotiation variant is about dealing: full table talk
    # the command line's flags for its options
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
    # no clock or short windows of its own (the defaults: the service's two days a decision)
    CHAPTERS = frozenset({"year"})  # the pages fold their log by year
    # log entries that reveal sealed choices (told to the seats that need not decide: a reveal mail)
    REVEALS = frozenset({"bids", "sides", "battle", "income"})
    PAGE_WORDS = PAGE_WORDS
    # every string the game asks the reader's language for
    MESSAGES: tuple[str, ...] = tuple(
        dict.fromkeys((title, *NARRATION, *_PAGE_WORDS, *PHASES.values(), SCORE_PARTS, *MAIL_WORDS.values()))
    )

    Bot = staticmethod(Bot)  # its self-play player


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


class Presentation(base.Presentation):
    MAIL_WORDS = MAIL_WORDS
    PICTURE = ".picture"  # its board as SVG, imported when first drawn
    operator_text = staticmethod(operator_text)
    narrate = staticmethod(narrate)
    sealed_text = staticmethod(sealed_text)
    decision_text = staticmethod(decision_text)
    phase_text = staticmethod(phase_text)
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
