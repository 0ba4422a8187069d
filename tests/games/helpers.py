"""Games driven through the service in tests: Die Verbotene Stadt's started and played by its
bots, a game waiting in its ready window and its seats' replies by mail, and a page's words."""

from __future__ import annotations

import re
from typing import Any

from games import services
from games.models import Game
from notifications.models import InboundMail
from notifications.services import tokens
from tests.games.factories import players
from tests.notifications.helpers import compose, receive

RULES = "verbotenestadt"


def vs_game(n: int = 3, seed: str = "vs", **kw: Any) -> Game:
    game = services.create_game(players(n), rules=RULES, seed=seed, **kw)
    services.start_game(game)
    game.refresh_from_db()
    return game


def play(game: Game, moves: int | None = None, *, key: str = "bot", until: Any = None) -> Any:
    """Bots' moves through the service (``moves`` of them, until ``until(state)``, or to the
    end); the state after."""
    rules = services.rules_of(game)
    state = services.head_state(game)
    bots = [rules.about.Bot(f"{key}:{s}") for s in range(services.seats_of(game))]
    done = 0
    while (decisions := rules.pending(state)) and (moves is None or done < moves):
        if until is not None and until(state):
            break
        seat = decisions[0].seat
        services.submit(game, seat, bots[seat].choose(state, seat))
        state = services.head_state(game)
        done += 1
    game.refresh_from_db()
    return state


def text_of(html: str) -> str:
    """A page's text without its markup (the picture's too), for looking for words."""
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


def waiting_game(n: int = 3, hours: float = 24, seed: str = "ready") -> Game:
    return services.create_game(players(n), seed=seed, ready_hours=hours)


def reply(game: Game, position: int, body: str) -> InboundMail:
    seat = game.seats.select_related("player").get(position=position)
    return receive(compose(tokens.reply_address(seat), seat.player.email, body))
