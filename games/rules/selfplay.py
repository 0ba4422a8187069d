"""Playing a game out: the loop every game's self-play runs, once.

A game's ``selfplay.play`` sets a game up, builds its bots (or takes the deadline defaults)
and hands the rest to :func:`play_out`: ask who owes a decision, let the first of them
choose, apply it, narrate what everyone may read.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TypeVar

from .base import Decision, LogEntry

S = TypeVar("S")
C = TypeVar("C")


def play_out(
    state: S,
    pending: Callable[[S], Sequence[Decision]],
    apply: Callable[[S, int, C], tuple[S, Sequence[LogEntry]]],
    choose: Callable[[S, int], C],
    narrate: Callable[[S, LogEntry], str],
    most: int | None = None,
) -> tuple[S, list[tuple[int, C]], list[str]]:
    """The game played from ``state`` until no decision is owed (or ``most`` commands): the
    last state, the ``(seat, command)`` moves and the narration of every public log entry
    (not the "submitted" notes of sealed choices)."""
    moves: list[tuple[int, C]] = []
    lines: list[str] = []
    while (decisions := pending(state)) and (most is None or len(moves) < most):
        seat = decisions[0].seat
        command = choose(state, seat)
        state, log = apply(state, seat, command)
        moves.append((seat, command))
        lines += [narrate(state, e) for e in log if e.private_to is None and e.kind != "submitted"]
    return state, moves, lines
