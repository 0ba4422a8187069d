"""URLs: the admin for moderators, the ESP webhooks (inbound mail, delivery tracking); the front
page, the game pages, the league pages and the local mailbox."""

from __future__ import annotations

from django.contrib import admin
from django.http import HttpRequest, HttpResponse, HttpResponsePermanentRedirect
from django.templatetags.static import static
from django.urls import URLPattern, URLResolver, include, path

from leagues.views import home
from notifications.views import health_view


def favicon(request: HttpRequest) -> HttpResponse:
    """Browsers ask for /favicon.ico where a page names no icon (the admin, the mailbox)."""
    return HttpResponsePermanentRedirect(static("games/favicon.svg"))


# the error pages in the site's layout and the reader's language (games.web.errors; DEBUG off)
handler400 = "games.web.errors.bad_request"
handler403 = "games.web.errors.permission_denied"
handler404 = "games.web.errors.not_found"
handler500 = "games.web.errors.server_error"

urlpatterns: list[URLPattern | URLResolver] = [
    path("favicon.ico", favicon),
    path("admin/", admin.site.urls),
    path("anymail/", include("notifications.urls")),
    path("health/", health_view, name="health"),
    path("i18n/", include("django.conf.urls.i18n")),  # set_language: the pages' switcher
    path("leagues/", include("leagues.urls")),
    path("", home, name="home"),
    path("", include("games.web.urls")),
    path("mailbox/", include("notifications.localmail.urls")),  # 404 unless LOCAL_MAILBOX
]
