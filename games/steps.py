"""A game as a row of steps, for the replay viewer and the game pages: one step per event in
effect (``services.effective``: a rolled-back range is skipped, the ``rolled_back`` event
itself stays as a step), each with the engine state after it and what the engine said.

Built by ONE replay of the game (``services.walk``) and kept per process, keyed by the game
and its head: events are append-only and every change appends one, so the steps of a game at
a given head never change.  A replay page then costs a dictionary look-up, not a replay.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from games import services
from games.models import Event, Game
from games.rules import registry
from games.rules.base import GameRules, LogEntry

__all__ = ["Line", "Step", "Timeline", "clear_cache", "timeline"]

_KEPT = 16  # whole games kept; a few hundred states each
_lock = threading.Lock()
_cache: OrderedDict[tuple[int, datetime, int], Timeline] = OrderedDict()


@dataclass(frozen=True, slots=True)
class Step:
    number: int  # 1-based: step n is the state after the n-th event in effect
    event: Event
    state: Any  # the game's own state (its rules package's value)
    log: tuple[LogEntry, ...]  # empty for events that are not moves


@dataclass(frozen=True, slots=True)
class Line:
    text: str
    private_to: int | None  # said to this seat only (shown on its page, or once the game is over)


@dataclass(frozen=True)
class Timeline:
    steps: tuple[Step, ...]
    rules: str = registry.DEFAULT  # the game's (``Game.rules``)
    # pieces of pages rendered from these steps (the log, per reader): they never change either
    rendered: dict[tuple[object, ...], str] = field(default_factory=dict, compare=False, repr=False)

    def __len__(self) -> int:
        return len(self.steps)

    def step(self, number: int) -> Step | None:
        return self.steps[number - 1] if 1 <= number <= len(self.steps) else None

    @property
    def game_rules(self) -> GameRules:
        return registry.get(self.rules)

    @property
    def head(self) -> Step:
        return self.steps[-1]

    def lines(self, step: Step, seat: int | None = None, *, everything: bool = False) -> list[Line]:
        """What the engine said at this step that ``seat`` may read (all of it if ``everything``)."""
        narrate = self.game_rules.narrate
        return [
            Line(narrate(step.state, entry), entry.private_to)
            for entry in step.log
            if everything or entry.visible_to(seat)
        ]


def timeline(game: Game) -> Timeline:
    """The steps of the game as its head is now (``game.head_seq``), replayed at most once."""
    key = (game.pk, game.created_at, game.head_seq)
    with _lock:
        found = _cache.get(key)
        if found is not None:
            _cache.move_to_end(key)
            return found
    built = _build(game)
    with _lock:
        _cache[key] = built
        while len(_cache) > _KEPT:
            _cache.popitem(last=False)
    return built


def clear_cache() -> None:
    """Forget every kept timeline (tests)."""
    with _lock:
        _cache.clear()


def _build(game: Game) -> Timeline:
    walked = services.walk_all(game, upto=game.head_seq)
    return Timeline(
        tuple(Step(number, event, state, tuple(log)) for number, (event, state, log) in enumerate(walked, 1)),
        game.rules,
    )
