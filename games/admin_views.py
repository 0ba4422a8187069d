"""The moderators' pages of the admin: a game's audit log, its state at any event, and the
moderator actions (rollback, pause, resume, extend a deadline, replace a seat's player, hand
a seat to the bot or give it back).

Who may: ``games.permissions`` says (a superuser, a site moderator, or a league moderator for
their leagues' games only; never for a game they play in); the admin site itself also wants
``is_staff`` to let anyone in.  A game outside the user's scope is not found (404).  Every
action goes through ``games.services`` with ``by=request.user`` and a reason, so it is an
event in the log.
Nothing here writes to a model directly.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from django import forms
from django.contrib import admin, messages
from django.contrib.auth.models import User
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404
from django.template import TemplateDoesNotExist
from django.template.loader import get_template
from django.template.response import TemplateResponse
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext
from django.views.decorators.http import require_POST

from games import bots, deadlines, permissions, services, timing
from games import press as table_talk
from games.models import Event, Game, Player, Seat
from games.permissions import is_moderator as is_moderator  # re-exported: the admin and tests use it
from games.rules import registry
from games.rules.base import IllegalCommand, LogEntry
from games.timing import TimeControls


def _moderator(request: HttpRequest) -> User:
    user = request.user
    if not isinstance(user, User) or not is_moderator(user):
        raise PermissionDenied
    return user


def seat_label(seats: dict[int, Seat], position: int | None) -> str:
    if position is None:
        return ""
    seat = seats.get(position)
    if seat is None:
        return f"seat {position}"
    return f"{seat.colour} ({seat.player.name}{', played by the bot' if seat.bot_since else ''})"


def whose_move(game: Game, state: Any | None = None) -> str:
    """Who must decide what now, colours with the players' names ("" when nobody)."""
    if game.status not in (Game.Status.RUNNING, Game.Status.PAUSED):
        return ""
    state = services.head_state(game) if state is None else state
    return pending_text({s.position: s for s in game.seats.all()}, state, rules=game.rules)


def pending_text(seats: dict[int, Seat], state: Any, *, rules: str = registry.DEFAULT) -> str:
    decisions = registry.get(rules).pending(state)
    return "; ".join(
        f"{seat_label(seats, d.seat)}: {d.kind}{' (sealed)' if d.sealed else ''}" for d in decisions
    )


# --- the forms of the moderator actions ----------------------------------------------------------


class ReasonForm(forms.Form):
    reason = forms.CharField(
        max_length=2000,
        widget=forms.Textarea(attrs={"rows": 2, "cols": 50}),
        help_text="Recorded in the log.",
    )


class RollbackForm(ReasonForm):
    to_seq = forms.IntegerField(min_value=1, label="Roll back to event #")
    field_order = ("to_seq", "reason")


class ExtendDeadlineForm(ReasonForm):
    until = forms.DateTimeField(
        label="New deadline",
        widget=forms.DateTimeInput(attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M"),
    )
    field_order = ("until", "reason")

    def __init__(self, *args: Any, game: Game, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.current = list(game.decisions.owed().values_list("deadline_at", flat=True))
        latest = max((d for d in self.current if d is not None), default=None)
        now = f" Now: {timezone.localtime(latest):%Y-%m-%d %H:%M}; only a later time." if latest else ""
        self.fields["until"].help_text = f"In {timezone.get_current_timezone_name()}.{now}"

    def clean_until(self) -> datetime:
        """Only a later deadline is an extension: the service refuses any other, and so does
        the form, next to the field, before anything is sent."""
        until: datetime = self.cleaned_data["until"]
        if until <= timezone.now():
            raise forms.ValidationError("The new deadline must lie in the future.")
        refusal = services.shortening_refusal(until, self.current)
        if refusal:
            raise forms.ValidationError(refusal)
        return until


class ReplaceSeatForm(ReasonForm):
    position = forms.TypedChoiceField(coerce=int, label="Seat")
    email = forms.EmailField(label="New player's email", help_text="An existing player.")
    field_order = ("position", "email", "reason")

    def __init__(self, *args: Any, game: Game, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.game = game
        seats = game.seats.select_related("player")
        self.fields["position"].choices = [  # type: ignore[attr-defined]
            (s.position, f"{s.colour}: {s.player}") for s in seats
        ]

    def clean_email(self) -> Player:
        player = Player.objects.filter(email__iexact=self.cleaned_data["email"]).first()
        if player is None:
            raise forms.ValidationError("There is no player with this email: add the player first.")
        refusal = permissions.seating_refusal(self.game, player)
        if refusal:
            raise forms.ValidationError(refusal)
        return player


class BotSeatForm(ReasonForm):
    """A seat to hand to the service's bot (``games.bots.hand_to_bot``), or to give back from
    it to its player (``take_back``): only the seats that can be are offered."""

    position = forms.TypedChoiceField(coerce=int, label="Seat")
    field_order = ("position", "reason")
    to_bot = True

    def __init__(self, *args: Any, game: Game, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        seats = game.seats.select_related("player").filter(bot_since__isnull=self.to_bot)
        self.fields["position"].choices = [  # type: ignore[attr-defined]
            (s.position, f"{s.colour}: {s.player}") for s in seats
        ]


class BotReturnForm(BotSeatForm):
    to_bot = False


class TimeControlsForm(ReasonForm):
    hours_per_decision = forms.FloatField(
        min_value=0.1, required=False, help_text="Empty: no deadlines. Sealed bids share one deadline."
    )
    reminder_hours = forms.CharField(required=False, help_text="Hours before the deadline, e.g. 24, 4.")
    grace_hours = forms.FloatField(min_value=0, initial=0)
    quiet_nights = forms.BooleanField(required=False, help_text="No deadline 22:00-08:00 (player's zone).")
    quiet_weekends = forms.BooleanField(required=False, help_text="No deadline on Saturday or Sunday.")
    warn_after_defaults = forms.IntegerField(min_value=1, initial=3)
    vacation_days = forms.IntegerField(min_value=0, initial=14)
    field_order = (
        "hours_per_decision",
        "reminder_hours",
        "grace_hours",
        "quiet_nights",
        "quiet_weekends",
        "warn_after_defaults",
        "vacation_days",
        "reason",
    )

    def __init__(self, *args: Any, game: Game, **kwargs: Any) -> None:
        current = timing.controls(game)
        initial = {**current.to_dict(), "reminder_hours": ", ".join(f"{h:g}" for h in current.reminder_hours)}
        kwargs.setdefault("initial", initial)
        super().__init__(*args, **kwargs)
        rules = services.rules_of(game)
        if rules.short_windows:  # those decisions keep a deadline even without a clock
            windows = ", ".join(f"{kind} {hours:g} h" for kind, hours in rules.short_windows.items())
            self.fields["hours_per_decision"].help_text = (
                f"Empty: no deadlines, except for {rules.title}'s short windows, which always "
                f"keep one ({windows}). Sealed decisions share one deadline."
            )

    def clean_reminder_hours(self) -> list[float]:
        text = self.cleaned_data["reminder_hours"]
        try:
            return [float(part) for part in text.replace(";", ",").split(",") if part.strip()]
        except ValueError:
            raise forms.ValidationError("Write hours separated by commas, e.g. 24, 4.") from None


@dataclass(frozen=True)
class Action:
    name: str
    label: str
    form_class: Callable[..., ReasonForm]
    perform: Callable[[Game, dict[str, Any], User, str], services.Result]
    statuses: tuple[str, ...]


_LIVE = (Game.Status.RUNNING, Game.Status.PAUSED)
ACTIONS = {
    a.name: a
    for a in (
        Action(
            "rollback",
            "Roll back",
            RollbackForm,
            lambda g, d, u, r: services.rollback(g, d["to_seq"], by=u, reason=r),
            (*_LIVE, Game.Status.FINISHED),
        ),
        Action("pause", "Pause", ReasonForm, lambda g, d, u, r: services.pause(g, by=u, reason=r), _LIVE),
        Action("resume", "Resume", ReasonForm, lambda g, d, u, r: services.resume(g, by=u, reason=r), _LIVE),
        Action(
            "extend",
            "Extend the deadline",
            ExtendDeadlineForm,
            lambda g, d, u, r: services.extend_deadline(g, d["until"], by=u, reason=r),
            _LIVE,
        ),
        Action(
            "time",
            "Change the time controls",
            TimeControlsForm,
            lambda g, d, u, r: deadlines.set_time_controls(
                g, TimeControls.from_dict({k: v for k, v in d.items() if k != "reason"}), by=u, reason=r
            ),
            _LIVE,
        ),
        Action(
            "replace",
            "Replace a seat's player",
            ReplaceSeatForm,
            lambda g, d, u, r: services.replace_seat(g, d["position"], d["email"], by=u, reason=r),
            (Game.Status.NEW, *_LIVE),
        ),
        Action(
            "bot",
            "Hand a seat to the bot",
            BotSeatForm,
            lambda g, d, u, r: bots.hand_to_bot(g, d["position"], by=u, reason=r),
            _LIVE,
        ),
        Action(
            "unbot",
            "Give a seat back from the bot to its player",
            BotReturnForm,
            lambda g, d, u, r: bots.take_back(
                g, d["position"], by=u, reason=r, source=Event.Source.MODERATOR
            ),
            _LIVE,
        ),
    )
}


def _form(action: Action, game: Game, data: Any = None) -> ReasonForm:
    kwargs: dict[str, Any] = {"auto_id": f"id_{action.name}_%s"}
    if action.form_class in (
        ReplaceSeatForm,
        TimeControlsForm,
        ExtendDeadlineForm,
        BotSeatForm,
        BotReturnForm,
    ):
        kwargs["game"] = game
    return action.form_class(data, **kwargs)


# --- the audit log ----------------------------------------------------------------------------


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
        label = row.period or f"Events #{(row.event.seq - 1) // STRETCH * STRETCH + 1}–"
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
        return f"{colours[position]} ({names.get(email, email)})"

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
        rows[0].error = f"Cannot replay: {error}"
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
                row.error = f"This move does not replay: {error}"
            else:
                # what the engine said, in the moderator's language (the pages' and the mails')
                row.lines = [_line(rules.narrate(state, entry, gettext), entry, colours) for entry in log]
                year = rules.view(state, None).get("year")
        row.period = f"Year {made_in}" if made_in else ""
        after[event.seq] = state


def _line(text: str, entry: LogEntry, colours: list[str]) -> Line:
    if entry.private_to is None:
        return Line(text)
    colour = colours[entry.private_to] if entry.private_to < len(colours) else f"seat {entry.private_to}"
    return Line(text, colour, json.dumps(dict(entry.data), sort_keys=True))


# --- the hidden state ---------------------------------------------------------------------------


def hidden_state(game: Game, seats: dict[int, Seat]) -> dict[str, Any]:
    """What no player sees whole while the game runs, at the game's head, for moderators: each
    seat's private part of its view (hand, sealed choice, dial), the public part of its row
    (a dial's commitment), and the game's state as data (a game's own partial picks the hidden
    parts from it: the order of face-down cards).  ``error`` if the game does not replay."""
    try:
        state = services.head_state(game)
    except services.GameError as error:
        return {"error": f"Cannot replay: {error}"}
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
    return {"seats": rows, "data": rules.state_to_dict(state), "raw": _pretty(rules.state_to_dict(state))}


def hidden_template(rules: str) -> str:
    """The game's own partial for its hidden state, or the plain one."""
    name = f"admin/games/game/hidden/{rules}.html"
    try:
        get_template(name)
    except TemplateDoesNotExist:
        return "admin/games/game/hidden/generic.html"
    return name


# --- the views ----------------------------------------------------------------------------------


def _game(request: HttpRequest, game_id: int) -> Game:
    return get_object_or_404(permissions.moderated_games(request.user), pk=game_id)


def _context(
    model_admin: admin.ModelAdmin[Game], request: HttpRequest, game: Game, title: str
) -> dict[str, Any]:
    return {
        **model_admin.admin_site.each_context(request),
        "opts": Game._meta,
        "title": title,
        "game": game,
        "audit_url": audit_url(game.pk),
    }


def audit_url(game_id: int) -> str:
    return reverse("admin:games_game_audit", args=[game_id])


_IDLE = {("pause", Game.Status.PAUSED), ("resume", Game.Status.RUNNING)}  # nothing to do: not offered


def audit_view(model_admin: admin.ModelAdmin[Game], request: HttpRequest, game_id: int) -> HttpResponse:
    _moderator(request)
    game = _game(request, game_id)
    seats = {s.position: s for s in game.seats.select_related("player")}
    events = list(game.events.select_related("actor").order_by("seq"))
    try:
        pending = whose_move(game)
    except services.GameError as error:
        pending = f"(cannot compute: {error})"
    actions = [
        {
            "action": a,
            "form": _form(a, game),
            "url": reverse("admin:games_game_action", args=[game.pk, a.name]),
        }
        for a in ACTIONS.values()
        if game.status in a.statuses
        and (a.name, game.status) not in _IDLE
        and not (a.name == "unbot" and not any(s.bot_since for s in seats.values()))
    ]
    rows = audit_rows(game, events, seats)
    seat, kind = _log_filter(request, seats)
    shown = filtered(rows, seat, kind)
    parts = folds(shown)
    if seat is not None or kind:
        for part in parts:
            part.open = True
    context = {
        **_context(model_admin, request, game, f"Audit: {game}"),
        "seats": seats.values(),
        "pending": pending,
        "deadlines": deadlines_of(game, seats),
        "folds": parts,
        "shown": len(shown),
        "total": len(rows),
        "filter_seat": "" if seat is None else seat,
        "filter_kind": kind,
        "kinds": [(k.value, k.label) for k in Event.Kind if any(r.event.kind == k for r in rows)],
        "actions": actions,
        "hidden": hidden_state(game, seats),
        "hidden_template": hidden_template(game.rules),
        "version_mismatch": _version_mismatch(game),
        "press": table_talk.shown(table_talk.all_of(game), {p: s.colour for p, s in seats.items()}),
    }
    return TemplateResponse(request, "admin/games/game/audit.html", context)


def _log_filter(request: HttpRequest, seats: dict[int, Seat]) -> tuple[int | None, str]:
    """``?seat=<position>&kind=<event kind>`` of the audit page; anything else is no filter."""
    seat_text, kind = request.GET.get("seat", ""), request.GET.get("kind", "")
    seat = int(seat_text) if seat_text.isdecimal() and int(seat_text) in seats else None
    return seat, kind if kind in Event.Kind.values else ""


@dataclass
class Due:
    seat: str
    kind: str
    deadline: datetime | None


def deadlines_of(game: Game, seats: dict[int, Seat]) -> list[Due]:
    """What each seat owes now and by when (a game's deadlines are its seats' decisions')."""
    owed = game.decisions.owed().order_by("deadline_at", "seat")
    return [Due(seat_label(seats, d.seat), d.kind, d.deadline_at) for d in owed]


def _version_mismatch(game: Game) -> str:
    """Why moves are refused: the game was created under other rules than the code runs."""
    mismatch = services.version_mismatch(game)
    return "" if mismatch is None else mismatch.render()


def state_view(
    model_admin: admin.ModelAdmin[Game], request: HttpRequest, game_id: int, seq: int
) -> HttpResponse:
    _moderator(request)
    game = _game(request, game_id)
    event = game.events.filter(seq=seq).select_related("actor").first()
    if event is None:
        raise Http404(f"There is no event #{seq} in this game.")
    try:
        state = services.state_at(game, seq)
    except services.GameError as error:
        messages.error(request, str(error))
        return HttpResponseRedirect(audit_url(game.pk))
    seats = {s.position: s for s in game.seats.select_related("player")}
    rules = services.rules_of(game)
    public = rules.view(state, None)
    deciding = {d.seat for d in rules.pending(state)}
    views = []  # what each seat sees besides the public view: its hand, sealed choice, drawn tile
    for position in range(services.seats_of(game)):
        private = {k: v for k, v in rules.view(state, position).items() if public.get(k) != v}
        menu = rules.describe(state, position) if position in deciding else []
        views.append((seat_label(seats, position), _pretty(private), menu))
    context = {
        **_context(model_admin, request, game, f"{game}: state after event #{seq}"),
        "event": event,
        "in_effect": seq in {e.seq for e in services.effective(game.events.order_by("seq"))},
        "phase": public.get("phase", ""),
        "year": public.get("year", ""),
        "pending": pending_text(seats, state, rules=game.rules),
        "views": views,
        "public": _pretty(public),
        "raw": _pretty(rules.state_to_dict(state)),
        "previous": seq - 1 if seq > 1 else None,
        "next": seq + 1 if seq < game.head_seq else None,
    }
    return TemplateResponse(request, "admin/games/game/state.html", context)


def _pretty(data: Any) -> str:
    return json.dumps(data, indent=2, sort_keys=True, ensure_ascii=False)


def rollback_view(
    model_admin: admin.ModelAdmin[Game], request: HttpRequest, game_id: int, seq: int
) -> HttpResponse:
    """ "Roll back to here": a page that shows what the rollback would undo (every event in
    effect after #``seq``, narrated, hidden lines included) and asks for the reason; only its
    POST rolls back, as the audit page's own rollback form does."""
    user = _moderator(request)
    game = _game(request, game_id)
    seats = {s.position: s for s in game.seats.select_related("player")}
    rows = audit_rows(game, list(game.events.select_related("actor").order_by("seq")), seats)
    target = next((r for r in rows if r.event.seq == seq), None)
    if target is None:
        raise Http404(f"There is no event #{seq} in this game.")
    form = RollbackForm(request.POST or None, initial={"to_seq": seq}, auto_id="id_rollback_%s")
    if request.method == "POST" and form.is_valid():
        if form.cleaned_data["to_seq"] != seq:
            raise Http404("The form names another event than the page.")
        return _perform(request, game, ACTIONS["rollback"], form.cleaned_data, user)
    undone = [r for r in rows if r.in_effect and r.event.seq > seq]
    context = {
        **_context(model_admin, request, game, f"{game}: roll back to event #{seq}?"),
        "target": target,
        "undone": undone,
        "form": form,
        "refusal": "" if target.can_roll_back else _rollback_refusal(game, target),
        "action_url": reverse("admin:games_game_rollback", args=[game.pk, seq]),
    }
    return TemplateResponse(request, "admin/games/game/rollback.html", context)


def _rollback_refusal(game: Game, row: Row) -> str:
    if game.status not in ACTIONS["rollback"].statuses:
        return "A game that has not started cannot be rolled back."
    if not row.in_effect:
        return f"#{row.event.seq} was undone by a rollback already: choose an event in effect."
    if row.event.seq == game.head_seq:
        return f"#{row.event.seq} is the latest event: there is nothing after it to undo."
    return "The game can only be rolled back to an event from its start on."


@require_POST
def action_view(request: HttpRequest, game_id: int, action: str) -> HttpResponse:
    user = _moderator(request)
    if action not in ACTIONS:
        raise Http404(f"No moderator action {action!r}.")
    game = _game(request, game_id)
    act = ACTIONS[action]
    form = _form(act, game, request.POST)
    if not form.is_valid():
        for name, errors in form.errors.items():
            label = str(form[name].label) if name in form.fields else ""
            for error in errors:
                messages.error(request, f"{act.label}: {label + ': ' if label else ''}{error}")
        return HttpResponseRedirect(audit_url(game.pk))
    return _perform(request, game, act, form.cleaned_data, user)


def _perform(request: HttpRequest, game: Game, act: Action, data: dict[str, Any], user: User) -> HttpResponse:
    """Do a moderator's act with its form's data; say what came of it on the audit page."""
    try:
        result = act.perform(game, data, user, data["reason"])
    except services.GameError as error:
        messages.error(request, f"{act.label}: {error}")
    else:
        seqs = ", ".join(f"#{e.seq}" for e in result.events)
        messages.success(request, f"{act.label}: done, recorded as event {seqs}.")
    return HttpResponseRedirect(audit_url(game.pk))
