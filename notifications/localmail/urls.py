"""``/mailbox/``: the local mailbox (404 unless ``settings.LOCAL_MAILBOX``)."""

from __future__ import annotations

from django.urls import URLPattern, path

from notifications.localmail import views

app_name = "mailbox"

urlpatterns: list[URLPattern] = [
    path("", views.index, name="index"),
    path("mail/<int:pk>/html/", views.mail_html, name="html"),
    path("mail/<int:pk>/cid/<str:cid>/", views.mail_cid, name="cid"),
    path("mail/<int:pk>/raw/", views.mail_raw, name="raw"),
    path("mail/<int:pk>/reply/", views.reply, name="reply"),
    path("<str:address>/", views.address_view, name="address"),
    path("<str:address>/<int:pk>/", views.address_view, name="mail"),
]
