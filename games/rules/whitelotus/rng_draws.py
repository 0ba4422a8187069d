"""Random draws against the game's seed; each returns the state with its counter advanced."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeVar

from .. import rng
from .constants import Building
from .state import State, add, bag_index, evolve

T = TypeVar("T")


def draw_tile(state: State) -> tuple[int, State]:
    """One tile from the bag, uniformly among the tiles left."""
    roll, counter = rng.randbelow(state.seed, state.draws, sum(state.bag))
    for kind in Building:
        n = state.bag[bag_index(kind)]
        if roll < n:
            return int(kind), evolve(state, draws=counter, bag=add(state.bag, bag_index(kind), -1))
        roll -= n
    raise AssertionError("unreachable: roll below the bag size")


def shuffle(state: State, items: Sequence[T]) -> tuple[list[T], State]:
    out, counter = rng.shuffled(state.seed, state.draws, items)
    return out, evolve(state, draws=counter)


def below(state: State, n: int) -> tuple[int, State]:
    value, counter = rng.randbelow(state.seed, state.draws, n)
    return value, evolve(state, draws=counter)
