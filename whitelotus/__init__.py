"""The Django project: settings (from the environment), urls, the Celery app, wsgi/asgi."""

from __future__ import annotations

from whitelotus.celery import app as celery_app

__all__ = ["celery_app"]
