"""A rollback's list of undone moves tells the others only what they could read while the
game ran: a Die Verbotene Stadt plan is "plan" to them (its moves are narrated one by one as
they are made; the rest was the mover's intent and can point at the dial), the mover reads
it whole."""

from __future__ import annotations

import pytest

from games import services
from games.models import Event
from games.rules import registry
from notifications.outbound.moderation import undone_moves
from tests.notifications.vsgames import new_game

pytestmark = pytest.mark.django_db

vs = registry.get("verbotenestadt")


def test_an_undone_plan_is_plan_to_the_others_and_whole_to_its_mover():
    game = new_game(3, seed="rollback-plan")
    state = services.head_state(game)
    while not any(d.kind == "move" for d in vs.pending(state)):  # the first dials
        decision = vs.pending(state)[0]
        services.submit(game, decision.seat, vs.about.Bot("rb").choose(state, decision.seat))
        state = services.head_state(game)
    mover = vs.pending(state)[0].seat
    first = next(c for c in vs.legal(state, mover) if type(c).__name__ == "Move")
    _, official, *directions = vs.notation.format_command(state, first).split()
    plan = f"plan {official} {' '.join(directions)}; stop"
    before = game.events.latest("seq").seq
    services.submit(game, mover, plan)
    assert game.events.filter(seq__gt=before, kind=Event.Kind.COMMAND, seat=mover).exists()
    game.refresh_from_db()
    services.rollback(game, before, by=None, reason="the plan was sent by mistake")
    rollback = game.events.latest("seq")
    other = (mover + 1) % 3
    told_other = undone_moves(game, rollback, other)
    told_mover = undone_moves(game, rollback, mover)
    assert len(told_other) == 1 and told_other[0].endswith(": plan")
    assert official not in told_other[0]
    assert told_mover[0].endswith(f"plan {official} {' '.join(directions)}; stop")
