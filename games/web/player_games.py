"""What a player's own page shows (``games.web.views.player_page``): every game they hold a seat
in, sorted by what it asks of them, as plain values for the template.

Each game is read as the player's seat sees it: the decision and whose move it is come from
``rules.view(state, seat)``, in the words the mails use (``rules.presentation.decision_text``,
``games.presentation.words``), so the page tells nothing their seat pages do not.  Deadlines are
in the player's own time zone, named, with how far off they are.

Other apps add what they know of a player (the leagues app: the seasons they are in) by
``register``, so this app never imports them (as ``games.services.permissions``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime, tzinfo
from typing import Any

from django.core.paginator import Page, Paginator
from django.db.models import prefetch_related_objects
from django.db.models.functions import Coalesce
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.timesince import timeuntil
from django.utils.translation import gettext

from games import services
from games.models import Game, PendingDecision, Player, Seat, SeatResult
from games.presentation import timefmt, words, zonechoice
from games.rules.base import Rules
from games.services import links, timing

__all__ = ["Deadline", "Entry", "Link", "PlayerGames", "games_of", "register", "unfinished", "zone_of"]


@dataclass(frozen=True)
class Link:
    text: str
    url: str


@dataclass(frozen=True)
class Deadline:
    local: str  # "2026-11-25 10:00 CET"
    zone: str  # where the zone is, in the reader's language: "Berlin (Deutschland)"
    iso: str  # for <time datetime=…>
    due_in: str  # "in 2 days, 3 hours", "overdue", or the clock is stopped
    at: datetime | None = (
        None  # the moment itself, to sort by (the local text sorts wrongly across zones' offsets)
    )


@dataclass(frozen=True)
class Entry:
    """One of the player's games, as their seat sees it."""

    game: Game
    title: str  # the game's name ("Game 12" if it has none)
    game_title: str  # the game it is a game of ("White Lotus")
    colour: str  # the seat's colour, in the reader's words
    swatch: str  # the seat's colour as the stylesheet names it
    seat_url: str  # the seat's private page, relative
    what: str = ""  # what the seat must decide, or whose move it is, or the result
    sealed: bool = False
    deadline: Deadline | None = None
    away_until: str = ""  # the player is on vacation in this game until then
    replay_url: str = ""


@dataclass
class PlayerGames:
    decide: list[Entry] = field(default_factory=list)  # a decision is owed now, soonest deadline first
    running: list[Entry] = field(default_factory=list)  # running or paused, nothing owed
    finished: list[Entry] = field(default_factory=list)  # latest first: one page of them
    finished_page: Page[Seat] | None = None  # which page of the finished games that is
    not_started: list[Entry] = field(default_factory=list)
    groups: list[Link] = field(default_factory=list)  # leagues' seasons and the like


Section = Callable[[Player], list[Link]]
FINISHED_PER_PAGE = 50  # finished games per page of a player's own page
_sections: list[Section] = []


def register(section: Section) -> None:
    """Another app's links for a player's page (the leagues app: the seasons they are in)."""
    if section not in _sections:
        _sections.append(section)


def zone_of(player: Player) -> tzinfo:
    """The player's time zone (UTC if theirs is unknown, as the mails read it)."""
    return timing.zone(player.time_zone)


def unfinished(player: Player) -> list[Game]:
    """The games the player holds a seat in that are not over (running, paused, not started)."""
    games = Game.objects.filter(seats__player=player).exclude(status=Game.Status.FINISHED)
    return list(games.distinct().order_by("-created_at", "-pk"))


def games_of(player: Player, now: datetime | None = None, page: str | int | None = None) -> PlayerGames:
    """The player's games, in the language active now, deadlines in their time zone: every game
    not over, and one page of the finished ones (latest first, ``FINISHED_PER_PAGE``), so the
    page costs the same whether the player has finished ten games or ten thousand."""
    now = now or timezone.now()
    zone = zone_of(player)
    mine = Seat.objects.filter(player=player).select_related("game", "player")
    live = list(mine.exclude(game__status=Game.Status.FINISHED).order_by("-game__created_at", "pk"))
    over = mine.filter(game__status=Game.Status.FINISHED).order_by(
        Coalesce("game__finished_at", "game__created_at").desc(), "-game_id"
    )
    finished_page = Paginator(over, FINISHED_PER_PAGE).get_page(page)
    seats = [*live, *finished_page.object_list]
    prefetch_related_objects(seats, "game__seats__player")  # once for both lists
    keys = links.seat_keys(seats)
    owed = {
        (d.game_id, d.seat): d
        for d in PendingDecision.objects.owed().filter(game_id__in={s.game_id for s in live})
    }
    results = _results(seats)
    out = PlayerGames(finished_page=finished_page)
    for seat in seats:
        seat.page_key = keys[seat.pk]
        game = seat.game
        if game.status == Game.Status.NEW:
            out.not_started.append(_entry(seat))
        elif game.status == Game.Status.FINISHED:
            out.finished.append(_finished(seat, results.get(game.pk, [])))
        elif (game.pk, seat.position) in owed:
            out.decide.append(_deciding(seat, owed[game.pk, seat.position], zone, now))
        else:
            out.running.append(_running(seat, zone))
    never = datetime.max.replace(tzinfo=UTC)
    out.decide.sort(key=lambda e: (e.deadline is None, (e.deadline and e.deadline.at) or never, e.game.pk))
    for section in _sections:
        out.groups += section(player)
    return out


def deadline(at: datetime, zone: tzinfo, now: datetime, stopped_at: datetime | None = None) -> Deadline:
    """A deadline in the reader's zone, and how far off it is (standing still while the game's
    clock is stopped: it moves on by as much when the clock restarts)."""
    local = timezone.localtime(at, zone)
    if stopped_at is not None:
        left = gettext("overdue") if at <= stopped_at else timeuntil(at, stopped_at)
        due_in = gettext("%(left)s left; the clock is stopped, the deadline moves on when it restarts") % {
            "left": left
        }
    elif at <= now:
        due_in = gettext("overdue")
    else:
        due_in = gettext("in %(time)s") % {"time": timeuntil(at, now)}
    said = timefmt.reader_time(at, zone)
    place = zonechoice.place(str(zone), translation.get_language() or "en")
    if said.endswith(f" {place}"):  # "… 15:12 UTC", not "… 15:12 UTC, UTC"
        place = ""
    return Deadline(said, place, local.isoformat(), due_in, at)


def _entry(seat: Seat, **more: object) -> Entry:
    game = seat.game
    return Entry(
        game=game,
        title=game.name or gettext("Game %(id)s") % {"id": game.pk},
        game_title=game.game_title,
        colour=words.colour(seat.colour),
        swatch=seat.colour,
        seat_url=reverse("games:seat", args=[getattr(seat, "page_key", None) or links.seat_key(seat)]),
        **more,  # type: ignore[arg-type]
    )


def _seen(seat: Seat) -> tuple[Rules, dict[str, Any], Any]:
    """The game at its head as the seat sees it: (rules, view, state)."""
    game = seat.game
    rules = services.rules_of(game)
    state = services.head_state(game)
    return rules, dict(rules.view(state, seat.position)), state


def _deciding(seat: Seat, owed: PendingDecision, zone: tzinfo, now: datetime) -> Entry:
    rules, view, _ = _seen(seat)
    what = rules.presentation.decision_text(view, owed.kind, gettext)
    due = None
    if owed.deadline_at is not None:
        due = deadline(owed.deadline_at, zone, now, seat.game.clock_stopped_at)
    return _entry(seat, what=what, sealed=owed.sealed, deadline=due, away_until=_away(seat, zone))


def _running(seat: Seat, zone: tzinfo) -> Entry:
    rules, view, _ = _seen(seat)
    names = {s.colour: s.player.name for s in seat.game.seats.all()}  # prefetched by games_of
    what = words.waiting(view, names, rules)
    if seat.game.status == Game.Status.PAUSED:
        what = gettext("The game is paused.") + " " + what
    return _entry(seat, what=what, away_until=_away(seat, zone))


def _results(seats: list[Seat]) -> dict[int, list[tuple[int, int]]]:
    """The (rank, score) of every seat of the finished games among ``seats``, from their
    result rows (``games.projections.results``): one query, no replay."""
    ids = [s.game_id for s in seats if s.game.status == Game.Status.FINISHED]
    found: dict[int, list[tuple[int, int]]] = {}
    rows = SeatResult.objects.filter(game_id__in=ids).order_by("game_id", "position")
    for game_id, rank, score in rows.values_list("game_id", "rank", "score"):
        found.setdefault(game_id, []).append((rank, score))
    return found


def _finished(seat: Seat, result: list[tuple[int, int]]) -> Entry:
    what = ""
    if len(result) > seat.position:
        rank, score = result[seat.position]
        place = words.place(rank)
        if [r for r, _ in result].count(rank) > 1:
            place = gettext("%(place)s (tied)") % {"place": place}
        what = gettext("You placed %(place)s with %(points)s points.") % {"place": place, "points": score}
    return _entry(seat, what=what, replay_url=reverse("games:replay", args=[seat.game.pk]))


def _away(seat: Seat, zone: tzinfo) -> str:
    if seat.away_until is None:
        return ""
    return timefmt.reader_time(seat.away_until, zone)
