"""Run the ESP webhook calls kept while the service was not set up for that ESP (a missing API
key or package: ``notifications/urls.py``), now that it is; each call that runs is marked
replayed, a call that still fails stays kept with the reason."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandParser
from django.test import RequestFactory
from django.urls import resolve
from django.utils import timezone

from notifications.models import WebhookCall
from notifications.services.redact import one_line
from notifications.urls import basic_auth, secrets


def replay(call: WebhookCall) -> tuple[bool, str]:
    """Run one kept call through its anymail view; ``(ran, what happened)``."""
    if not secrets():
        return False, "WEBHOOK_SECRET is not set"
    request = RequestFactory().generic(
        "POST",
        call.path,
        data=bytes(call.body),
        content_type=call.content_type,
        HTTP_AUTHORIZATION=basic_auth(secrets()[0]),
        **call.headers,
    )
    view = resolve(call.path).func
    view = getattr(view, "__wrapped__", view)  # the anymail view itself: not kept a second time
    try:
        response = view(request)
    except Exception as error:
        return False, one_line(error)
    if response.status_code != 200:
        return False, f"answered {response.status_code}"
    return True, "ran"


class Command(BaseCommand):
    help = "Run the ESP webhook calls kept while that ESP was not set up (answered 503 then)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("ids", nargs="*", type=int, help="only these calls (default: every one kept)")

    def handle(self, *args: Any, ids: list[int], **options: Any) -> None:
        calls = WebhookCall.objects.filter(replayed_at__isnull=True).order_by("pk")
        if ids:
            calls = calls.filter(pk__in=ids)
        for call in calls:
            ran, what = replay(call)
            if ran:
                call.replayed_at = timezone.now()
                call.save(update_fields=["replayed_at"])
            else:
                call.problem = what
                call.save(update_fields=["problem"])
            self.stdout.write(f"webhook call {call.pk} ({call.name}): {what}")
