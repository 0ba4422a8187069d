"""``manage.py replay_game``: check that a game rebuilds from its events."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from games import jobs
from games.management.commands._base import run


class Command(BaseCommand):
    help = (
        "Replay a game from its first event and compare with the head as the service loads it "
        "(latest snapshot + later events). Prints OK (and the final scores of a finished game); "
        "exits with status 1 and says what differs otherwise."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("game_id", type=int)

    def handle(self, *args: Any, **options: Any) -> None:
        check = run(lambda: jobs.replay_game(jobs.get_game(options["game_id"])))
        self.stdout.write(jobs.describe_replay(check))
