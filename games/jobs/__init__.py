"""The operational jobs behind the management commands, as plain functions.

Each ``manage.py`` command in ``games/management/commands/`` only parses its arguments, calls
one function here and prints what it returns; the tests call these functions directly.
Games change only through :mod:`games.services`.  A job refuses with :class:`JobError` (or
the service's :class:`~games.services.GameError`), whose text is written for the operator.

The jobs live in this package's parts (``creating``, ``showing``, ``replaying``, ``records``;
``jobs`` holds what they share); ``games.jobs.<name>`` reads each of them, as the commands and
tests call them.
"""

from __future__ import annotations

from games.jobs.common import JobError, get_game
from games.jobs.creating import (
    board_source,
    create_game,
    describe_created,
    first_seat_of,
    game_rules,
    parse_name_pairs,
    player_for,
    split_emails,
)
from games.jobs.records import (
    ABOUT,
    MOST_LEGAL,
    describe_imported,
    export_record,
    import_record,
    parse_players,
)
from games.jobs.replaying import ReplayCheck, describe_replay, replay_game
from games.jobs.showing import Narrated, event_lines, narrated_log, seat_of_colour, show_game

__all__ = [
    "ABOUT",
    "MOST_LEGAL",
    "JobError",
    "Narrated",
    "ReplayCheck",
    "board_source",
    "create_game",
    "describe_created",
    "describe_imported",
    "describe_replay",
    "event_lines",
    "export_record",
    "first_seat_of",
    "game_rules",
    "get_game",
    "import_record",
    "narrated_log",
    "parse_name_pairs",
    "parse_players",
    "player_for",
    "replay_game",
    "seat_of_colour",
    "show_game",
    "split_emails",
]
