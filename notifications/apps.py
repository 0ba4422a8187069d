from __future__ import annotations

from django.apps import AppConfig


class NotificationsConfig(AppConfig):
    name = "notifications"
    verbose_name = "Mail"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from notifications.inbound import webhooks  # noqa: F401  (connect the signal receivers)
        from notifications.outbound import receivers  # noqa: F401
        from notifications.services import kept_preferences  # noqa: F401
