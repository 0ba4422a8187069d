"""Small named players and games for the service tests."""

from __future__ import annotations

from typing import Any

from games import services
from games.models import Game, Player

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
