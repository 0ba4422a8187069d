"""Signals of the games app.

``events_appended(game, events, state, log, before)`` is sent inside the transaction that
appended the events, after the game row is saved: ``state`` is the engine state after them,
``log`` what the engine said, ``before`` the state the moves started from (None for events
that are not moves).  Receivers write what must follow from them (the
mail outbox rows, the pending-decision rows) in the same transaction; anything that talks
to the outside world must wait for ``transaction.on_commit``.
"""

from __future__ import annotations

from django.dispatch import Signal

events_appended = Signal()
