"""What every job shares: its refusal (``JobError``, written for the operator) and finding a game."""

from __future__ import annotations

from django.conf import settings
from django.utils import translation

from games.models import Game, Seat


class JobError(Exception):
    """An operational job refused; ``str()`` says why, for the operator."""


def get_game(game_id: int) -> Game:
    game = Game.objects.filter(pk=game_id).first()
    if game is None:
        raise JobError(f"There is no game {game_id}.")
    return game


def _seats(game: Game) -> list[Seat]:
    return list(game.seats.select_related("player").order_by("position"))


def status_of(game: Game) -> str:
    """The game's status as the operator's terminal says it: in the site's own language,
    whatever language a page or mail rendered before in this process left active."""
    with translation.override(settings.LANGUAGE_CODE):
        return str(game.get_status_display())
