"""Public league pages."""

from __future__ import annotations

from django.urls import URLPattern, path

from .views import league_view

app_name = "leagues"

urlpatterns: list[URLPattern] = [
    path("<slug:slug>/", league_view, name="league"),
]
