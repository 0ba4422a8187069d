"""What the mails about moderators' acts tell, in the reader's language: who acted, the new
time controls with their values, the moves a rollback undid (in the engine's notation), and
who must decide now.  Built when a mail is rendered, from the event log (which never
changes), so every seat's mail says the same about the same act.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime
from functools import lru_cache
from typing import Any, NamedTuple

from django.contrib.auth.models import User
from django.utils import formats
from django.utils.translation import gettext, gettext_noop, ngettext

from games import services
from games.models import Event, Game, Player
from games.presentation import timefmt, words
from games.services.timing import TimeControls
from notifications.models import OutboundMail

# the controls in the order the admin's form shows them
CONTROL_LABELS = {
    "hours_per_decision": gettext_noop("Time per decision"),
    "reminder_hours": gettext_noop("Reminders before a deadline"),
    "grace_hours": gettext_noop("Grace after a deadline"),
    "quiet_nights": gettext_noop("No deadline at night (22:00-08:00, each player's time zone)"),
    "quiet_weekends": gettext_noop("No deadline at weekends (each player's time zone)"),
    "warn_after_defaults": gettext_noop("Moderators are told after this many missed deadlines in a row"),
    "vacation_days": gettext_noop("Vacation per player and game"),
}


def actor_name(actor: User | None) -> str:
    """Who acted: the moderator's name, or the operator (at the command line)."""
    if actor is None:
        return gettext("the service's operator")
    return actor.get_full_name() or actor.get_username()


def number(value: float) -> str:
    """48.0 -> "48", 1.5 -> "1.5" (or "1,5" in German and French)."""
    text = f"{value:g}"
    return text.replace(".", str(formats.get_format("DECIMAL_SEPARATOR")))


def _plural_count(value: float) -> int:
    """The count that picks the plural form of a possibly fractional number (0.5 hours,
    0,5 Stunden, 0,5 heure; 1.5 hours, 1,5 heures)."""
    if value == int(value):
        return int(value)
    return 0 if value < 1 else 2


def hours(value: float) -> str:
    return ngettext("%(n)s hour", "%(n)s hours", _plural_count(value)) % {"n": number(value)}


def days(value: float) -> str:
    return ngettext("%(n)s day", "%(n)s days", _plural_count(value)) % {"n": number(value)}


def control_value(name: str, tc: TimeControls) -> str:
    """One time control's value in words."""
    if name == "hours_per_decision":
        if tc.hours_per_decision is None:
            return gettext("no deadlines")
        return hours(tc.hours_per_decision)
    if name == "reminder_hours":
        return ", ".join(hours(h) for h in tc.reminder_hours) or gettext("none")
    if name == "grace_hours":
        return hours(tc.grace_hours) if tc.grace_hours else gettext("none")
    if name in ("quiet_nights", "quiet_weekends"):
        return gettext("yes") if getattr(tc, name) else gettext("no")
    if name == "warn_after_defaults":
        return str(tc.warn_after_defaults)
    return days(tc.vacation_days)


def time_controls_lines(new: Mapping[str, Any], previous: Mapping[str, Any] | None) -> list[str]:
    """Every time control with its value, "Time per decision: 24 hours (was 48 hours)" for
    the ones that changed."""
    now, was = TimeControls.from_dict(new), TimeControls.from_dict(previous)
    lines = []
    for name, label in CONTROL_LABELS.items():
        value, old = control_value(name, now), control_value(name, was)
        line = gettext("%(label)s: %(value)s") % {"label": gettext(label), "value": value}
        if previous is not None and old != value:
            line += " " + gettext("(was %(old)s)") % {"old": old}
        lines.append(line)
    return lines


def _holders(events: Sequence[Event]) -> dict[int, list[tuple[int, str]]]:
    """Per seat, ``(from seq, email)`` of each player who held it, from the log."""
    created = events[0].payload if events else {}
    held = {p["position"]: [(0, p["email"])] for p in created.get("players", [])}
    for event in events:
        if event.kind == Event.Kind.SEAT_REPLACED and event.seat is not None:
            held.setdefault(event.seat, []).append((event.seq, event.payload["new"]))
    return held


class Undone(NamedTuple):
    """One move a rollback undid, in no reader's language yet."""

    seat: int
    colour: str
    name: str  # who held the seat then (never their address)
    sealed: bool  # a sealed choice: written out only to the seat that made it
    notation: str
    public: str | None  # what the others read instead of the notation (rules.notation.public)
    default: bool  # played by a deadline's default


def undone_moves(game: Game, rollback: Event, reader: int) -> list[str]:
    """The moves a rollback undid, oldest first, as "Red (Ada): place Hangzhou": who held the
    seat then and the engine's notation of the move.  A sealed choice is written out only
    to the seat that made it; the others learn only that it was made."""
    lines = []
    for move in _undone(game.pk, game.created_at, rollback.seq):
        who = words.colour(move.colour) + (f" ({move.name})" if move.name else "")
        what = move.notation
        if move.seat != reader:
            what = gettext("a sealed choice") if move.sealed else (move.public or move.notation)
        if move.default:
            what = gettext("%(command)s (deadline default)") % {"command": what}
        lines.append(f"{who}: {what}")
    return lines


@lru_cache(maxsize=32)
def _undone(game_id: int, created_at: datetime, rollback_seq: int) -> tuple[Undone, ...]:
    """The undone moves of one rollback, read from the log once for all its readers (the log
    never changes, so neither does this).  Keyed like the services' caches: by the game's id
    and creation time (tests can reuse an id; ``clear_cache`` forgets)."""
    game = Game.objects.get(pk=game_id)
    rollback = game.events.get(seq=rollback_seq)
    to_seq = rollback.payload["to_seq"]
    events = list(game.events.filter(seq__lt=rollback.seq).order_by("seq"))
    held = _holders(events)
    names = dict(
        Player.objects.filter(email__in={e for h in held.values() for _, e in h}).values_list("email", "name")
    )
    rules = services.rules_of(game)
    colours = dict(game.seats.values_list("position", "colour"))
    moves: list[Undone] = []
    before: Any = None
    for event, state, _log in services.walk_all(game, rollback.seq - 1):
        if event.seq > to_seq and event.kind in services.MOVE_KINDS and event.seat is not None:
            assert before is not None  # a move never comes first: the game's creation does
            seat = event.seat
            email = [e for since, e in held.get(seat, []) if since < event.seq][-1:] or [""]
            command = rules.serial.command_from_dict(event.payload["command"])
            moves.append(
                Undone(
                    seat=seat,
                    colour=colours[seat],
                    name=names.get(email[0], ""),
                    sealed=any(d.seat == seat and d.sealed for d in rules.pending(before)),
                    notation=rules.notation.format_command(before, command),
                    public=rules.notation.public(command),
                    default=event.kind == Event.Kind.DEFAULT,
                )
            )
        before = state
    return tuple(moves)


def context(mail: OutboundMail, game: Game, state: Any, names: Mapping[str, str]) -> dict[str, Any]:
    """What the moderation mail of ``mail`` (an outbox row about one event) tells besides the
    game itself."""
    event = game.events.select_related("actor").filter(seq=mail.context.get("event")).first()
    out: dict[str, Any] = {}
    if event is None:
        return out
    if event.source == Event.Source.MODERATOR:
        out["moderator"] = actor_name(event.actor)
    if event.kind == Event.Kind.TIME_CONTROLS:
        out["controls"] = time_controls_lines(event.payload["time_controls"], event.payload.get("previous"))
    if event.kind == Event.Kind.ROLLED_BACK and mail.seat is not None:
        out["undone"] = undone_moves(game, event, mail.seat)
    if event.kind == Event.Kind.DEADLINE_EXTENDED and event.payload.get("previous"):
        previous = datetime.fromisoformat(event.payload["previous"])
        out["previous_deadline"] = timefmt.reader_time(previous)
    if mail.kind == "seat_replaced":  # the row carries the event's payload (outbox.plan)
        out["seat_colour"] = words.colour(str(mail.context.get("colour") or event.payload.get("colour", "")))
    return out


def clear_cache() -> None:
    """Forget the undone moves read so far (tests; never needed in production)."""
    _undone.cache_clear()
