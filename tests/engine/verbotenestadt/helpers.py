"""Small games on the hand-made test board, with the dice under the test's control."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from typing import Any

import pytest

from games.rules.verbotenestadt import dice
from games.rules.verbotenestadt.commands import Command, Dial
from games.rules.verbotenestadt.constants import OFFICIALS, SEATS, Card
from games.rules.verbotenestadt.engine import apply, setup
from games.rules.verbotenestadt.state import Config, Options, State, evolve
from tests.engine.verbotenestadt.boards import test_board

BOARD = test_board()
# pavilion 2 (orange) is at (0, 7), its door (1, 7): an official on (5, 7) sliding north enters it
TO_2_SQUARES = {"rr": (5, 7), "yy": (9, 2), "bb": (9, 12), "gg": (12, 12), "kk": (12, 2)}


def config(
    players: int = 3, partners: bool = False, first: int | None = 0, many_turns: bool = False
) -> Config:
    return Config(
        BOARD, SEATS[:players], options=Options(partners=partners, many_turns=many_turns), first_seat=first
    )


def started(players: int = 3, dials: Iterable[str] | None = None, seed: str = "t", **kw: Any) -> State:
    """A game past the first dial window (seat 0 begins unless told)."""
    state = setup(config(players, **kw), seed)
    for seat, code in enumerate(dials or ["rr", "yy", "bb", "gg"][:players]):
        state, _ = apply(state, seat, Dial(code))
    return state


def arrange(
    state: State, squares: dict[str, tuple[int, int]], target: int | None = None, **changes: Any
) -> State:
    """Only the officials named stand on the board, where told; the rest are off it (but
    not counted on the terrace)."""
    placed = tuple(squares.get(code) for code in OFFICIALS)
    return evolve(state, squares=placed, target=target if target is not None else state.target, **changes)


def hands(state: State, *cards: Iterable[Card]) -> State:
    """Give the seats these cards (taken out of the pavilions)."""
    given = [tuple(h) for h in cards] + [()] * (state.players - len(cards))
    taken = {c for h in given for c in h}
    piles = tuple(tuple(c for c in pile if c not in taken) for pile in state.piles)
    return evolve(state, hands=tuple(given), piles=piles)


def play(state: State, *moves: tuple[int, Command]) -> tuple[State, list[Any]]:
    log: list[Any] = []
    for seat, command in moves:
        state, more = apply(state, seat, command)
        log += more
    return state, log


@contextmanager
def rigged(
    monkeypatch: pytest.MonkeyPatch, faces: Iterable[str] = (), targets: Iterable[int] = ()
) -> Iterator[None]:
    """The fate dice show ``faces`` and the pavilion die ``targets``, in order."""
    face_iter, target_iter = iter(faces), iter(targets)
    real_fate, real_pavilion = dice.fate, dice.pavilion

    def fate(state: State, die: str) -> tuple[str, State]:
        try:
            return next(face_iter), state
        except StopIteration:
            return real_fate(state, die)

    def pavilion(state: State) -> tuple[int, State]:
        try:
            return next(target_iter), state
        except StopIteration:
            return real_pavilion(state)

    monkeypatch.setattr(dice, "fate", fate)
    monkeypatch.setattr(dice, "pavilion", pavilion)
    yield
