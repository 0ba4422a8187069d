"""Signals of the games app.

``events_appended(game, events, state, log)`` is sent inside the transaction that appended
the events, after the game row is saved.  Receivers write what must follow from them (the
mail outbox rows, the pending-decision rows) in the same transaction; anything that talks
to the outside world must wait for ``transaction.on_commit``.
"""

from __future__ import annotations

from django.dispatch import Signal

events_appended = Signal()
