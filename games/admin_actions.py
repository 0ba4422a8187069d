"""The moderator actions (rollback, pause, resume, extend a deadline, replace a seat's player,
hand a seat to the bot or give it back, time controls): their forms and when each is offered."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django import forms
from django.contrib.auth.models import User
from django.utils import timezone

from games import bots, deadlines, permissions, services, timing
from games.models import Event, Game, Player
from games.timing import TimeControls

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
