"""The only way into a game.  Every function here runs in one transaction under a row lock on
the game, validates against the state at the head, appends events and announces them
(``games.store.signals.events_appended``, inside the transaction: the mail outbox writes its rows
there) — all committed together or not at all.

State at the head = the latest snapshot + replay of the events after it.  A rollback appends
``rolled_back(to_seq)``; replay skips the undone events; nothing is deleted except snapshots,
which are a cache.

This package is that way in: ``games.services.<name>`` for every public name, read from its
parts (``heads``: the state at the head, caches, draws; ``appending``: lock, append, finish;
``creating``; ``play``; ``moderation``).
"""

from __future__ import annotations

from games.services.appending import Result
from games.services.creating import (
    MAX_READY_HOURS,
    OPTION_WORDS,
    UNSET,
    Contributed,
    contribute,
    create_game,
    default_press,
    entropy_of,
    game_options,
    option_from_words,
    option_refusal,
    start_game,
    start_waiting_games,
)
from games.services.moderation import (
    extend_deadline,
    pause,
    replace_seat,
    replace_seat_by_address,
    replay_game,
    resume,
    rollback,
    shortening_refusal,
)
from games.services.play import NotDue, apply_default, parse_command, submit
from games.store.heads import (
    MOVE_KINDS,
    Command,
    Config,
    GameError,
    IllegalMove,
    State,
    apply_event,
    board,
    clear_caches,
    config_of,
    contributions_of,
    draw_seed_of,
    effective,
    head_state,
    rules_of,
    seat_rows,
    seats_of,
    setup_of,
    state_after,
    state_at,
    usable_snapshot,
    version_mismatch,
    walk,
    walk_all,
)

__all__ = [
    "MAX_READY_HOURS",
    "MOVE_KINDS",
    "OPTION_WORDS",
    "UNSET",
    "Command",
    "Config",
    "Contributed",
    "GameError",
    "IllegalMove",
    "NotDue",
    "Result",
    "State",
    "apply_default",
    "apply_event",
    "board",
    "clear_caches",
    "config_of",
    "contribute",
    "contributions_of",
    "create_game",
    "default_press",
    "draw_seed_of",
    "effective",
    "entropy_of",
    "extend_deadline",
    "game_options",
    "head_state",
    "option_from_words",
    "option_refusal",
    "parse_command",
    "pause",
    "replace_seat",
    "replace_seat_by_address",
    "replay_game",
    "resume",
    "rollback",
    "rules_of",
    "seat_rows",
    "seats_of",
    "setup_of",
    "shortening_refusal",
    "start_game",
    "start_waiting_games",
    "state_after",
    "state_at",
    "submit",
    "usable_snapshot",
    "version_mismatch",
    "walk",
    "walk_all",
]
