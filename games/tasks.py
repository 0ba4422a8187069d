"""Celery tasks of the games app: thin shells around functions that tests call directly."""

from __future__ import annotations

from celery import shared_task

from . import bots


@shared_task(acks_late=True)
def play_bots(game_id: int) -> str:
    """The decisions a game's bot-held seats owe, played (``games.bots.play``)."""
    return f"{bots.play(game_id)} bot moves played in game {game_id}"
