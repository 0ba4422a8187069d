"""The public league page: each season's standings, with the league's ratings."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404
from django.template.response import TemplateResponse

from .models import League
from .standings import league_standings


def league_view(request: HttpRequest, slug: str) -> HttpResponse:
    league = get_object_or_404(League, slug=slug)
    seasons = league_standings(league, league.seasons.order_by("-created_at", "-pk"))
    return TemplateResponse(request, "leagues/league.html", {"league": league, "seasons": seasons})
