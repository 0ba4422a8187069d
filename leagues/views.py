"""The public league page: each season's standings, with the league's ratings."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404
from django.template.response import TemplateResponse
from django.urls import reverse

from games.models import Player
from games.player_games import Link

from .models import League, Season
from .standings import league_standings


def league_view(request: HttpRequest, slug: str) -> HttpResponse:
    league = get_object_or_404(League, slug=slug)
    seasons = league_standings(league, league.seasons.order_by("-created_at", "-pk"))
    return TemplateResponse(request, "leagues/league.html", {"league": league, "seasons": seasons})


def seasons_of(player: Player) -> list[Link]:
    """The seasons the player is a member of, each a link to its league's page (for the
    player's own page, ``games.player_games``, where the app config registers it)."""
    seasons = Season.objects.filter(memberships__player=player).select_related("league")
    return [
        Link(str(season), reverse("leagues:league", args=[season.league.slug]))
        for season in seasons.order_by("-created_at", "-pk")
    ]
