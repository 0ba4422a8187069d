"""Who may moderate which game: one place for the admin and for ``games.services``.

Roles:

* a superuser moderates every game (the site admin);
* a member of the ``moderators`` group who holds no scoped role moderates every game (the
  site-wide moderators);
* a *scoped* moderator (e.g. a league's moderator) moderates only the games of their scopes,
  whether or not they are also in the group.

Scopes are registered by other apps (the leagues app, in its ``AppConfig.ready``), so the
games app never imports them: a scope answers which games a user moderates through it and
who moderates a game through it.

Whatever the role, nobody moderates a game in which they hold a seat: a player is never a
moderator of their own game.
"""

from __future__ import annotations

from typing import Protocol

from django.contrib.auth.models import AnonymousUser, User
from django.db.models import Q, QuerySet

from games.models import Game, Player, RecordDraft

MODERATORS = "moderators"


class Scope(Protocol):
    def games_of(self, user: User) -> Q | None:
        """The games ``user`` moderates through this scope (a filter on Game), or None
        when the user holds no role in it."""

    def moderator_ids(self, game: Game) -> set[int]:
        """The ids of the users who moderate ``game`` through this scope."""

    def players_elsewhere(self, user: User) -> Q:
        """The players this scope binds to something ``user`` does not moderate (a filter
        on Player), beyond their seats: e.g. the members of another league's seasons."""

    def colleague_ids(self, user: User) -> set[int]:
        """The users who share a role of this scope with ``user`` (the other moderators of
        their leagues), ``user`` included when they hold one."""


_scopes: list[Scope] = []


def register(scope: Scope) -> None:
    if scope not in _scopes:
        _scopes.append(scope)


def _scoped(user: User) -> Q | None:
    """The union of the user's scoped roles, or None when they hold none."""
    found: Q | None = None
    for scope in _scopes:
        q = scope.games_of(user)
        if q is not None:
            found = q if found is None else found | q
    return found


def _in_group(user: User) -> bool:
    cached: bool | None = getattr(user, "_wl_in_group", None)
    if cached is None:  # the admin asks many times per request; the user object is per request
        cached = user.groups.filter(name=MODERATORS).exists()
        user._wl_in_group = cached  # type: ignore[attr-defined]
    return cached


def _scope_of(user: User) -> Q | None:
    cached: tuple[Q | None] | None = getattr(user, "_wl_scope", None)
    if cached is None:
        cached = (_scoped(user),)
        user._wl_scope = cached  # type: ignore[attr-defined]
    return cached[0]


def is_moderator(user: User | AnonymousUser | None) -> bool:
    """May this user use the moderation admin at all?"""
    if user is None or not isinstance(user, User) or not user.is_active:
        return False
    return user.is_superuser or _in_group(user) or _scope_of(user) is not None


def is_site_moderator(user: User | AnonymousUser | None) -> bool:
    """A superuser, or a group moderator without a scoped role: moderates every game."""
    if user is None or not isinstance(user, User) or not user.is_active:
        return False
    return user.is_superuser or (_in_group(user) and _scope_of(user) is None)


def moderated_games(user: User | AnonymousUser | None) -> QuerySet[Game]:
    """The games this user may see and act on as a moderator."""
    if user is None or not isinstance(user, User) or not is_moderator(user):
        return Game.objects.none()
    games = Game.objects.all()
    scope = None if user.is_superuser else _scope_of(user)
    if scope is not None:
        games = games.filter(scope)
    return games.exclude(pk__in=Game.objects.filter(seats__player__user=user).values("pk"))


def drafts_of(user: User | AnonymousUser | None) -> QuerySet[RecordDraft]:
    """The games being entered by hand that this user may see and continue, scoped as games
    are: a site moderator, every one; a scoped moderator, those they or a fellow moderator of
    their scopes began, and those imported as a game they moderate."""
    if user is None or not isinstance(user, User) or not is_moderator(user):
        return RecordDraft.objects.none()
    if is_site_moderator(user):
        return RecordDraft.objects.all()
    mates = {user.pk}
    for scope in _scopes:
        mates |= scope.colleague_ids(user)
    return RecordDraft.objects.filter(
        Q(created_by__in=mates) | Q(game__in=moderated_games(user).values("pk"))
    )


def can_moderate(user: User | AnonymousUser | None, game: Game) -> bool:
    return moderated_games(user).filter(pk=game.pk).exists()


def may_change_player(user: User | AnonymousUser | None, player: Player) -> bool:
    """May this moderator change a player's details?  Their address is where the mails of
    their seats go (the reply tokens and seat-page links with them), so a scoped moderator
    may change only a player who has no seat in a game they do not moderate and is bound to
    nothing of another scope; a site moderator, anyone."""
    if user is None or not isinstance(user, User) or not is_moderator(user):
        return False
    if is_site_moderator(user):
        return True
    seats_elsewhere = Game.objects.filter(seats__player=player).exclude(
        pk__in=moderated_games(user).values("pk")
    )
    if seats_elsewhere.exists():
        return False
    bound = Player.objects.filter(pk=player.pk)
    return not any(bound.filter(scope.players_elsewhere(user)).exists() for scope in _scopes)


def moderator_ids(game: Game) -> set[int]:
    """The users who moderate ``game`` through a scope (site-wide roles are not listed)."""
    ids: set[int] = set()
    for scope in _scopes:
        ids |= scope.moderator_ids(game)
    return ids


def seating_refusal(game: Game, player: Player) -> str:
    """Why ``player`` may not take a seat in ``game`` ("" if they may): they moderate it."""
    if player.user_id is not None and player.user_id in moderator_ids(game):
        return f"{player} moderates this game's league and cannot play in it."
    return ""
