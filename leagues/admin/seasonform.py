"""The season form of the admin: a season's game (any registered game), its board, edition and
options, and its clock, each field built from what the chosen game says of itself, and checked
against the game's own config before the season is saved.  Apart from ``leagues.admin`` because
it is most of the admin's code: the admin classes read as a list, the form as one piece."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from django import forms
from django.conf import settings
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from games import services
from games.presentation import words
from games.rules import registry
from games.services.timing import TimeControls
from leagues.models import READY_HOURS, Season

BOARD_NAME = re.compile(r"[a-z0-9_-]+")  # a built-in board (a game's boards/<name>.json)

if TYPE_CHECKING:  # ModelForm is generic in the stubs only
    _SeasonForm = forms.ModelForm[Season]
else:
    _SeasonForm = forms.ModelForm


def _game_choices() -> list[tuple[str, str]]:
    return [(name, getattr(registry.get(name), "title", name)) for name in registry.names()]


# --- a season's options and clock as form fields (not JSON boxes) -------------------------------
#
# Each game's options (``rules.about.OPTIONS``) are fields named ``option__<game>__<name>``; only the
# chosen game's are read.  Left empty, an option is the game's default and is not stored, as
# before (``Season.options`` keeps only what the season chose).  The clock's fields are
# ``clock__<name>`` over ``TimeControls``; left empty, the game's own clock (its
# ``time_controls``, over the service's) holds.

SWITCH = [("", _("the game's default")), ("yes", _("yes")), ("no", _("no"))]


def _word(value: Any) -> str:
    return ("yes" if value else "no") if isinstance(value, bool) else str(value)


def _said(game: Any, value: Any) -> str:
    """An option's default as the form shows it, in the moderator's language."""
    if isinstance(value, bool):
        return gettext("yes") if value else gettext("no")
    return words.game_word(game, "value", value)


def option_fields() -> dict[str, forms.Field]:
    out: dict[str, forms.Field] = {}
    for name in registry.names():
        game = registry.get(name)
        for key, default in game.about.OPTIONS.items():
            label = gettext("%(game)s: %(option)s") % {
                "game": gettext(getattr(game, "title", name)),
                "option": words.game_word(game, "option", key),
            }
            help_text = gettext("Empty: the game's default (%(default)s).") % {
                "default": _said(game, default)
            }
            field: forms.Field
            if isinstance(default, bool):
                field = forms.ChoiceField(choices=SWITCH, required=False, label=label, help_text=help_text)
            elif isinstance(default, int):
                field = forms.IntegerField(required=False, label=label, help_text=help_text)
            else:
                field = forms.CharField(required=False, label=label, help_text=help_text)
            out[f"option__{name}__{key}"] = field
    return out


def each_games(clock_field: str) -> str:
    """Every game's own value of a clock field, by its title ("White Lotus 48, …"): where a
    game has none, the service's."""
    defaults = TimeControls().to_dict()
    said = []
    for name in registry.names():
        game = registry.get(name)
        value = {**defaults, **game.about.time_controls}[clock_field]
        hours = value if isinstance(value, list | tuple) else [value]
        said.append(f"{gettext(game.title)} {', '.join(f'{h:g}' for h in hours)}")
    return "; ".join(said)


def clock_fields() -> dict[str, forms.Field]:
    defaults = TimeControls()
    return {
        "clock__hours_per_decision": forms.FloatField(
            required=False,
            min_value=0,
            label=_("Hours per decision"),
            help_text=gettext("Empty: the game's own (%(each)s). 0: no deadlines.")
            % {"each": each_games("hours_per_decision")},
        ),
        "clock__reminder_hours": forms.CharField(
            required=False,
            label=_("Reminders, hours before the deadline"),
            help_text=gettext("e.g. 24, 4. Empty: the game's own (%(each)s).")
            % {"each": each_games("reminder_hours")},
        ),
        "clock__grace_hours": forms.FloatField(
            required=False,
            min_value=0,
            label=_("Grace hours"),
            help_text=_("After the deadline, before the default."),
        ),
        "clock__quiet_nights": forms.ChoiceField(
            choices=SWITCH,
            required=False,
            label=_("Quiet nights"),
            help_text=_("No deadline 22:00–08:00 (player's zone)."),
        ),
        "clock__quiet_weekends": forms.ChoiceField(
            choices=SWITCH,
            required=False,
            label=_("Quiet weekends"),
            help_text=_("No deadline on Saturday or Sunday."),
        ),
        "clock__warn_after_defaults": forms.IntegerField(
            required=False,
            min_value=1,
            label=_("Warn after defaults in a row"),
            help_text=gettext("Empty: %(value)s.") % {"value": defaults.warn_after_defaults},
        ),
        "clock__vacation_days": forms.IntegerField(
            required=False,
            min_value=0,
            label=_("Vacation days"),
            help_text=gettext("Empty: %(value)s.") % {"value": defaults.vacation_days},
        ),
    }


def _config_refusal(game: Any, rules: str, board: str, edition: Any, options: dict[str, Any]) -> str:
    """Why no game of any size could be set up with these options ("" if one can), as seating
    a round would find out (``leagues.seating.season_counts``)."""
    if not board or edition not in game.about.editions:
        return ""  # said beside those fields already
    try:
        loaded = services.board(board, rules)
    except (OSError, ValueError):
        return ""
    first = ""
    for n in game.player_counts:
        try:
            game.serial.make_config(loaded, n, edition, options, 0)
        except (TypeError, ValueError) as error:
            first = first or str(error)
        else:
            return ""
    return first


def _initial_options(season: Season) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in (season.options or {}).items():
        out[f"option__{season.rules}__{key}"] = _word(value) if isinstance(value, bool) else value
    return out


def _initial_clock(controls: dict[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in controls.items():
        name = f"clock__{key}"
        if key == "hours_per_decision":
            out[name] = 0 if value is None else value
        elif key == "reminder_hours":
            out[name] = ", ".join(f"{float(h):g}" for h in value)
        elif isinstance(value, bool):
            out[name] = _word(value)
        else:
            out[name] = value
    return out


class SeasonForm(_SeasonForm):
    # a board may be a file on the server (the game's ``load_board``): only the site admin names one
    files_allowed = False  # set by SeasonAdmin.get_form
    rules = forms.ChoiceField(
        label=_("Game"),
        choices=_game_choices,
        initial=settings.DEFAULT_GAME,
        help_text=_("The game its games are games of."),
    )

    class Meta:
        model = Season
        fields = (
            "league",
            "name",
            "signup_open",
            "rules",
            "edition",
            "board",
            "press",
            "ready_hours",
            "bot_after_defaults",
        )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # the games' options and the clock, as fields (the admin declares them too: see
        # SeasonAdmin.get_form); filled from what the season stored
        for name, field in {**option_fields(), **clock_fields()}.items():
            self.fields.setdefault(name, field)
        if self.instance.pk is not None:
            for name, value in {
                **_initial_options(self.instance),
                **_initial_clock(dict(self.instance.time_controls or {})),
            }.items():
                self.initial.setdefault(name, value)
        # left empty, they are the chosen game's (clean fills them)
        for name, default in (("edition", gettext("its first edition")), ("board", gettext("its board"))):
            if name in self.fields:
                self.fields[name].required = False
                self.fields[name].help_text = gettext(
                    "Empty or another game's default: the game's own (%(default)s)."
                ) % {"default": default}
        if "ready_hours" in self.fields:  # left empty: a new season's window
            self.fields["ready_hours"].required = False
        if "press" in self.fields:
            self.fields["press"].help_text = gettext(
                "Table talk in its games. Empty: the game's default (full with a variant of the "
                "game's that is about dealing, else public)."
            )
        if "bot_after_defaults" in self.fields:  # left empty: the model's default
            self.fields["bot_after_defaults"].required = False

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if "bot_after_defaults" in self.fields and data.get("bot_after_defaults") is None:
            data["bot_after_defaults"] = Season._meta.get_field("bot_after_defaults").get_default()
        if "ready_hours" in self.fields:
            hours = data.get("ready_hours")
            if hours is None:
                data["ready_hours"] = READY_HOURS
            elif not 0 <= hours <= services.MAX_READY_HOURS:
                self.add_error(
                    "ready_hours",
                    gettext(
                        "The ready window is %(hours)s hours; it can be 0 (games start at once) up to "
                        "%(most)s hours (two weeks)."
                    )
                    % {"hours": f"{hours:g}", "most": services.MAX_READY_HOURS},
                )
        rules = data.get("rules") or settings.DEFAULT_GAME
        game = registry.get(rules)
        others = [registry.get(n) for n in registry.names() if n != rules]
        others = [o for o in others if hasattr(o, "about")]
        edition = data.get("edition")
        if not edition or (
            edition not in game.about.editions and any(edition == o.about.editions[0] for o in others)
        ):  # left empty, or at another game's first edition: the game's own
            edition = data["edition"] = game.about.editions[0]
        if edition not in game.about.editions:
            owner = next((o.title for o in others if edition in o.about.editions), None)
            said = gettext("%(game)s has no edition '%(edition)s' (its editions: %(editions)s).")
            if owner:
                said = gettext(
                    "%(game)s has no edition '%(edition)s': it is an edition of %(owner)s (its editions: "
                    "%(editions)s)."
                )
            self.add_error(
                "edition",
                said
                % {
                    "game": gettext(game.title),
                    "edition": edition,
                    "owner": owner,
                    "editions": ", ".join(game.about.editions),
                },
            )
        self._clean_clock()
        board = data.get("board")
        if "board" not in self.errors and (
            not board
            or (board != game.about.default_board and any(board == o.about.default_board for o in others))
        ):  # left empty, or at another game's board: the game's own
            board = data["board"] = game.about.default_board
        if board and "board" not in self.errors:
            try:
                services.board(board, rules)
            except (OSError, ValueError) as error:
                self.add_error("board", gettext("No such board: %(error)s") % {"error": error})
        self._clean_options(rules, game, board if board and "board" not in self.errors else "")
        return data

    def _clean_options(self, rules: str, game: Any, board: str) -> None:
        """The chosen game's option fields, as ``Season.options`` keeps them (only those set;
        a switch read from yes/no), each checked as the game checks a new game's options, and
        together by the game's own config (a value it does not know; a mix no table fits)."""
        options: dict[str, Any] = {}
        for key in game.about.OPTIONS:
            name = f"option__{rules}__{key}"
            value = self.cleaned_data.get(name)
            if value in (None, ""):
                continue
            value = services.option_from_words(game, key, value)
            refusal = services.option_refusal(game, key, value)
            if refusal:
                self.add_error(name, refusal)
            else:
                options[key] = value
        if not any(k.startswith("option__") for k in self.errors):
            try:
                merged = services.game_options(game, options)
            except services.GameError as error:
                self.add_error(None, str(error))
            else:
                refusal = _config_refusal(game, rules, board, self.cleaned_data.get("edition"), merged)
                if refusal:
                    self.add_error(
                        None,
                        gettext("%(game)s cannot play these options: %(refusal)s")
                        % {"game": gettext(getattr(game, "title", rules)), "refusal": refusal},
                    )
        self.instance.options = options

    def _clean_clock(self) -> None:
        """The clock's fields, as ``Season.time_controls`` keeps them (only those set)."""
        controls: dict[str, Any] = {}
        for name, value in list(self.cleaned_data.items()):  # add_error takes an entry out
            if not name.startswith("clock__") or value in (None, ""):
                continue
            key = name.removeprefix("clock__")
            if key == "hours_per_decision":
                controls[key] = value or None  # 0: no deadlines
            elif key == "reminder_hours":
                try:
                    hours = [float(h) for h in str(value).replace(";", ",").split(",") if h.strip()]
                except ValueError:
                    self.add_error(name, gettext("Write hours separated by commas, e.g. 24, 4."))
                    continue
                if any(h <= 0 for h in hours):
                    self.add_error(
                        name, gettext("Each reminder is a number of hours before the deadline, above 0.")
                    )
                    continue
                controls[key] = sorted(hours, reverse=True)
            elif key in ("quiet_nights", "quiet_weekends"):
                controls[key] = value == "yes"
            else:
                controls[key] = value
        self.instance.time_controls = controls

    def clean_board(self) -> str:
        name: str = self.cleaned_data["board"]
        if name and not self.files_allowed and not BOARD_NAME.fullmatch(name):
            raise forms.ValidationError(
                gettext(
                    "Name one of the game's built-in boards (its own when left empty); only the site "
                    "admin names files."
                )
            )
        return name
