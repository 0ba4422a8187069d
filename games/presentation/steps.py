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
from functools import cached_property
from typing import Any

from django.utils.translation import gettext

from games import services
from games.models import Event, Game
from games.projections import narration
from games.rules import registry
from games.rules.base import LogEntry, Message, Rules

__all__ = ["Line", "Step", "Timeline", "at_head", "clear_cache", "timeline"]

_KEPT = 16  # whole games kept; a few hundred states each
_lock = threading.Lock()
_cache: OrderedDict[tuple[int, datetime, int], Timeline] = OrderedDict()


@dataclass(frozen=True, slots=True)
class Step:
    number: int  # 1-based: step n is the state after the n-th event in effect
    event: Event
    state: Any  # the game's own state (its rules package's value); None: not kept (``at_head``)
    log: tuple[LogEntry, ...]  # empty for events that are not moves
    # what the engine said, as the narration projection keeps it (``at_head``): (the line as a
    # message in no language yet, the seat it was said to only); None: narrated from ``log``
    told: tuple[Line, ...] | None = None


@dataclass(frozen=True, slots=True)
class Line:
    message: Message  # language-neutral: a template and its arguments
    private_to: int | None  # said to this seat only (shown on its page, or once the game is over)
    kind: str = ""  # the log entry's kind ("year"): a page folds its log at ``rules.about.CHAPTERS``

    @property
    def text(self) -> str:
        """The line in the active language (the reader's: a page activates it)."""
        return self.message.render(gettext)


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

    @cached_property
    def game_rules(self) -> Rules:
        """The game's rules, looked up once for the timeline (every log item reads them)."""
        return registry.get(self.rules)

    @property
    def head(self) -> Step:
        return self.steps[-1]

    def lines(self, step: Step, seat: int | None = None, *, everything: bool = False) -> list[Line]:
        """What the engine said at this step that ``seat`` may read (all of it if ``everything``)."""
        if step.told is not None:
            return [line for line in step.told if everything or line.private_to in (None, seat)]
        narration = self.game_rules.narration
        return [
            Line(narration(step.state, entry), entry.private_to, entry.kind)
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
        _heads.clear()


_heads: OrderedDict[tuple[int, datetime, int], Timeline] = OrderedDict()


def at_head(game: Game) -> Timeline:
    """The steps of the game as its head is now, for a page that shows the head and its log
    but no earlier board: without a replay.  The events in effect, each move with its lines
    from the narration projection, and only the head's state (the service's cached head or
    latest snapshot).  Where the rows lack moves (a game older than the projection), the
    replayed :func:`timeline`."""
    key = (game.pk, game.created_at, game.head_seq)
    with _lock:
        found = _cache.get(key) or _heads.get(key)
    if found is not None:
        return found
    stored = narration.stored(game, 0, game.head_seq)
    if stored is None:
        return timeline(game)
    said = {
        seq: tuple(
            Line(message, line["to"], line["k"])
            for line in lines
            if line["k"] != "default" and (message := Message.from_data(line["m"])) is not None
        )
        for seq, lines in stored
    }
    kept = services.effective(game.events.filter(seq__lte=game.head_seq).order_by("seq"))
    head = services.state_after(game, game.head_seq)
    steps = tuple(
        Step(number, event, head if number == len(kept) else None, (), said.get(event.seq, ()))
        for number, event in enumerate(kept, 1)
    )
    built = Timeline(steps, game.rules)
    with _lock:
        _heads[key] = built
        while len(_heads) > _KEPT:
            _heads.popitem(last=False)
    return built


def _build(game: Game) -> Timeline:
    walked = services.walk_all(game, upto=game.head_seq)
    return Timeline(
        tuple(Step(number, event, state, tuple(log)) for number, (event, state, log) in enumerate(walked, 1)),
        game.rules,
    )
