"""What the moderators' pages read from a game: whose move it is, the audit log (its rows,
folds and filters, each event narrated), and the hidden state a moderator may see."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from django.template import TemplateDoesNotExist
from django.template.loader import get_template
from django.utils.translation import gettext

from games import services
from games.admin.actions import ACTIONS
from games.models import Event, Game, Player, Seat
from games.presentation import words
from games.rules import registry
from games.rules.base import IllegalCommand, LogEntry


def seat_label(seats: dict[int, Seat], position: int | None) -> str:
    if position is None:
        return ""
    seat = seats.get(position)
    if seat is None:
        return gettext("seat %(position)d") % {"position": position}
    if seat.bot_since:
        return gettext("%(colour)s (%(player)s, played by the bot)") % {
            "colour": colour(seat.colour),
            "player": seat.player.name,
        }
    return f"{colour(seat.colour)} ({seat.player.name})"


def colour(code: str) -> str:
    """A seat's colour in the moderator's language; its code where that is the same word
    ("blue", not "Blue", in English: the code is what the log and the commands say)."""
    said = words.colour(code)
    return code if said.lower() == code.lower() else said


def whose_move(game: Game, state: Any | None = None) -> str:
    """Who must decide what now, colours with the players' names ("" when nobody)."""
    if game.status not in (Game.Status.RUNNING, Game.Status.PAUSED):
        return ""
    state = services.head_state(game) if state is None else state
    return pending_text({s.position: s for s in game.seats.all()}, state, rules=game.rules)


def pending_text(seats: dict[int, Seat], state: Any, *, rules: str) -> str:
    game = registry.get(rules)
    decisions = game.pending(state)
    view = game.view(state, None) if decisions else {}
    return "; ".join(
        f"{seat_label(seats, d.seat)}: {game.presentation.decision_text(view, d.kind, gettext)}"
        f"{gettext(' (sealed)') if d.sealed else ''}"
        for d in decisions
    )


# --- the audit log ----------------------------------------------------------------------------

# What ``services.rollback`` leaves standing after the event it goes back to: it replays the
# moves and sets the deadlines afresh, but never gives a seat back (``Seat.player`` stays), ends
# a bot's tenure, pauses or resumes, or changes the time controls or a vacation.
KEPT_BY_ROLLBACK = frozenset(
    {
        Event.Kind.SEAT_REPLACED,
        Event.Kind.BOT_SEATED,
        Event.Kind.BOT_UNSEATED,
        Event.Kind.PAUSED,
        Event.Kind.RESUMED,
        Event.Kind.TIME_CONTROLS,
        Event.Kind.VACATION_STARTED,
        Event.Kind.VACATION_ENDED,
    }
)


@dataclass
class Line:
    """One sentence of the engine's log; ``hidden_to`` names the only seat that sees it."""

    text: str
    hidden_to: str = ""
    data: str = ""


@dataclass
class Row:
    event: Event
    seat: str
    in_effect: bool
    undone_by: int | None = None
    lines: list[Line] = field(default_factory=list)
    error: str = ""
    period: str = ""  # the part of the game the event belongs to ("Year 3"), for folding
    can_roll_back: bool = False  # a moderator may roll the game back to just after it

    @property
    def kept(self) -> bool:
        """Left out of the events in effect by a later rollback, yet what it did stands: a
        rollback takes the moves back, not a seat handed on, a bot, a pause or the clock."""
        return not self.in_effect and self.event.kind in KEPT_BY_ROLLBACK

    @property
    def hidden(self) -> bool:
        return any(line.hidden_to for line in self.lines)

    @property
    def payload(self) -> str:
        return json.dumps(self.event.payload, indent=1, sort_keys=True)


@dataclass
class Fold:
    """A part of the log shown folded (a year of White Lotus; a stretch of events of a game
    without years); open when it is the latest part or a filter picked rows in it."""

    label: str
    rows: list[Row]
    open: bool = False

    @property
    def year(self) -> bool:
        """A part of the game by its own count (a year), not a stretch of events."""
        return bool(self.rows[0].period)

    @property
    def first_seq(self) -> int:
        return self.rows[0].event.seq

    @property
    def last_seq(self) -> int:
        return self.rows[-1].event.seq


def audit_rows(game: Game, events: list[Event], seats: dict[int, Seat]) -> list[Row]:
    """Every event as a row: who held the seat then, whether a rollback undid it, and for
    moves what the engine logged, private entries (sealed bids and choices, drawn tiles)
    included and marked; which rows a moderator may roll the game back to."""
    kept = services.effective(events)
    in_effect = {e.seq for e in kept}
    rows = [Row(e, "", e.seq in in_effect) for e in events]
    _label_and_mark(rows, seats)
    if rows:
        _narrate(game, rows)
    # as services.rollback takes them: an event in effect, from the start on, not the head
    started = next((e.seq for e in kept if e.kind == Event.Kind.STARTED), None)
    if started is not None and game.status in ACTIONS["rollback"].statuses:
        for row in rows:
            row.can_roll_back = row.in_effect and started <= row.event.seq < game.head_seq
    return rows


STRETCH = 50  # events per fold of a game whose state has no year


def folds(rows: list[Row]) -> list[Fold]:
    """The rows by the part of the game they belong to, in order; the last part open."""
    out: list[Fold] = []
    for row in rows:
        label = row.period or gettext("Events #%(first)d–") % {
            "first": (row.event.seq - 1) // STRETCH * STRETCH + 1
        }
        if out and out[-1].label == label:
            out[-1].rows.append(row)
        else:
            out.append(Fold(label, [row]))
    for fold in out:  # "Events #51–" becomes "Events #51–#100" (or up to the last one)
        if fold.label.endswith("–"):
            fold.label += f"#{fold.rows[-1].event.seq}"
    if out:
        out[-1].open = True
    return out


def filtered(rows: list[Row], seat: int | None, kind: str) -> list[Row]:
    """The rows of one seat's events and/or of one kind (``None`` / ``""``: any)."""
    return [r for r in rows if (seat is None or r.event.seat == seat) and (not kind or r.event.kind == kind)]


def _label_and_mark(rows: list[Row], seats: dict[int, Seat]) -> None:
    """The seat's colour and the player who held it at the event (seats change hands); which
    rollback undid each undone event (as ``services.effective`` counts them)."""
    created = rows[0].event.payload if rows else {}
    colours = created.get("config", {}).get("colours", [])
    holder = {p["position"]: p["email"] for p in created.get("players", [])}
    emails = {*holder.values()} | {r.event.payload.get("new", "") for r in rows}
    names = dict(Player.objects.filter(email__in=emails).values_list("email", "name"))

    def who(position: int) -> str:
        email = holder.get(position)
        if email is None or position >= len(colours):
            return seat_label(seats, position)
        return f"{colour(colours[position])} ({names.get(email, email)})"

    current: list[Row] = []
    for row in rows:
        event = row.event
        if event.seat is not None:
            row.seat = who(event.seat)
        if event.kind == Event.Kind.SEAT_REPLACED and event.seat is not None:
            holder[event.seat] = event.payload["new"]
            row.seat = f"{row.seat} → {names.get(holder[event.seat], holder[event.seat])}"
        if event.kind == Event.Kind.ROLLED_BACK:
            to_seq = event.payload["to_seq"]
            for undone in current:
                if undone.event.seq > to_seq:
                    undone.undone_by = event.seq
            current = [r for r in current if r.event.seq <= to_seq]
        current.append(row)


def _narrate(game: Game, rows: list[Row]) -> None:
    """Replay event by event (a rollback returns to the state after its target), keeping
    what the engine logged for each move."""
    created = rows[0].event
    rules = services.rules_of(game)
    colours = [s.colour for s in game.seats.order_by("position")]
    try:
        state = services.setup_of(game, created)
    except services.GameError as error:
        rows[0].error = gettext("Cannot replay: %(error)s") % {"error": error}
        return
    after: dict[int, Any] = {}
    year = rules.view(state, None).get("year")
    for row in rows:
        event = row.event
        made_in = year  # a move belongs to the year it was made in, even the one that ends it
        if event.kind == Event.Kind.ROLLED_BACK:
            state = after.get(event.payload["to_seq"], state)
            year = made_in = rules.view(state, None).get("year")
        elif event.kind in services.MOVE_KINDS and event.seat is not None:
            try:
                state, log = services.apply_event(rules, state, event)
            except (IllegalCommand, KeyError, TypeError, ValueError) as error:
                row.error = gettext("This move does not replay: %(error)s") % {"error": error}
            else:
                # what the engine said, in the moderator's language (the pages' and the mails')
                row.lines = [
                    _line(rules.presentation.narrate(state, entry, gettext), entry, colours) for entry in log
                ]
                year = rules.view(state, None).get("year")
        row.period = gettext("Year %(year)s") % {"year": made_in} if made_in else ""
        after[event.seq] = state


def _line(text: str, entry: LogEntry, colours: list[str]) -> Line:
    if entry.private_to is None:
        return Line(text)
    who = (
        colour(colours[entry.private_to])
        if entry.private_to < len(colours)
        else gettext("seat %(position)d") % {"position": entry.private_to}
    )
    return Line(text, who, json.dumps(dict(entry.data), sort_keys=True))


# --- the hidden state ---------------------------------------------------------------------------


def hidden_state(game: Game, seats: dict[int, Seat]) -> dict[str, Any]:
    """What no player sees whole while the game runs, at the game's head, for moderators: each
    seat's private part of its view (hand, sealed choice, dial), the public part of its row
    (a dial's commitment), and the game's state as data (a game's own partial picks the hidden
    parts from it: the order of face-down cards).  ``error`` if the game does not replay."""
    try:
        state = services.head_state(game)
    except services.GameError as error:
        return {"error": gettext("Cannot replay: %(error)s") % {"error": error}}
    rules = services.rules_of(game)
    public = rules.view(state, None)
    rows = []
    players = public.get("players") or []
    for position in range(services.seats_of(game)):
        private = {k: v for k, v in rules.view(state, position).items() if public.get(k) != v}
        rows.append(
            {
                "label": seat_label(seats, position),
                "private": private,
                "pretty": _pretty(private),
                "public": players[position] if position < len(players) else {},
            }
        )
    return {
        "seats": rows,
        "data": rules.serial.state_to_dict(state),
        "raw": _pretty(rules.serial.state_to_dict(state)),
    }


def hidden_template(rules: str) -> str:
    """The game's own partial for its hidden state, or the plain one."""
    name = f"admin/games/game/hidden/{rules}.html"
    try:
        get_template(name)
    except TemplateDoesNotExist:
        return "admin/games/game/hidden/generic.html"
    return name


def _pretty(data: Any) -> str:
    return json.dumps(data, indent=2, sort_keys=True, ensure_ascii=False)
