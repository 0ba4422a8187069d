"""What the games commands share: turning a refused job into a CommandError (exit status 1)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from django.core.management.base import CommandError

from games import services
from games.jobs import JobError

T = TypeVar("T")


def run(job: Callable[[], T]) -> T:
    """Run ``job``; a refusal becomes a :class:`CommandError` with the job's message."""
    try:
        return job()
    except (JobError, services.GameError) as error:
        raise CommandError(str(error)) from None
