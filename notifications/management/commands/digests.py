"""Write the daily digests now (beat does it once a day at DIGEST_HOUR): for testing, or after
beat was down at that hour.  A game with no news since the seat's last mail gets none."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand

from notifications.outbound.digests import send_digests


class Command(BaseCommand):
    help = "Write the digests of players on 'mail digest' now (each game with news, nothing to decide)."

    def handle(self, *args: Any, **options: Any) -> None:
        self.stdout.write(f"{send_digests()} digests written")
