"""Leagues in the admin.

* Leagues: the site admin (superuser) creates them and names their moderators; a league
  moderator sees their own leagues only.  A user who plays in a league (a member of one of
  its seasons, or a seat in one of its games) cannot be made its moderator.
* Seasons: a league's moderators add seasons and members (a moderator of the league cannot
  be a member) and seat the next round (an admin action).
* Each league's audit page (``<league>/audit/``): its running games, for its moderators.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from django import forms
from django.contrib import admin, messages
from django.contrib.auth.models import User
from django.db.models import Count, Q, QuerySet
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404
from django.template.response import TemplateResponse
from django.urls import URLPattern, path, reverse
from django.utils import timezone
from django.utils.html import format_html
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from games import services
from games.admin.scope import NotFoundOutsideScope
from games.models import Game, Seat
from games.presentation import words
from games.rules import registry
from games.services import permissions
from games.services.timing import TimeControls
from leagues.admin.audit import can_audit, league_audit
from leagues.models import READY_HOURS, League, LeagueGame, Membership, Season
from leagues.seating import moderator_refusal, seat_round

BOARD_NAME = re.compile(r"[a-z0-9_-]+")  # a built-in board (games/rules/whitelotus/boards/<name>.json)

if TYPE_CHECKING:  # ModelAdmin is generic in the stubs only
    _ModelAdmin = admin.ModelAdmin[Any]
    _StackedInline = admin.StackedInline[Any, Any]
    _LeagueForm = forms.ModelForm[League]
    _MembershipForm = forms.ModelForm[Membership]
    _SeasonForm = forms.ModelForm[Season]
else:
    _ModelAdmin = admin.ModelAdmin
    _StackedInline = admin.StackedInline
    _LeagueForm = _MembershipForm = _SeasonForm = forms.ModelForm


def _leagues_of(request: HttpRequest) -> QuerySet[League]:
    if permissions.is_site_moderator(request.user):
        return League.objects.all()
    if not isinstance(request.user, User):
        return League.objects.none()
    return League.objects.filter(moderators=request.user)


def plays_in(user: User, league: League) -> bool:
    """Does this user (through their player) play in the league: a member or a seat?"""
    player = getattr(user, "player", None)
    if player is None:
        return False
    games = Game.objects.filter(league_game__season__league=league)
    return (
        Membership.objects.filter(season__league=league, player=player).exists()
        or Seat.objects.filter(game__in=games, player=player).exists()
    )


class LeagueForm(_LeagueForm):
    class Meta:
        model = League
        fields = ("name", "slug", "description", "moderators")

    def clean_moderators(self) -> Any:
        users = self.cleaned_data["moderators"]
        if self.instance.pk is not None:
            playing = [u.get_username() for u in users if plays_in(u, self.instance)]
            if playing:
                raise forms.ValidationError(
                    gettext("%(users)s play(s) in this league and cannot moderate it.")
                    % {"users": ", ".join(playing)}
                )
        return users


@admin.register(League)
class LeagueAdmin(NotFoundOutsideScope, _ModelAdmin):
    form = LeagueForm
    list_display = ("name", "slug", "moderator_list", "links")
    filter_horizontal = ("moderators",)
    prepopulated_fields = {"slug": ("name",)}  # noqa: RUF012  (Django's own attribute)

    def get_queryset(self, request: HttpRequest) -> QuerySet[League]:
        return _leagues_of(request).prefetch_related("moderators")

    def has_module_permission(self, request: HttpRequest) -> bool:
        return permissions.is_moderator(request.user)

    def has_view_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return permissions.is_moderator(request.user)

    def has_add_permission(self, request: HttpRequest) -> bool:
        return bool(request.user.is_superuser)

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return bool(request.user.is_superuser)  # naming moderators is the site admin's act

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    @admin.display(description=_("moderators"))
    def moderator_list(self, league: League) -> str:
        return ", ".join(u.get_username() for u in league.moderators.all()) or "—"

    @admin.display(description=_("pages"))
    def links(self, league: League) -> str:
        audit = reverse("admin:leagues_league_audit", args=[league.pk])
        public = reverse("leagues:league", args=[league.slug])
        return format_html(
            '<a href="{}">{}</a> · <a href="{}">{}</a>', audit, gettext("audit"), public, gettext("standings")
        )

    def get_urls(self) -> list[URLPattern]:
        def audit(request: HttpRequest, league_id: int) -> HttpResponse:
            return self.audit_view(request, league_id)

        view = self.admin_site.admin_view(audit)
        return [path("<int:league_id>/audit/", view, name="leagues_league_audit"), *super().get_urls()]

    def audit_view(self, request: HttpRequest, league_id: int) -> HttpResponse:
        league = get_object_or_404(League, pk=league_id)
        if not can_audit(request.user, league):
            raise Http404  # another league's: as hidden as one that is not there
        context = {
            **self.admin_site.each_context(request),
            "opts": League._meta,
            "title": gettext("Audit: %(league)s") % {"league": league},
            "league": league,
            "lines": league_audit(league, request.user),
            "now": timezone.now(),
        }
        return TemplateResponse(request, "admin/leagues/audit.html", context)


class MembershipForm(_MembershipForm):
    class Meta:
        model = Membership
        fields = ("player", "via")

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        try:  # an inline's rows are bound to their season (unsaved while the season is new)
            season: Season | None = self.instance.season
        except Season.DoesNotExist:
            season = None
        player = data.get("player")
        if season is not None and season.league_id is not None and player is not None:
            refusal = moderator_refusal(season, player)
            if refusal:
                raise forms.ValidationError(refusal)
        return data


class MembershipInline(_StackedInline):
    """Stacked (each field with its label) and the player by id with a lookup: the tabular
    inline's unlabelled cells and the autocomplete widget have no accessible names."""

    model = Membership
    form = MembershipForm
    extra = 1
    raw_id_fields = ("player",)


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
        initial=registry.DEFAULT,
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
        rules = data.get("rules") or registry.DEFAULT
        game = registry.get(rules)
        others = [registry.get(n) for n in registry.names() if n != rules]
        others = [o for o in others if hasattr(o, "about")]
        edition = data.get("edition")
        if not edition or (
            edition not in game.about.editions and any(edition == o.about.editions[0] for o in others)
        ):  # left at another game's default (the model's is White Lotus's): the game's own
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
        ):  # left at another game's board (the model's is White Lotus's): the game's own
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
                gettext("Name a built-in board (e.g. china); only the site admin names files.")
            )
        return name


@admin.register(Season)
class SeasonAdmin(NotFoundOutsideScope, _ModelAdmin):
    form = SeasonForm
    list_display = ("name", "league", "signup_open", "rules", "edition", "press", "members_count", "rounds")
    list_filter = ("league", "signup_open")
    inlines = (MembershipInline,)
    actions = ("seat_next_round",)

    def get_queryset(self, request: HttpRequest) -> QuerySet[Season]:
        seasons = Season.objects.filter(league__in=_leagues_of(request)).select_related("league")
        return seasons.annotate(  # the list's columns, without two queries per row
            member_count=Count("memberships", distinct=True),
            round_count=Count("league_games__round", distinct=True),
        )

    def get_fieldsets(self, request: HttpRequest, obj: Any = None) -> Any:
        games: dict[str, list[str]] = {}
        for name in option_fields():
            games.setdefault(name.split("__")[1], []).append(name)
        return [
            (None, {"fields": ("league", "name", "signup_open")}),
            (gettext("Game"), {"fields": ("rules", "edition", "board", "press")}),
            *(
                (
                    gettext("Options of %(game)s")
                    % {"game": gettext(getattr(registry.get(rules), "title", rules))},
                    {
                        "fields": names,
                        "description": gettext(
                            "Only the options of the season's game count; empty: its default."
                        ),
                    },
                )
                for rules, names in games.items()
            ),
            (gettext("Clock"), {"fields": tuple(clock_fields())}),
            (gettext("Start and absence"), {"fields": ("ready_hours", "bot_after_defaults")}),
        ]

    def get_form(self, request: HttpRequest, obj: Any = None, change: bool = False, **kwargs: Any) -> Any:
        # the option and clock fields declared on the class, so the admin's form factory takes
        # them (it refuses fields that are neither the model's nor declared)
        extra: dict[str, Any] = {**option_fields(), **clock_fields()}
        if request.user.is_superuser:
            extra["files_allowed"] = True
        kwargs["form"] = type(SeasonForm.__name__, (SeasonForm,), extra)
        return super().get_form(request, obj, change, **kwargs)

    def formfield_for_foreignkey(self, db_field: Any, request: HttpRequest, **kwargs: Any) -> Any:
        if db_field.name == "league":
            kwargs["queryset"] = _leagues_of(request)
        return super().formfield_for_foreignkey(db_field, request, **kwargs)

    def _mine(self, request: HttpRequest) -> bool:
        return permissions.is_moderator(request.user) and _leagues_of(request).exists()

    def has_module_permission(self, request: HttpRequest) -> bool:
        return self._mine(request)

    def has_view_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return self._mine(request) and (obj is None or _leagues_of(request).filter(pk=obj.league_id).exists())

    def has_add_permission(self, request: HttpRequest) -> bool:
        return self._mine(request)

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return self.has_view_permission(request, obj)

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    @admin.display(description=_("members"))
    def members_count(self, season: Season) -> int:
        return int(season.member_count)  # type: ignore[attr-defined]

    @admin.display(description=_("rounds"))
    def rounds(self, season: Season) -> int:
        return int(season.round_count)  # type: ignore[attr-defined]

    @admin.action(description=_("Seat the members into the games of the next round and start them"))
    def seat_next_round(self, request: HttpRequest, seasons: QuerySet[Season]) -> None:
        user = request.user if isinstance(request.user, User) else None
        for season in seasons:
            try:
                games = seat_round(season, by=user)
            except services.GameError as error:
                self.message_user(request, f"{season}: {error}", messages.ERROR)
            else:
                sizes = " + ".join(str(g.seats.count()) for g in games)
                said = gettext("%(season)s: seated %(count)d games (%(sizes)s).")
                self.message_user(
                    request, said % {"season": season, "count": len(games), "sizes": sizes}, messages.SUCCESS
                )


@admin.register(LeagueGame)
class LeagueGameAdmin(NotFoundOutsideScope, _ModelAdmin):
    list_display = ("game", "season", "round")
    list_filter = ("season__league", "season")
    list_select_related = ("game", "season")

    def get_queryset(self, request: HttpRequest) -> QuerySet[LeagueGame]:
        games = permissions.moderated_games(request.user).values("pk")
        return LeagueGame.objects.filter(Q(game__in=games), season__league__in=_leagues_of(request))

    def has_module_permission(self, request: HttpRequest) -> bool:
        return permissions.is_moderator(request.user)

    def has_view_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return permissions.is_moderator(request.user)

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False
