"""Game pages: the public page, the private seat page and the player's own page (secret links)
and the replay viewer."""

from __future__ import annotations

from django.urls import URLPattern, path

from games.web import views

app_name = "games"

urlpatterns: list[URLPattern] = [
    path("games/", views.index, name="index"),
    path("games/<int:game_id>/", views.game_page, name="game"),
    path("games/<int:game_id>/replay/", views.replay, name="replay"),
    path("games/<int:game_id>/record.txt", views.record, name="record"),
    path("games/<int:game_id>/record.json", views.record_as_json, name="record-json"),
    path("games/<int:game_id>/replay/<int:step>/", views.replay, name="replay-step"),
    path("games/seat/<str:key>/", views.seat_page, name="seat"),
    path("me/<str:key>/", views.player_page, name="player"),
    path("me/<str:key>/new-link/", views.renew_player_link, name="player-renew"),
]
