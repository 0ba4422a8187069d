"""Playing a game out: the loop every game's self-play runs, once.

A game's ``selfplay.play`` sets a game up, builds its bots (or takes the deadline defaults)
and hands the rest to :func:`play_out`: ask who owes a decision, let the first of them
choose, apply it, narrate what everyone may read.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

from .base import Decision, LogEntry, Rules

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


@dataclass(frozen=True)
class Match:
    """One game of bots against deadline defaults: the seats the bot played, and the
    outcome (scores and ranks by seat)."""

    bots: frozenset[int]
    scores: tuple[int, ...]
    rank: tuple[int, ...]
    commands: int


def bot_match(rules: Rules, players: int, seed: str, bots: frozenset[int], most: int = 20000) -> Match:
    """A game of ``rules`` in which the seats ``bots`` are played by the game's ``Bot`` (keyed
    as the service keys a dropped seat's bot, never by the game's seed) and every other seat
    by the deadline default, as a game whose players all stopped answering would be."""
    config = rules.serial.make_config(
        rules.serial.load_board(rules.about.default_board),
        players,
        rules.about.editions[0],
        {},
        rules.about.default_first_seat,
    )
    players_bots = {s: rules.about.Bot(f"match:{seed}:{s}") for s in bots}

    def choose(state: Any, seat: int) -> Any:
        bot = players_bots.get(seat)
        return bot.choose(state, seat) if bot is not None else rules.default(state, seat)

    state, moves, _ = play_out(
        rules.setup(config, seed), rules.pending, rules.apply, choose, lambda s, e: "", most=most
    )
    result = rules.outcome(state)
    if result is None:
        raise RuntimeError(f"{rules.title} seed {seed}: no outcome after {len(moves)} commands")
    return Match(frozenset(bots), tuple(result.scores), tuple(result.rank), len(moves))
