"""Games for the browser tests: White Lotus after a few first legal moves, Die Verbotene Stadt
after a few of its bots', and the seat whose decision is owed, five hours before its deadline."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.utils import timezone

from games import services
from games.models import Game, PendingDecision
from games.rules import whitelotus as wl
from tests.games.factories import running_game
from tests.games.helpers import play, vs_game


def deciding_seat(game: Any) -> Any:
    rules = services.rules_of(game)
    seat = game.seats.get(position=rules.pending(services.head_state(game))[0].seat)
    PendingDecision.objects.filter(game=game, seat=seat.position).update(
        deadline_at=timezone.now() + timedelta(hours=5, minutes=1)
    )
    return seat


def played_vs() -> Any:
    game = vs_game(3, seed="phone-vs", name="Jade Gate")
    play(game, 5)
    game.refresh_from_db()
    return game


def played(moves: int, seed: str = "browser") -> Game:
    """A running 4-player game after ``moves`` moves, each the first legal one."""
    game = running_game(4, seed=seed)
    for _ in range(moves):
        state = services.head_state(game)
        seat = wl.pending(state)[0].seat
        services.submit(game, seat, wl.legal(state, seat)[0])
    game.refresh_from_db()
    return game
