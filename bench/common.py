"""What the database benchmarks share: a Postgres database of their own, and percentiles."""

from __future__ import annotations

import os
import statistics
import sys


def setup_django(name: str) -> None:
    """Point Django at ``<DATABASE_URL's database>_bench`` (created and dropped by the run)."""
    url = os.environ.get("DATABASE_URL", "")
    if not url.startswith("postgres"):
        sys.exit(f"{name} needs DATABASE_URL=postgres://...")
    os.environ["DATABASE_URL"] = url.rsplit("/", 1)[0] + "/" + url.rsplit("/", 1)[1] + "_bench"
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "whitelotus.settings")
    # the benchmarks time the database work: tasks go to kombu's in-process broker, not to a
    # Redis where a running worker would pick them up for a database that is gone
    os.environ["CELERY_BROKER_URL"] = "memory://"
    os.environ["CELERY_TASK_ALWAYS_EAGER"] = "false"  # without REDIS_URL a laptop would run them inline
    import django

    django.setup()


def pct(values: list[float], p: float) -> float:
    return statistics.quantiles(values, n=100)[int(p) - 1] if len(values) > 1 else values[0]
