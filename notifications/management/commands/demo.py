"""``manage.py demo``: a game where you hold one seat and bots the others (local play)."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandParser

from games.management.commands._base import run
from games.rules import registry
from notifications.localmail.demo import create_demo, describe_demo


class Command(BaseCommand):
    help = (
        "Create and start a demo game: you hold one seat (--email), bots hold the others. Prints "
        "the links to your local mailbox and to the game."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--email", default="you@localhost", help="your address (default you@localhost)")
        parser.add_argument("--name", default="", help="your name, if the address is new")
        parser.add_argument(
            "--rules",
            choices=registry.names(),
            default=settings.DEFAULT_GAME,
            help=f"the game (default {settings.DEFAULT_GAME})",
        )
        parser.add_argument(
            "--players", type=int, default=4, help="how many players (default 4; the game's player counts)"
        )
        parser.add_argument(
            "--edition",
            default=None,
            help="the game's edition (default its first)",
        )
        parser.add_argument(
            "--seat",
            type=int,
            default=0,
            help="your seat: 0 is the first colour (default), 1 the second, ...",
        )
        parser.add_argument("--seed", default=None, help="the game's seed (default: a random one)")

    def handle(self, *args: Any, **options: Any) -> None:
        game = run(
            lambda: create_demo(
                options["email"],
                players=options["players"],
                edition=options["edition"],
                seat=options["seat"],
                name=options["name"],
                seed=options["seed"],
                rules=options["rules"],
            )
        )
        self.stdout.write(describe_demo(game, options["email"]))
