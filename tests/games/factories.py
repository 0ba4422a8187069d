"""Small named players and games for the service tests, of any registered game (``rules``:
the registry's default when not named)."""

from __future__ import annotations

import random
from typing import Any

from games import services
from games.models import Game, Player
from games.rules import registry

NAMES = ("Ada", "Bao", "Chen", "Dara", "Emil", "Fang")


def players(n: int = 4) -> list[Player]:
    return [
        Player.objects.get_or_create(email=f"{name.lower()}@example.org", defaults={"name": name})[0]
        for name in NAMES[:n]
    ]


def running_game(
    n: int = 4, edition: str | None = None, seed: str = "svc", *, rules: str = registry.DEFAULT, **kw: Any
) -> Game:
    """A started game of ``n`` players; ``edition``: the game's first (White Lotus's kosmos)."""
    game = services.create_game(players(n), rules=rules, edition=edition, seed=seed, **kw)
    services.start_game(game)
    game.refresh_from_db()
    return game


def whose_turn(game: Game) -> int:
    return int(services.rules_of(game).pending(services.head_state(game))[0].seat)


def play_randomly(game: Game, rng: random.Random, moves: int | None = None) -> Any:
    """Random legal moves through the service, ``moves`` of them or to the end; the state after."""
    rules = services.rules_of(game)
    state = services.head_state(game)
    done = 0
    while rules.outcome(state) is None and (moves is None or done < moves):
        decision = rng.choice(rules.pending(state))
        services.submit(game, decision.seat, rng.choice(rules.legal(state, decision.seat)))
        state = services.head_state(game)
        done += 1
    game.refresh_from_db()
    return state
