"""Leagues in the admin.

* Leagues: the site admin (superuser) creates them and names their moderators; a league
  moderator sees their own leagues only.  A user who plays in a league (a member of one of
  its seasons, or a seat in one of its games) cannot be made its moderator.
* Seasons: a league's moderators add seasons and members (a moderator of the league cannot
  be a member) and seat the next round (an admin action).
* Each league's audit page (``<league>/audit/``): its running games, for its moderators.
"""

from __future__ import annotations

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
from games.rules import registry
from games.services import permissions
from leagues.admin.audit import can_audit, league_audit
from leagues.admin.seasonform import SeasonForm, clock_fields, option_fields
from leagues.models import League, LeagueGame, Membership, Season
from leagues.seating import moderator_refusal, seat_round

if TYPE_CHECKING:  # ModelAdmin is generic in the stubs only
    _ModelAdmin = admin.ModelAdmin[Any]
    _StackedInline = admin.StackedInline[Any, Any]
    _LeagueForm = forms.ModelForm[League]
    _MembershipForm = forms.ModelForm[Membership]
else:
    _ModelAdmin = admin.ModelAdmin
    _StackedInline = admin.StackedInline
    _LeagueForm = _MembershipForm = forms.ModelForm


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
