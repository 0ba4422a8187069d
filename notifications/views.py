"""The health check: is the minute sweep running?  200 when it ran recently, else 503."""

from __future__ import annotations

from django.http import HttpRequest, JsonResponse

from notifications.sweep import health


def health_view(request: HttpRequest) -> JsonResponse:
    ok, detail = health()
    return JsonResponse({"ok": ok, "sweep": detail}, status=200 if ok else 503)
