"""The moderators' pages of the admin: a game's audit log, its state at any event, and the
moderator actions (rollback, pause, resume, extend a deadline, replace a seat's player, hand
a seat to the bot or give it back).

Who may: ``games.services.permissions`` says (a superuser, a site moderator, or a league moderator for
their leagues' games only; never for a game they play in); the admin site itself also wants
``is_staff`` to let anyone in.  A game outside the user's scope is not found (404).  Every
action goes through ``games.services`` with ``by=request.user`` and a reason, so it is an
event in the log.
Nothing here writes to a model directly.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.contrib import admin, messages
from django.contrib.auth.models import User
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404
from django.template.response import TemplateResponse
from django.urls import reverse
from django.utils.translation import gettext as _

from games import services
from games.admin.actions import ACTIONS, Action, RollbackForm, _form
from games.admin.audit import (
    KEPT_BY_ROLLBACK,
    Row,
    _pretty,
    audit_rows,
    colour,
    filtered,
    folds,
    hidden_state,
    hidden_template,
    pending_text,
    seat_label,
    whose_move,
)
from games.admin.confirm import confirmed, token, what_happens
from games.models import Event, Game, Seat
from games.services import permissions
from games.services import press as table_talk
from games.services.permissions import is_moderator


def _moderator(request: HttpRequest) -> User:
    user = request.user
    if not isinstance(user, User) or not is_moderator(user):
        raise PermissionDenied
    return user


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
    for held in seats.values():
        held.colour_word = colour(held.colour)  # type: ignore[attr-defined]
    events = list(game.events.select_related("actor").order_by("seq"))
    try:
        pending = whose_move(game)
    except services.GameError as error:
        pending = _("(cannot compute: %(error)s)") % {"error": error}
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
        **_context(model_admin, request, game, _("Audit: %(game)s") % {"game": game}),
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
    owed = list(game.decisions.owed().order_by("deadline_at", "seat"))
    rules = services.rules_of(game)
    try:
        view = rules.view(services.head_state(game), None) if owed else {}
    except services.GameError:
        view = {}

    def said(kind: str) -> str:
        return rules.presentation.decision_text(view, kind, _) if view else kind

    return [Due(seat_label(seats, d.seat), said(d.kind), d.deadline_at) for d in owed]


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
        raise Http404
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
        menu = rules.notation.describe(state, position) if position in deciding else []
        views.append((seat_label(seats, position), _pretty(private), menu))
    context = {
        **_context(
            model_admin, request, game, _("%(game)s: state after event #%(seq)d") % {"game": game, "seq": seq}
        ),
        "event": event,
        "in_effect": seq in {e.seq for e in services.effective(game.events.order_by("seq"))},
        "phase": public.get("phase", ""),
        "year": public.get("year", ""),
        "pending": pending_text(seats, state, rules=game.rules),
        "views": views,
        "public": _pretty(public),
        "raw": _pretty(rules.serial.state_to_dict(state)),
        "previous": seq - 1 if seq > 1 else None,
        "next": seq + 1 if seq < game.head_seq else None,
    }
    return TemplateResponse(request, "admin/games/game/state.html", context)


def rollback_view(
    model_admin: admin.ModelAdmin[Game], request: HttpRequest, game_id: int, seq: int
) -> HttpResponse:
    """ "Roll back to here": a page that shows what the rollback would undo (every move in
    effect after #``seq``, narrated, hidden lines included), what it leaves standing (a seat
    handed on, a bot, a pause: ``KEPT_BY_ROLLBACK``) and asks for the reason; only its POST
    rolls back."""
    user = _moderator(request)
    game = _game(request, game_id)
    seats = {s.position: s for s in game.seats.select_related("player")}
    rows = audit_rows(game, list(game.events.select_related("actor").order_by("seq")), seats)
    target = next((r for r in rows if r.event.seq == seq), None)
    if target is None:
        raise Http404
    act = ACTIONS["rollback"]
    form = RollbackForm(request.POST or None, initial={"to_seq": seq}, auto_id="id_rollback_%s")
    again = False
    if request.method == "POST" and form.is_valid():
        if form.cleaned_data["to_seq"] != seq:
            raise Http404
        if confirmed(request.POST.get("token", ""), game, act):
            return _perform(request, game, act, form.cleaned_data, user)
        # the audit page's form sends no token: this is the first look; a token that no longer
        # holds (the game moved on) asks for another
        again = "token" in request.POST
    after = [r for r in rows if r.event.seq > seq]
    undone = [r for r in after if r.in_effect and r.event.kind not in KEPT_BY_ROLLBACK]
    # what stands after it, an act an earlier rollback went past included: it stood then too
    kept = [r for r in after if r.event.kind in KEPT_BY_ROLLBACK]
    context = {
        **_context(
            model_admin,
            request,
            game,
            _("%(game)s: roll back to event #%(seq)d?") % {"game": game, "seq": seq},
        ),
        "target": target,
        "undone": undone,
        "kept": kept,
        "form": form,
        "refusal": "" if target.can_roll_back else _rollback_refusal(game, target),
        "token": token(game, act),
        "again": again,
        "action_url": reverse("admin:games_game_rollback", args=[game.pk, seq]),
    }
    return TemplateResponse(request, "admin/games/game/rollback.html", context)


def _rollback_refusal(game: Game, row: Row) -> str:
    if game.status not in ACTIONS["rollback"].statuses:
        return _("A game that has not started cannot be rolled back.")
    if not row.in_effect:
        return _("#%(seq)d was undone by a rollback already: choose an event in effect.") % {
            "seq": row.event.seq
        }
    if row.event.seq == game.head_seq:
        return _("#%(seq)d is the latest event: there is nothing after it to undo.") % {"seq": row.event.seq}
    return _("The game can only be rolled back to an event from its start on.")


def action_view(
    model_admin: admin.ModelAdmin[Game], request: HttpRequest, game_id: int, action: str
) -> HttpResponse:
    """A moderator act: the audit page's form (a POST without a token) shows what it will do and
    asks; only a POST with that page's token does it (``games.admin.confirm``).  Both are POSTs,
    so the moderator's reason never stands in an address (and an access log).  The rollback's
    confirmation is the "roll back to here" page, which also lists what stays."""
    user = _moderator(request)
    if action not in ACTIONS:
        raise Http404
    game = _game(request, game_id)
    act = ACTIONS[action]
    if request.method != "POST":
        return HttpResponseRedirect(audit_url(game.pk))
    data = request.POST
    form = _form(act, game, data)
    if not form.is_valid():
        for name, errors in form.errors.items():
            label = str(form[name].label) if name in form.fields else ""
            for error in errors:
                messages.error(request, f"{act.label}: {label + ': ' if label else ''}{error}")
        return HttpResponseRedirect(audit_url(game.pk))
    if act.name == "rollback":
        return rollback_view(model_admin, request, game_id, form.cleaned_data["to_seq"])
    if confirmed(request.POST.get("token", ""), game, act):
        return _perform(request, game, act, form.cleaned_data, user)
    again = "token" in request.POST  # a token from before the game moved on
    fields = [(k, v) for k in form.fields for v in data.getlist(k)]
    context = {
        **_context(model_admin, request, game, _("%(act)s: %(game)s?") % {"act": act.label, "game": game}),
        "act": act,
        "happens": what_happens(act, game, form.cleaned_data, form),
        "reason": form.cleaned_data["reason"],
        "fields": fields,
        "token": token(game, act),
        "again": again,
        "next_seq": game.head_seq + 1,
        "action_url": reverse("admin:games_game_action", args=[game.pk, act.name]),
    }
    return TemplateResponse(request, "admin/games/game/confirm.html", context)


def _perform(request: HttpRequest, game: Game, act: Action, data: dict[str, Any], user: User) -> HttpResponse:
    """Do a moderator's act with its form's data; say what came of it on the audit page."""
    try:
        result = act.perform(game, data, user, data["reason"])
    except services.GameError as error:
        messages.error(request, f"{act.label}: {error}")
    else:
        seqs = ", ".join(f"#{e.seq}" for e in result.events)
        messages.success(
            request, _("%(act)s: done, recorded as event %(seqs)s.") % {"act": act.label, "seqs": seqs}
        )
    return HttpResponseRedirect(audit_url(game.pk))
