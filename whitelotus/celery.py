"""The Celery app (broker: Redis).  Tasks live in the apps; the beat schedule is in settings."""

from __future__ import annotations

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "whitelotus.settings")

app = Celery("whitelotus")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
