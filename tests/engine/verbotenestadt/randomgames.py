"""Random legal games of Die Verbotene Stadt and the invariants every state of one keeps (for
the property tests).

A game of random legal commands alone rarely ends (a random move seldom reaches the target, and
before bluffing opens only one official a seat may enter), so a seat plays a command drawn from
its menu half the time and its bot's choice otherwise: every kind of decision is answered both
ways, and a game ends in a few hundred commands."""

from __future__ import annotations

import random
from collections.abc import Iterator

from games.rules.base import LogEntry
from games.rules.verbotenestadt import dice
from games.rules.verbotenestadt.bots import Bot
from games.rules.verbotenestadt.commands import Command
from games.rules.verbotenestadt.constants import CARDS, OFFICIALS, TERRACE_PLACES
from games.rules.verbotenestadt.decisions import legal, pending
from games.rules.verbotenestadt.engine import apply, setup
from games.rules.verbotenestadt.state import Config, State

PHASES = ("dial", "move", "take", "challenge", "finished")
MOST = 5000  # commands: a game that has not ended by then does not end


def play_random(
    config: Config, seed: str, key: str, share: float = 0.5
) -> Iterator[tuple[State, int, Command, State, list[LogEntry]]]:
    """(before, seat, command, after, log) for every command of one game: the seat owing a
    decision drawn by lot, its command drawn from its menu with probability ``share`` and its
    bot's choice otherwise."""
    lot = random.Random(key)
    bots = [Bot(f"{key}:{s}") for s in range(config.players)]
    state = setup(config, seed)
    for _ in range(MOST):
        decisions = pending(state)
        if not decisions:
            return
        seat = lot.choice(decisions).seat
        command = lot.choice(legal(state, seat)) if lot.random() < share else bots[seat].choose(state, seat)
        after, log = apply(state, seat, command)
        yield state, seat, command, after, log
        state = after
    raise AssertionError(f"the game does not end in {MOST} commands")


def check_invariants(state: State) -> None:
    n = state.players
    board = state.board
    # the 24 cards: each in one pile or one hand
    held = [c for hand in state.hands for c in hand]
    assert sorted([*held, *(c for pile in state.piles for c in pile)]) == sorted(CARDS)
    for number, pile in enumerate(state.piles, start=1):
        assert all(c[0] == board.pavilion(number).colour for c in pile)
    # the 25 officials: on a square of their own, or on the terrace once each, in order of arrival
    assert len(state.terrace) == len(set(state.terrace)) <= TERRACE_PLACES
    placed = [sq for sq in state.squares if sq is not None]
    assert len(placed) == len(set(placed))
    for code, square in zip(OFFICIALS, state.squares, strict=True):
        assert (square is None) == (code in state.terrace), code
        if square is not None:
            assert board.on_board(square) and square not in board.blocked and not board.pavilion_at(square)
    # the phase and who owes what
    assert state.phase in PHASES
    if state.phase == "finished":
        assert not pending(state) and not state.window and not state.tasks
        assert len(state.terrace) == TERRACE_PLACES or state.passes >= n
    else:
        assert pending(state), state.phase
    if state.phase in ("dial", "challenge"):
        seats = [s for s, _ in state.window]
        assert len(seats) == len(set(seats)) and all(
            state.sealed[s] is None for s in range(n) if s not in seats
        )
    else:
        assert state.sealed == (None,) * n
    if state.phase == "dial":
        assert seats == sorted(seats)
    if state.phase == "challenge":  # the challengers in play order from the mover
        assert state.entry is not None
        assert seats == [
            s % n for s in range(state.entry.mover + 1, state.entry.mover + n) if state.hands[s % n]
        ] and all(state.hands[s] for s, _ in state.window)
        assert state.entry.mover not in [s for s, _ in state.window]
    if state.phase == "move":
        assert state.target is not None and 1 <= state.target <= 8 and state.moves >= 0
    # the dials: on the board when set (a dial of an official gone to the terrace waits for the
    # next window), each commitment the hash of the dial with the salt of its last commitment
    for s in range(n):
        dial = state.dials[s]
        if dial is None:
            assert state.commitments[s] == "" and state.dial_sets[s] == 0
            continue
        assert dial in OFFICIALS
        salt = dice.salt(state.seed, s, state.dial_sets[s])
        assert state.commitments[s] == dice.commitment(s, dial, salt)
    for s, code, salt in state.revealed:  # shown at the last entry: with a salt of that seat's
        assert code in OFFICIALS
        assert salt in {dice.salt(state.seed, s, k) for k in range(1, state.dial_sets[s] + 1)}
