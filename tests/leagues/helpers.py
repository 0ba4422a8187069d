"""Seasons, members and moderators for the league tests, and playing a league's games through
the service: every decision left to its default, or one random legal move at a time (the bot's
for a seat it holds)."""

from __future__ import annotations

import random
from typing import Any

import pytest
from django.contrib.auth.models import User

from games import services
from games.models import Event, Game, PendingDecision, Player
from games.services import bots
from leagues.models import League, Season


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


def member(name: str) -> Player:
    return Player.objects.get_or_create(email=f"{name.lower()}@example.org", defaults={"name": name})[0]


def season_of(league: League, names: list[str], **kw: Any) -> Season:
    """A season of these members whose games start at once (``ready_hours`` 0: the ready
    window's own tests give one)."""
    kw.setdefault("ready_hours", 0)
    season = Season.objects.create(league=league, name="Autumn", **kw)
    for name in names:
        season.memberships.create(player=member(name))
    return season


def moderator_user(username: str, league: League) -> User:
    user = User.objects.create_user(username, f"{username}@example.org", "pw", is_staff=True)
    league.moderators.add(user)
    return user
