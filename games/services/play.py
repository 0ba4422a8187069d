"""Play: a seat's command submitted, a default applied at a deadline, a command read in the
game's notation for the seat that sends it."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone

from games.models import (
    Event,
    Game,
    PendingDecision,
)
from games.projections import narration
from games.rules import chance
from games.rules.base import IllegalCommand, Rules
from games.rules.chance import Chance
from games.services import timing
from games.services.appending import Result, _append, _check_running, _finish, _lines, _lock
from games.store.heads import Command, GameError, IllegalMove, State, _head, rules_of, seats_of

# --- moves ----------------------------------------------------------------------------------


def submit(
    game: Game,
    seat: int,
    command: str | Command,
    *,
    expected_seq: int | None = None,
    source: str = Event.Source.WEB,
    actor: User | None = None,
    inbound_message_id: str = "",
    outcomes: Sequence[Chance] = (),
    notes: Sequence[Any] = (),
) -> Result:
    """Apply a command (or several: one per line of ``command``), all or nothing.

    A move of a game played elsewhere comes with the ``outcomes`` of chance it
    drew, as its record gives them, and the record's comments on it (``notes``:
    ``games.rules.records.Note.to_data`` lists); both are kept with its event (one command)."""
    rules = rules_of(game)
    lines = _lines(rules, command)
    if (outcomes or notes) and len(lines) != 1:
        raise GameError("Outcomes of chance and comments go with one command at a time.")
    with transaction.atomic():
        game = _lock(game, len(lines))
        _check_running(game, expected_seq)
        state = _head(game)
        if not 0 <= seat < seats_of(game):
            raise GameError(f"There is no seat {seat} in this game.")
        result = Result(game, state, before=state, resync=True)
        for text, cmd in lines:
            try:
                parsed = cmd if cmd is not None else parse_command(rules, result.state, text, seat)
                new, log = rules.apply(result.state, seat, parsed, outcomes)
            except IllegalCommand as error:
                raise IllegalMove(
                    error.message,
                    error.legal or rules.notation.describe(result.state, seat),
                    text,
                    text=error.text,
                ) from None
            payload: dict[str, Any] = {"command": rules.serial.command_to_dict(parsed)}
            if outcomes:
                payload["chance"] = chance.to_data(outcomes)
            if notes:
                payload["notes"] = [list(n) for n in notes]
            event = _append(
                game,
                Event.Kind.COMMAND,
                payload,
                seat=seat,
                source=source,
                actor=actor,
                command_text=text or rules.notation.format_command(result.state, parsed),
                inbound_message_id=inbound_message_id,
                deferred=True,
            )
            result.told.append(narration.Told(event, result.state, new, log))
            result.state, result.events, result.log = new, [*result.events, event], result.log + log
        _finish(result)
    return result


def apply_default(
    game: Game,
    seat: int,
    *,
    expected_seq: int | None = None,
    since_seq: int | None = None,
    now: datetime | None = None,
) -> Result:
    """The rules module's default move for a seat whose deadline passed.

    With ``since_seq`` (the deadline sweep), it is played only if that very decision is
    still pending and due under the game's row lock: a real move that came first, or
    another worker that defaulted it first, makes this a :class:`NotDue` refusal."""
    with transaction.atomic():
        game = _lock(game, 1)
        _check_running(game, expected_seq)
        if since_seq is not None:
            _check_due(game, seat, since_seq, now or timezone.now())
        state = _head(game)
        rules = rules_of(game)
        try:
            command = rules.default(state, seat)
            new, log = rules.apply(state, seat, command)
        except IllegalCommand as error:
            raise GameError(f"No default to play for this seat: {error.message}") from None
        event = _append(
            game,
            Event.Kind.DEFAULT,
            {"command": rules.serial.command_to_dict(command)},
            seat=seat,
            source=Event.Source.DEADLINE,
            command_text=rules.notation.format_command(state, command),
            deferred=True,
        )
        result = Result(game, new, [event], log, before=state, resync=True)
        result.told.append(narration.Told(event, state, new, log))
        _finish(result)
    return result


class NotDue(GameError):
    """The decision a deadline default was meant for is no longer pending or due."""


def _check_due(game: Game, seat: int, since_seq: int, now: datetime) -> None:
    if game.clock_stopped_at is not None:
        raise NotDue("The game's clock is stopped (paused, or a player is away).")
    row = PendingDecision.objects.owed().filter(game=game, seat=seat, since_seq=since_seq).first()
    if row is None:
        raise NotDue("That decision was taken meanwhile.")
    grace = timing.controls(game).grace
    if row.deadline_at is None or row.deadline_at + grace > now:
        raise NotDue("That decision is not due yet.")


def parse_command(rules: Rules, state: State, text: str, seat: int | None = None) -> Command:
    """``rules.parse_command`` for the seat that sends it (a game whose notation reads a
    line the same for every seat is not told the seat)."""
    return rules.parse_command(state, text, seat)
