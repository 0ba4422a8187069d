"""The review of the ready window: nothing of the setup built from the server's seed alone
leaks or sticks while a game waits for its seats' ``ready``, and what a player is told lets
them check their own contribution."""

from __future__ import annotations

import pytest

from games import services
from games.models import Game, Player

from .test_ready_window import reply, waiting_game

pytestmark = pytest.mark.django_db


def newcomer(name: str = "Gus") -> Player:
    return Player.objects.create(name=name, email=f"{name.lower()}@example.org")


def test_moderator_acts_in_the_ready_window_leave_no_snapshot_the_started_game_loads(settings):
    settings.GAMES_SNAPSHOT_EVERY = 3
    game = waiting_game()
    services.replace_seat(game, 1, newcomer("Gus"), by=None, reason="Bo left")
    services.replace_seat(game, 2, newcomer("Ida"), by=None, reason="Cy left")
    for position in range(3):
        reply(game, position, f"ready {position}")
    game.refresh_from_db()
    assert game.status == Game.Status.RUNNING
    services.clear_caches()
    full, same = services.replay_game(game)
    assert same
    assert services.head_state(game) == services.state_at(game) == full


def test_a_snapshot_taken_before_the_start_is_never_loaded(settings):
    settings.GAMES_SNAPSHOT_EVERY = 1000
    game = waiting_game()
    services.replace_seat(game, 1, newcomer(), by=None, reason="Bo left")
    rules = services.rules_of(game)
    game.snapshots.create(
        seq=2, engine_version=rules.VERSION, state=rules.state_to_dict(services.state_at(game))
    )
    for position in range(3):
        reply(game, position, f"ready {position}")
    game.refresh_from_db()
    assert services.usable_snapshot(game) is None
    services.clear_caches()
    assert services.head_state(game) == services.state_at(game)
