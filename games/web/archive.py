"""The games list and archive (``/games/``): every game, new, running and finished, searchable
by a plain GET form (player, league, season, game, edition, player count, status, dates) and
paged, each row as plain values for the template.

What a row shows is read from tables the service keeps anyway, in a constant number of
queries for a page whatever its length: the seats and their players (names and colours, never
an address), whose move it is and the deadline from ``PendingDecision`` (the projection of
``pending(state)`` the deadline sweep reads), and the leagues' seasons from the groupings other
apps register (``register``: the leagues app, so this app never imports it).  The winners of a
finished game are read from its result rows (``games.projections.results``, written when it ended): no
replay, one query for the page.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import datetime
from typing import Protocol

from django import forms
from django.core.paginator import Page, Paginator
from django.db.models import Count, F, OuterRef, Q, QuerySet, Subquery
from django.urls import reverse
from django.utils.translation import gettext, gettext_lazy, pgettext_lazy

from games.models import Collection, Game, PendingDecision, Seat, SeatResult
from games.presentation import words
from games.rules import registry
from games.web.player_games import Link

__all__ = ["PER_PAGE", "ArchiveForm", "Grouping", "Row", "page_of", "register", "rows"]

PER_PAGE = 50
MAX_PLAYERS = 8  # the player counts offered in the form (no game seats more)


class Grouping(Protocol):
    """What another app groups games by (the leagues app: leagues and their seasons)."""

    def leagues(self) -> list[tuple[str, str]]:
        """(value, label) of each league, for the form."""

    def seasons(self) -> list[tuple[str, str]]:
        """(value, label) of each season, for the form ("Autumn league: 2026")."""

    def games_in(self, league: str, season: str) -> Q | None:
        """A filter on Game for the league and season chosen ("" when not), or None when
        this grouping knows neither value."""

    def links(self, game_ids: Iterable[int]) -> dict[int, list[Link]]:
        """The groups each game is in, as links, in one query."""


_groupings: list[Grouping] = []


def register(grouping: Grouping) -> None:
    if grouping not in _groupings:
        _groupings.append(grouping)


STATUSES = (
    ("", gettext_lazy("any")),
    ("running", gettext_lazy("running")),
    ("finished", gettext_lazy("finished")),
    ("new", gettext_lazy("waiting to start")),
)
ORDERS = (
    ("", gettext_lazy("latest first")),
    ("oldest", gettext_lazy("oldest first")),
    ("finished", gettext_lazy("latest finished first")),
)


def _games() -> list[tuple[str, str]]:
    return [("", gettext("any"))] + [(name, words.game_name(registry.get(name))) for name in registry.names()]


def _editions() -> list[tuple[str, str]]:
    seen: dict[str, str] = {}
    for name in registry.names():
        for edition in registry.get(name).about.editions:
            label = gettext(Game(rules=name, edition=edition).get_edition_display())
            seen.setdefault(edition, f"{label} ({words.game_name(registry.get(name))})")
    return [("", gettext("any")), *seen.items()]


class ArchiveForm(forms.Form):
    """The search, read from the query string; an empty field does not filter."""

    player = forms.CharField(label=gettext_lazy("Player name"), required=False, max_length=100)
    league = forms.ChoiceField(label=gettext_lazy("League"), required=False)
    season = forms.ChoiceField(label=gettext_lazy("Season"), required=False)
    game = forms.ChoiceField(label=pgettext_lazy("the board game", "Game"), required=False)
    edition = forms.ChoiceField(label=gettext_lazy("Edition"), required=False)
    players = forms.TypedChoiceField(
        label=gettext_lazy("Number of players"), required=False, coerce=int, empty_value=None
    )
    collection = forms.ChoiceField(label=gettext_lazy("Collection"), required=False)
    status = forms.ChoiceField(label=gettext_lazy("Status"), required=False, choices=STATUSES)
    since = forms.DateField(
        label=gettext_lazy("Created on or after"),
        required=False,
        widget=forms.DateInput(attrs={"type": "date"}),
    )
    until = forms.DateField(
        label=gettext_lazy("Finished (or, if not finished, created) on or before"),
        required=False,
        widget=forms.DateInput(attrs={"type": "date"}),
    )
    order = forms.ChoiceField(label=gettext_lazy("Order"), required=False, choices=ORDERS)

    def __init__(self, *args: object, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        any_ = [("", gettext("any"))]
        fields = self.fields
        fields["league"].choices = any_ + [c for g in _groupings for c in g.leagues()]  # type: ignore[attr-defined]
        fields["season"].choices = any_ + [c for g in _groupings for c in g.seasons()]  # type: ignore[attr-defined]
        fields["game"].choices = _games()  # type: ignore[attr-defined]
        fields["edition"].choices = _editions()  # type: ignore[attr-defined]
        fields["players"].choices = any_ + [(str(n), str(n)) for n in range(2, MAX_PLAYERS + 1)]  # type: ignore[attr-defined]
        collections = list(Collection.objects.values_list("slug", "name"))
        fields["collection"].choices = any_ + collections  # type: ignore[attr-defined]
        if not collections:  # (games imported together: a tournament played elsewhere)
            del fields["collection"]
        if not _groupings:
            del fields["league"], fields["season"]

    def filtered(self) -> QuerySet[Game]:
        """The games the search asks for, in its order (every game if it is not valid)."""
        games = Game.objects.all()
        data = self.cleaned_data if self.is_valid() else {}
        if name := data.get("player", "").strip():
            games = games.filter(seats__player__name__icontains=name)
        league, season = data.get("league", ""), data.get("season", "")
        if league or season:
            found = [q for g in _groupings if (q := g.games_in(league, season)) is not None]
            games = games.filter(found[0]) if found else games.none()
        if collection := data.get("collection"):
            games = games.filter(collection__slug=collection)
        if rules := data.get("game"):
            games = games.filter(rules=rules)
        if edition := data.get("edition"):
            games = games.filter(edition=edition)
        if count := data.get("players"):
            # counted apart: an annotation after the name's filter would count the matching seats
            seated = (
                Seat.objects.filter(game=OuterRef("pk")).values("game").annotate(n=Count("pk")).values("n")
            )
            games = games.annotate(seated=Subquery(seated)).filter(seated=count)
        status = data.get("status", "")
        if status == "running":
            games = games.filter(status__in=[Game.Status.RUNNING, Game.Status.PAUSED])
        elif status in ("finished", "new"):
            games = games.filter(status=status)
        if since := data.get("since"):
            games = games.filter(created_at__date__gte=since)
        if until := data.get("until"):
            games = games.filter(
                Q(finished_at__date__lte=until) | Q(finished_at__isnull=True, created_at__date__lte=until)
            )
        order = data.get("order", "")
        if order == "oldest":
            games = games.order_by("created_at", "pk")
        elif order == "finished":
            games = games.order_by(F("finished_at").desc(nulls_last=True), "-created_at", "-pk")
        else:
            games = games.order_by("-created_at", "-pk")
        return games.distinct()


@dataclass(frozen=True)
class SeatRow:
    name: str
    colour: str  # in the reader's words
    swatch: str  # as the stylesheet names it
    owes: bool = False  # must decide now
    won: bool = False


@dataclass
class Row:
    game: Game
    title: str
    game_title: str
    edition: str
    seats: list[SeatRow]
    status: str
    deadline: datetime | None = None  # the soonest of the owed decisions'
    clock_stopped: bool = False
    sealed: bool = False  # the owed decisions are sealed (several seats decide at once)
    groups: list[Link] = field(default_factory=list)
    replay_url: str = ""
    record_url: str = ""  # notation text (finished games)
    json_url: str = ""

    @property
    def movers(self) -> list[SeatRow]:
        return [s for s in self.seats if s.owes]

    @property
    def winners(self) -> list[SeatRow]:
        return [s for s in self.seats if s.won]


def page_of(games: QuerySet[Game], number: str | int | None) -> Page[Game]:
    return Paginator(games, PER_PAGE).get_page(number)


def rows(games: list[Game]) -> list[Row]:
    """The rows of a page of games, in a constant number of queries."""
    ids = [g.pk for g in games]
    seats = Seat.objects.filter(game_id__in=ids).select_related("player").order_by("game_id", "position")
    by_game: dict[int, list[Seat]] = {}
    for seat in seats:
        by_game.setdefault(seat.game_id, []).append(seat)
    owed: dict[int, list[PendingDecision]] = {}
    live = [g.pk for g in games if g.status in (Game.Status.RUNNING, Game.Status.PAUSED)]
    for decision in PendingDecision.objects.owed().filter(game_id__in=live):
        owed.setdefault(decision.game_id, []).append(decision)
    groups: dict[int, list[Link]] = {}
    for grouping in _groupings:
        for game_id, found in grouping.links(ids).items():
            groups.setdefault(game_id, []).extend(found)
    won = winners([g for g in games if g.status == Game.Status.FINISHED])
    return [
        _row(g, by_game.get(g.pk, []), owed.get(g.pk, []), won.get(g.pk, ()), groups.get(g.pk, []))
        for g in games
    ]


def _row(
    game: Game, seats: list[Seat], owed: list[PendingDecision], won: Iterable[int], groups: list[Link]
) -> Row:
    owing = {d.seat for d in owed}
    winning = set(won)
    deadlines = [d.deadline_at for d in owed if d.deadline_at is not None]
    finished = game.status == Game.Status.FINISHED
    return Row(
        game=game,
        title=game.name or gettext("Game %(id)s") % {"id": game.pk},
        game_title=game.game_title,
        edition=gettext(game.get_edition_display()),
        seats=[
            SeatRow(
                s.player.name, words.colour(s.colour), s.colour, s.position in owing, s.position in winning
            )
            for s in seats
        ],
        status=_status(game),
        deadline=min(deadlines, default=None),
        clock_stopped=game.clock_stopped_at is not None,
        sealed=any(d.sealed for d in owed),
        groups=groups,
        replay_url="" if _unstarted(game) else reverse("games:replay", args=[game.pk]),
        record_url=reverse("games:record", args=[game.pk]) if finished else "",
        json_url=reverse("games:record-json", args=[game.pk]) if finished else "",
    )


def _unstarted(game: Game) -> bool:
    # a game waiting for its players' ready has no replay yet (``views.replay``)
    return game.status == Game.Status.NEW and game.ready_until is not None


def _status(game: Game) -> str:
    return {
        Game.Status.NEW: gettext("waiting to start"),
        Game.Status.RUNNING: gettext("running"),
        Game.Status.PAUSED: gettext("paused"),
        Game.Status.FINISHED: gettext("finished"),
    }.get(Game.Status(game.status), game.status)


def winners(games: list[Game]) -> dict[int, tuple[int, ...]]:
    """The winning seats (first place, ties included) of finished games, from their result
    rows: one query however many games."""
    won: dict[int, tuple[int, ...]] = {g.pk: () for g in games}
    found = SeatResult.objects.filter(game_id__in=list(won), rank=1).order_by("game_id", "position")
    for game_id, position in found.values_list("game_id", "position"):
        won[game_id] += (position,)
    return won
