"""White Lotus (Martin Wallace; Kosmos 2002 and the designer's rules) as a rules module.

The public functions follow :mod:`games.rules.base`::

    from games.rules import whitelotus as wl
    board = wl.load_board("china")
    state = wl.setup(wl.Config(board, ("red", "blue", "green")), seed="7")
    state, log = wl.apply(state, 0, wl.parse_command(state, "place Ningxia"))
"""

from __future__ import annotations

from ..base import Decision, IllegalCommand, LogEntry, Outcome
from .board import Board, load_board
from .commands import Command, command_from_dict, command_to_dict
from .defaults import default
from .engine import apply, legal, outcome, pending, replay, setup
from .menu import describe
from .narrate import narrate
from .notation import clean, format_command, parse_command
from .state import Config, Options, State
from .views import view

name = "whitelotus"
# Bumped whenever a change could replay an old game differently; a game pins it at creation.
VERSION = "whitelotus-1"

__all__ = [
    "VERSION",
    "Board",
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
    "default",
    "describe",
    "format_command",
    "legal",
    "load_board",
    "name",
    "narrate",
    "outcome",
    "parse_command",
    "pending",
    "replay",
    "setup",
    "view",
]
