"""Small named players and games for the service tests."""

from __future__ import annotations

import random
from typing import Any

from games import services
from games.models import Game, Player
from games.rules import whitelotus as wl

NAMES = ("Ada", "Bao", "Chen", "Dara", "Emil", "Fang")


def players(n: int = 4) -> list[Player]:
    return [
        Player.objects.get_or_create(email=f"{name.lower()}@example.org", defaults={"name": name})[0]
        for name in NAMES[:n]
    ]


def running_game(n: int = 4, edition: str = "kosmos", seed: str = "svc", **kw: Any) -> Game:
    game = services.create_game(players(n), edition=edition, seed=seed, **kw)
    services.start_game(game)
    game.refresh_from_db()
    return game


def whose_turn(game: Game) -> int:
    from games.rules import whitelotus as wl

    return wl.pending(services.head_state(game))[0].seat


def play_randomly(game: Game, rng: random.Random, moves: int | None = None) -> wl.State:
    """Random legal moves through the service, ``moves`` of them or to the end; the state after."""
    state: wl.State = services.head_state(game)
    done = 0
    while wl.outcome(state) is None and (moves is None or done < moves):
        decision = rng.choice(wl.pending(state))
        services.submit(game, decision.seat, rng.choice(wl.legal(state, decision.seat)))
        state = services.head_state(game)
        done += 1
    game.refresh_from_db()
    return state
