"""The site's front page and the public league pages: every league, a league with its seasons
(their games, standings and ratings), and one season with its rules in words and how to join.

Nothing here is private: players appear by name and colour, never by address; the address to
mail ``join <league>`` to is the service's own (``notifications.services.tokens.service_address``)."""

from __future__ import annotations

from dataclasses import dataclass

from django.core.paginator import Page
from django.db.models import Count, Q
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404
from django.template.response import TemplateResponse
from django.urls import reverse
from django.utils.translation import gettext as _

from games import services
from games.models import Game, Player
from games.presentation import words
from games.rules import registry
from games.services.timing import TimeControls
from games.web import archive
from games.web.player_games import Link
from leagues.models import League, Season
from leagues.seating import _clock
from leagues.standings import league_standings
from notifications.services.tokens import service_address

FRONT_GAMES = 6  # running games on the front page
SEASON_GAMES = 12  # games per season on a league page (the season's page pages them all)


def home(request: HttpRequest) -> HttpResponse:
    """What this is, how to join, the games running now and the leagues."""
    running = Game.objects.filter(status__in=[Game.Status.RUNNING, Game.Status.PAUSED]).order_by(
        "-created_at"
    )
    leagues = League.objects.annotate(
        open_seasons=Count("seasons", filter=Q(seasons__signup_open=True)),
        games=Count("seasons__league_games"),
    ).order_by("name")
    context = {
        "rows": archive.rows(list(running[:FRONT_GAMES])),
        "running": running.count(),
        "finished": Game.objects.filter(status=Game.Status.FINISHED).count(),
        "leagues": leagues,
        "open": [league for league in leagues if league.open_seasons],
        "address": service_address(),
        # the lead's games: each registered game's title in the reader's language
        "games": words.joined([words.game_name(registry.get(name)) for name in registry.names()]),
    }
    return TemplateResponse(request, "leagues/home.html", context)


def index(request: HttpRequest) -> HttpResponse:
    """Every league with its seasons (open for sign-up or not) and its number of games."""
    leagues = League.objects.prefetch_related("seasons").annotate(games=Count("seasons__league_games"))
    return TemplateResponse(
        request, "leagues/index.html", {"leagues": leagues.order_by("name"), "address": service_address()}
    )


def league_view(request: HttpRequest, slug: str) -> HttpResponse:
    league = get_object_or_404(League, slug=slug)
    seasons = list(league.seasons.order_by("-created_at", "-pk"))
    tables = league_standings(league, seasons)
    context = {
        "league": league,
        "seasons": [_season_part(table.season, table, SEASON_GAMES) for table in tables],
        "address": service_address(),
    }
    return TemplateResponse(request, "leagues/league.html", context)


def season_view(request: HttpRequest, slug: str, season_id: int) -> HttpResponse:
    league = get_object_or_404(League, slug=slug)
    season = get_object_or_404(Season, league=league, pk=season_id)
    table = league_standings(league, [season])[0]
    context = {
        "league": league,
        "part": _season_part(season, table, None, request.GET.get("page")),
        "rules": _rules_in_words(season),
        "address": service_address(),
    }
    return TemplateResponse(request, "leagues/season.html", context)


@dataclass
class SeasonPart:
    season: Season
    table: object  # leagues.standings.Standings
    rows: list[archive.Row]
    count: int
    url: str
    all_games_url: str
    page: Page[Game] | None = None  # the season page's page of its games (archive.PER_PAGE)


def _season_part(season: Season, table: object, most: int | None, page: str | None = None) -> SeasonPart:
    """A season's standings and games: its latest ``most`` games (a league page), or one page
    of them all (the season's page), so neither grows with the season."""
    games = Game.objects.filter(league_game__season=season).order_by("-created_at", "-pk")
    paged = archive.page_of(games, page) if most is None else None
    # the links alone (an index), not joined to the games; the pager has counted them already
    count = paged.paginator.count if paged is not None else season.league_games.count()
    shown = list(paged.object_list if paged is not None else games[:most])
    return SeasonPart(
        season=season,
        table=table,
        rows=archive.rows(shown),
        page=paged,
        count=count,
        url=reverse("leagues:season", args=[season.league.slug, season.pk]),
        all_games_url=reverse("games:index") + f"?season={season.pk}",
    )


def _rules_in_words(season: Season) -> list[tuple[str, str]]:
    """The season's game, edition, options, table talk and clock, as a reader says them."""
    game = registry.get(season.rules)
    options = (
        services.game_options(game, season.options) if season.edition_played in game.about.editions else {}
    )
    clock = _clock(season) or TimeControls.from_dict(game.about.time_controls)  # None: the game's own
    said = [
        (_("Game"), words.game_name(game)),
        (_("Edition"), words.game_word(game, "edition", season.edition_played)),
        (_("Board"), words.game_word(game, "board", season.board_played)),
    ]
    for key, value in options.items():
        said_value = (
            (_("yes") if value else _("no"))
            if isinstance(value, bool)
            else words.game_word(game, "value", value)
        )
        name = words.game_word(game, "option", key)
        said.append((name[:1].upper() + name[1:], said_value))
    press = dict(Game.Press.choices).get(season.press) if season.press else None
    said.append((_("Table talk"), _(str(press)) if press else _("the game's default")))
    if clock.hours_per_decision is None:
        said.append((_("Time per decision"), _("no deadlines")))
    else:
        said.append(
            (_("Time per decision"), _("%(hours)s hours") % {"hours": f"{clock.hours_per_decision:g}"})
        )
        if clock.reminder_hours:
            before = ", ".join(f"{h:g}" for h in clock.reminder_hours)
            said.append((_("Reminders"), _("%(hours)s hours before the deadline") % {"hours": before}))
    if clock.quiet_nights:
        said.append((_("Quiet nights"), _("no deadline between 22:00 and 08:00 in the player's zone")))
    if clock.quiet_weekends:
        said.append((_("Quiet weekends"), _("no deadline on Saturday or Sunday")))
    said.append((_("Vacation"), _("%(days)s days per player and game") % {"days": clock.vacation_days}))
    return said


def seasons_of(player: Player) -> list[Link]:
    """The seasons the player is a member of, each a link to its page (for the player's own
    page, ``games.web.player_games``, where the app config registers it)."""
    seasons = Season.objects.filter(memberships__player=player).select_related("league")
    return [
        Link(str(season), reverse("leagues:season", args=[season.league.slug, season.pk]))
        for season in seasons.order_by("-created_at", "-pk")
    ]
