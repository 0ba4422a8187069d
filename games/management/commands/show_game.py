"""``manage.py show_game``: a game's state as text, as a seat or a spectator sees it."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from games import jobs
from games.management.commands._base import run


class Command(BaseCommand):
    help = (
        "Show a game in the terminal: the provinces in play, the players, whose move it is, "
        "the hand of the --as seat (default: a spectator's view) and the last events with "
        "what the engine said about them; other seats' sealed choices stay hidden unless --moderator."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("game_id", type=int)
        parser.add_argument("--as", dest="colour", metavar="COLOUR", help="see the game as this seat")
        parser.add_argument("--log", type=int, default=10, metavar="N", help="the last N events (default 10)")
        parser.add_argument(
            "--moderator",
            action="store_true",
            help="show every event's command as written, sealed choices and private log lines included",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        text = run(
            lambda: jobs.show_game(
                jobs.get_game(options["game_id"]),
                colour=options["colour"],
                log=options["log"],
                moderator=options["moderator"],
            )
        )
        self.stdout.write(text)
