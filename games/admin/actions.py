"""The moderator actions (rollback, pause, resume, extend a deadline, replace a seat's player,
hand a seat to the bot or give it back, time controls): their forms and when each is offered."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django import forms
from django.contrib.auth.models import User
from django.utils import timezone, translation
from django.utils.functional import Promise
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from games import services
from games.models import Event, Game, Player
from games.services import bots, deadlines, permissions, timing
from games.services.timing import TimeControls

# --- the forms of the moderator actions ----------------------------------------------------------


class ReasonForm(forms.Form):
    reason = forms.CharField(
        max_length=2000,
        widget=forms.Textarea(attrs={"rows": 2, "cols": 50}),
        label=_("Reason"),
        help_text=_("Recorded in the log."),
    )


class RollbackForm(ReasonForm):
    to_seq = forms.IntegerField(min_value=1, label=_("Roll back to event #"))
    field_order = ("to_seq", "reason")


class ExtendDeadlineForm(ReasonForm):
    until = forms.DateTimeField(
        label=_("New deadline"),
        widget=forms.DateTimeInput(attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M"),
    )
    field_order = ("until", "reason")

    def __init__(self, *args: Any, game: Game, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.current = list(game.decisions.owed().values_list("deadline_at", flat=True))
        latest = max((d for d in self.current if d is not None), default=None)
        zone = gettext("In %(zone)s.") % {"zone": timezone.get_current_timezone_name()}
        if latest:
            now = gettext("Now: %(time)s; only a later time.") % {
                "time": f"{timezone.localtime(latest):%Y-%m-%d %H:%M}"
            }
            zone = f"{zone} {now}"
        self.fields["until"].help_text = zone

    def clean_until(self) -> datetime:
        """Only a later deadline is an extension: the service refuses any other, and so does
        the form, next to the field, before anything is sent."""
        until: datetime = self.cleaned_data["until"]
        if until <= timezone.now():
            raise forms.ValidationError(gettext("The new deadline must lie in the future."))
        refusal = services.shortening_refusal(until, self.current)
        if refusal:
            raise forms.ValidationError(refusal)
        return until


class ReplaceSeatForm(ReasonForm):
    """A seat handed to a player by address, in one form: a known address is that player; a
    new one is added (``services.replace_seat_by_address``) with the name and language given."""

    position = forms.TypedChoiceField(coerce=int, label=_("Seat"))
    email = forms.EmailField(label=_("New player's address"))
    name = forms.CharField(
        max_length=100,
        required=False,
        label=_("New player's name"),
        help_text=_("Only for an address new to the service: the player is added with it."),
    )
    language = forms.ChoiceField(
        choices=Player.Language.choices,
        required=False,
        label=_("New player's language"),
        help_text=_("Only for an address new to the service."),
    )
    field_order = ("position", "email", "name", "language", "reason")

    def __init__(self, *args: Any, game: Game, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.game = game
        seats = game.seats.select_related("player")
        self.fields["position"].choices = [  # type: ignore[attr-defined]
            (s.position, f"{s.colour}: {s.player}") for s in seats
        ]
        current = translation.get_language() or ""
        if current in Player.Language.values:
            self.fields["language"].initial = current

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        email = data.get("email")
        if not email:
            return data
        player = Player.objects.filter(email__iexact=email).first()
        data["player"] = player
        if player is None:
            if not str(data.get("name") or "").strip():
                self.add_error(
                    "name", gettext("This address is new to the service: give the new player's name.")
                )
            return data
        refusal = permissions.seating_refusal(self.game, player)
        if refusal:
            self.add_error("email", refusal)
        return data


class BotSeatForm(ReasonForm):
    """A seat to hand to the service's bot (``games.services.bots.hand_to_bot``), or to give back from
    it to its player (``take_back``): only the seats that can be are offered."""

    position = forms.TypedChoiceField(coerce=int, label=_("Seat"))
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
        min_value=0.1,
        required=False,
        label=_("Hours per decision"),
        help_text=_("Empty: no deadlines. Sealed bids share one deadline."),
    )
    reminder_hours = forms.CharField(
        required=False,
        label=_("Reminders, hours before the deadline"),
        help_text=_("Hours before the deadline, e.g. 24, 4."),
    )
    grace_hours = forms.FloatField(min_value=0, initial=0, label=_("Grace hours"))
    quiet_nights = forms.BooleanField(
        required=False, label=_("Quiet nights"), help_text=_("No deadline 22:00–08:00 (player's zone).")
    )
    quiet_weekends = forms.BooleanField(
        required=False, label=_("Quiet weekends"), help_text=_("No deadline on Saturday or Sunday.")
    )
    warn_after_defaults = forms.IntegerField(min_value=1, initial=3, label=_("Warn after defaults in a row"))
    vacation_days = forms.IntegerField(min_value=0, initial=14, label=_("Vacation days"))
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
        if rules.about.short_windows:  # those decisions keep a deadline even without a clock
            windows = ", ".join(f"{kind} {hours:g} h" for kind, hours in rules.about.short_windows.items())
            self.fields["hours_per_decision"].help_text = gettext(
                "Empty: no deadlines, except for %(game)s's short windows, which always keep one "
                "(%(windows)s). Sealed decisions share one deadline."
            ) % {"game": rules.title, "windows": windows}

    def clean_reminder_hours(self) -> list[float]:
        text = self.cleaned_data["reminder_hours"]
        try:
            return [float(part) for part in text.replace(";", ",").split(",") if part.strip()]
        except ValueError:
            raise forms.ValidationError(gettext("Write hours separated by commas, e.g. 24, 4.")) from None


@dataclass(frozen=True)
class Action:
    name: str
    label: str | Promise
    form_class: Callable[..., ReasonForm]
    perform: Callable[[Game, dict[str, Any], User, str], services.Result]
    statuses: tuple[str, ...]


_LIVE = (Game.Status.RUNNING, Game.Status.PAUSED)
ACTIONS = {
    a.name: a
    for a in (
        Action(
            "rollback",
            _("Roll back"),
            RollbackForm,
            lambda g, d, u, r: services.rollback(g, d["to_seq"], by=u, reason=r),
            (*_LIVE, Game.Status.FINISHED),
        ),
        Action("pause", _("Pause"), ReasonForm, lambda g, d, u, r: services.pause(g, by=u, reason=r), _LIVE),
        Action(
            "resume", _("Resume"), ReasonForm, lambda g, d, u, r: services.resume(g, by=u, reason=r), _LIVE
        ),
        Action(
            "extend",
            _("Extend the deadline"),
            ExtendDeadlineForm,
            lambda g, d, u, r: services.extend_deadline(g, d["until"], by=u, reason=r),
            _LIVE,
        ),
        Action(
            "time",
            _("Change the time controls"),
            TimeControlsForm,
            lambda g, d, u, r: deadlines.set_time_controls(
                g, TimeControls.from_dict({k: v for k, v in d.items() if k != "reason"}), by=u, reason=r
            ),
            _LIVE,
        ),
        Action(
            "replace",
            _("Replace a seat's player"),
            ReplaceSeatForm,
            lambda g, d, u, r: services.replace_seat_by_address(
                g, d["position"], d["email"], name=d["name"], language=d["language"] or "en", by=u, reason=r
            ),
            (Game.Status.NEW, *_LIVE),
        ),
        Action(
            "bot",
            _("Hand a seat to the bot"),
            BotSeatForm,
            lambda g, d, u, r: bots.hand_to_bot(g, d["position"], by=u, reason=r),
            _LIVE,
        ),
        Action(
            "unbot",
            _("Give a seat back from the bot to its player"),
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
