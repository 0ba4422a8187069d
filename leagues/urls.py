"""Public league pages: every league, a league, a season."""

from __future__ import annotations

from django.urls import URLPattern, path

from leagues.views import index, league_view, season_view

app_name = "leagues"

urlpatterns: list[URLPattern] = [
    path("", index, name="index"),
    path("<slug:slug>/", league_view, name="league"),
    path("<slug:slug>/<int:season_id>/", season_view, name="season"),
]
