"""Playing a league's games through the service in tests: every decision left to its default,
or one random legal move at a time (the bot's for a seat it holds)."""

from __future__ import annotations

import random

import pytest

from games import services
from games.models import Event, Game, PendingDecision
from games.services import bots


def play_out(game: Game) -> None:
    """Every decision is left to its deadline: the default move, until the game ends."""
    for _ in range(2000):
        if not play_some(game, 1):
            return
    pytest.fail("the game did not end")


def play_some(game: Game, moves: int) -> bool:
    """Default the first owed decision ``moves`` times; False once nothing is owed (the end)."""
    for _ in range(moves):
        owed = PendingDecision.objects.owed().filter(game=game).order_by("seat").first()
        if owed is None:
            return False
        services.apply_default(game, owed.seat)
    return True


def step(game: Game, rng: random.Random) -> bool:
    """One random legal move (the bot's for a seat it holds); False once nothing is owed."""
    rules = services.rules_of(game)
    state = services.head_state(game)
    decisions = rules.pending(state)
    if not decisions or game.status != Game.Status.RUNNING:
        return False
    seat = rng.choice(decisions).seat
    if seat in bots.bot_seats(game):
        command = rules.about.Bot(bots.bot_key(game, seat)).choose(state, seat)
        services.submit(game, seat, command, source=Event.Source.BOT)
    else:
        services.submit(game, seat, rng.choice(rules.legal(state, seat)))
    return True
