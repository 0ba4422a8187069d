"""The moderators' admin (the pages and actions are in ``games.admin.views``).

Only moderators (``games.services.permissions``: superusers, site moderators, league moderators) see
anything of the games here, whatever model permissions a staff user may hold: every
``has_*_permission`` below asks ``is_moderator``, and games, events and snapshots are those of
the games the user moderates (a league moderator sees their leagues' games only).  Games are
created by command and changed only through ``games.services``, so the admin adds, edits and
deletes no game, event or snapshot; a game's page is its audit page, where the moderator
actions are.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from django import forms as django_forms
from django.contrib import admin
from django.contrib.auth.models import User
from django.db.models import Min, QuerySet
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.urls import URLPattern, path, reverse
from django.utils.html import format_html
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from games import services
from games.admin import entry as admin_entry
from games.admin.audit import whose_move
from games.admin.scope import NotFoundOutsideScope
from games.admin.views import (
    action_view,
    audit_url,
    audit_view,
    rollback_view,
    state_view,
)
from games.models import Event, Game, Player, Press, RecordDraft, Snapshot
from games.presentation import words
from games.rules import registry
from games.services import permissions
from games.services.permissions import is_moderator
from games.web import forms as player_forms

if TYPE_CHECKING:  # ModelAdmin is generic in the stubs only
    _ModelAdmin = admin.ModelAdmin[Any]
else:
    _ModelAdmin = admin.ModelAdmin


class ModeratorsOnly(NotFoundOutsideScope, _ModelAdmin):
    """Visible to moderators only; read-only unless a subclass allows more."""

    def has_module_permission(self, request: HttpRequest) -> bool:
        return is_moderator(request.user)

    def has_view_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return is_moderator(request.user)

    def has_add_permission(self, request: HttpRequest, *args: Any) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


class GameScoped(ModeratorsOnly):
    """Rows of a game (events, snapshots): only those of the games the user moderates."""

    def get_queryset(self, request: HttpRequest) -> QuerySet[Any]:
        rows: QuerySet[Any] = super().get_queryset(request)
        return rows.filter(game__in=permissions.moderated_games(request.user).values("pk"))


class GameFilter(admin.SimpleListFilter):
    """The game a game is a game of, by its name in the moderator's language (not its code)."""

    title = _("game")
    parameter_name = "rules"

    def lookups(self, request: HttpRequest, model_admin: Any) -> list[tuple[str, str]]:
        return [(name, words.game_name(registry.get(name))) for name in registry.names()]

    def queryset(self, request: HttpRequest, queryset: QuerySet[Any]) -> QuerySet[Any]:
        return queryset.filter(rules=self.value()) if self.value() else queryset


@admin.register(Game)
class GameAdmin(ModeratorsOnly):
    list_display = (
        "id",
        "title",
        "game_name",
        "edition",
        "status",
        "whose_move",
        "next_deadline",
        "head_seq",
        "press",
        "audit",
    )
    list_display_links = ("id", "title")
    list_filter = ("status", GameFilter, "edition", "press")
    search_fields = ("name", "seats__player__name", "seats__player__email")
    ordering = ("-id",)

    def get_queryset(self, request: HttpRequest) -> QuerySet[Game]:
        games: QuerySet[Game] = super().get_queryset(request)
        games = games.filter(pk__in=permissions.moderated_games(request.user).values("pk"))
        games = games.prefetch_related("seats__player")
        return games.annotate(next_deadline_at=Min("decisions__deadline_at"))

    @admin.display(description=_("next deadline"), ordering="next_deadline_at")
    def next_deadline(self, game: Game) -> Any:
        return getattr(game, "next_deadline_at", None) or "—"

    @admin.display(description=_("name"), ordering="name")
    def title(self, game: Game) -> str:
        return str(game)

    @admin.display(description=_("game"), ordering="rules")
    def game_name(self, game: Game) -> str:
        try:
            return words.game_name(game.engine)
        except registry.UnknownRules:
            return game.rules

    @admin.display(description=_("whose move"))
    def whose_move(self, game: Game) -> str:
        try:
            return whose_move(game) or "—"
        except services.GameError as error:
            return gettext("(cannot compute: %(error)s)") % {"error": error}

    @admin.display(description=_("audit"))
    def audit(self, game: Game) -> str:
        return format_html('<a href="{}">{}</a>', audit_url(game.pk), gettext("log & actions"))

    def change_view(
        self, request: HttpRequest, object_id: str, form_url: str = "", extra_context: Any = None
    ) -> HttpResponse:
        """A game's page is its audit page."""
        if not self.has_view_permission(request):
            return super().change_view(request, object_id, form_url, extra_context)  # refuses
        if not object_id.isdigit():
            return super().change_view(request, object_id, form_url, extra_context)  # not found
        return HttpResponseRedirect(audit_url(int(object_id)))

    def get_urls(self) -> list[URLPattern]:
        site = self.admin_site

        def audit(request: HttpRequest, game_id: int) -> HttpResponse:
            return audit_view(self, request, game_id)

        def state(request: HttpRequest, game_id: int, seq: int) -> HttpResponse:
            return state_view(self, request, game_id, seq)

        def rollback(request: HttpRequest, game_id: int, seq: int) -> HttpResponse:
            return rollback_view(self, request, game_id, seq)

        def act(request: HttpRequest, game_id: int, action: str) -> HttpResponse:
            return action_view(self, request, game_id, action)

        return [
            path("<int:game_id>/audit/", site.admin_view(audit), name="games_game_audit"),
            path("<int:game_id>/audit/state/<int:seq>/", site.admin_view(state), name="games_game_state"),
            path(
                "<int:game_id>/audit/rollback/<int:seq>/",
                site.admin_view(rollback),
                name="games_game_rollback",
            ),
            path(
                "<int:game_id>/audit/act/<slug:action>/",
                site.admin_view(act),
                name="games_game_action",
            ),
            *super().get_urls(),
        ]


class PlayerAdminForm(django_forms.ModelForm):  # type: ignore[type-arg]
    """The player's details; the time zone must be one the service knows (a free text such as
    "Berlin" would be read as UTC in every mail and page)."""

    class Meta:
        model = Player
        fields = "__all__"

    def clean_time_zone(self) -> str:
        value = str(self.cleaned_data["time_zone"]).strip()
        if value not in player_forms.zones():
            raise django_forms.ValidationError(
                gettext(
                    "“%(zone)s” is not a time zone we know; give its IANA name, e.g. Europe/Berlin or UTC."
                )
                % {"zone": value}
            )
        return value


@admin.register(Player)
class PlayerAdmin(ModeratorsOnly):
    """Moderators add players (to hand them a seat) and correct their details (a league's
    moderator only those of players bound to nothing outside their leagues:
    ``permissions.may_change_player``)."""

    list_display = ("name", "email", "language", "time_zone", "user", "created_at")
    list_filter = ("language",)
    search_fields = ("name", "email")
    fields = ("name", "email", "language", "time_zone", "user", "created_at")
    form = PlayerAdminForm

    def get_readonly_fields(self, request: HttpRequest, obj: Any = None) -> tuple[str, ...]:
        # linking a login to a player is the superuser's job
        return ("created_at",) if request.user.is_superuser else ("user", "created_at")

    def has_add_permission(self, request: HttpRequest, *args: Any) -> bool:
        return is_moderator(request.user)

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        # a league's moderator must not redirect the mails of another league's player
        return is_moderator(request.user) and (
            obj is None or permissions.may_change_player(request.user, obj)
        )


@admin.register(Event)
class EventAdmin(GameScoped):
    """The log, read-only for everyone (the database refuses changes anyway)."""

    list_display = ("game", "seq", "kind", "source", "seat", "actor", "reason", "created_at", "audit")
    fields = ("game", "seq", "kind", "source", "seat", "actor", "reason", "created_at", "command", "data")
    readonly_fields = fields
    list_filter = ("kind", "source")
    list_select_related = ("game", "actor")
    search_fields = ("=game__id", "game__name", "command_text", "inbound_message_id", "reason")
    ordering = ("-created_at", "-seq")

    @admin.display(description=_("command"))
    def command(self, event: Event) -> str:
        """What the player wrote, as a command (in their words, not the page's)."""
        return format_html("<code>{}</code>", event.command_text) if event.command_text else "—"

    @admin.display(description=_("payload"))
    def data(self, event: Event) -> str:
        return format_html(
            "<pre>{}</pre>", json.dumps(event.payload, indent=1, sort_keys=True, ensure_ascii=False)
        )

    @admin.display(description=_("audit"))
    def audit(self, event: Event) -> str:
        return format_html(
            '<a href="{}#event-{}">{}</a>', audit_url(event.game_id), event.seq, gettext("in the log")
        )


@admin.register(Snapshot)
class SnapshotAdmin(GameScoped):
    list_display = ("game", "seq", "engine_version", "created_at")
    list_select_related = ("game",)
    search_fields = ("=game__id", "game__name")
    exclude = ("state",)
    readonly_fields = ("game", "seq", "engine_version", "created_at")


@admin.register(Press)
class PressAdmin(GameScoped):
    """Table talk, private messages included, read-only (the database refuses changes anyway)."""

    list_display = ("game", "created_at", "seq", "seat", "to_all", "to_seats", "player", "text")
    list_filter = ("to_all",)
    list_select_related = ("game", "player")
    search_fields = ("=game__id", "game__name", "text", "inbound_message_id")
    ordering = ("-created_at",)
    readonly_fields = (
        "game",
        "seat",
        "player",
        "to_all",
        "to_seats",
        "text",
        "seq",
        "inbound_message_id",
        "created_at",
    )


@admin.register(RecordDraft)
class RecordDraftAdmin(ModeratorsOnly):
    """Games played elsewhere being entered by hand: a new one is named (and may start with a
    pasted header or a whole record), then entered line by line on its page
    (``games.admin.entry``)."""

    list_display = ("name", "updated_at", "created_by", "entered")
    fields = ("name", "text")

    def get_queryset(self, request: HttpRequest) -> QuerySet[RecordDraft]:
        """Scoped as games are (``permissions.drafts_of``): another league's drafts are not
        listed, and their pages are not found."""
        drafts: QuerySet[RecordDraft] = super().get_queryset(request)
        return drafts.filter(pk__in=permissions.drafts_of(request.user).values("pk"))

    def has_add_permission(self, request: HttpRequest, *args: Any) -> bool:
        return is_moderator(request.user)

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return is_moderator(request.user)

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return is_moderator(request.user)

    @admin.display(description=_("entered"))
    def entered(self, obj: RecordDraft) -> str:
        return format_html(
            '<a href="{}">{}</a>',
            reverse("admin:games_recorddraft_enter", args=[obj.pk]),
            gettext("continue entering"),
        )

    def save_model(self, request: HttpRequest, obj: RecordDraft, form: Any, change: bool) -> None:
        if not change and isinstance(request.user, User):
            obj.created_by = request.user
        super().save_model(request, obj, form, change)

    def response_add(
        self, request: HttpRequest, obj: RecordDraft, post_url_continue: str | None = None
    ) -> HttpResponse:
        return HttpResponseRedirect(reverse("admin:games_recorddraft_enter", args=[obj.pk]))

    def response_change(self, request: HttpRequest, obj: RecordDraft) -> HttpResponse:
        return HttpResponseRedirect(reverse("admin:games_recorddraft_enter", args=[obj.pk]))

    def get_urls(self) -> list[URLPattern]:
        def enter(request: HttpRequest, draft_id: int) -> HttpResponse:
            return admin_entry.enter_view(self, request, draft_id)

        return [
            path("<int:draft_id>/enter/", self.admin_site.admin_view(enter), name="games_recorddraft_enter"),
            *super().get_urls(),
        ]
