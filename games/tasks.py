"""Celery tasks of the games app: thin shells around functions that tests call directly."""

from __future__ import annotations

# the task that plays the bots lives beside its code (``games.bots``, whose receiver enqueues
# it without coming back up here); imported here, it is this module's name as before and the
# worker registers it when it loads this module (``app.autodiscover_tasks``)
from .bots import play_bots

__all__ = ["play_bots"]
