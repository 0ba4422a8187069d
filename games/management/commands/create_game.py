"""``manage.py create_game``: a new game for players given by email."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from games import cli

from ._base import run


class Command(BaseCommand):
    help = (
        "Create a White Lotus game for 3 to 6 players given by email (seats and colours in that "
        "order; an unknown email becomes a new player named after its local part). Prints the "
        "game id, the seats and the seed's hash — never the seed."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--player",
            action="append",
            default=[],
            metavar="EMAIL[,EMAIL...]",
            required=True,
            help="a player's email; repeat it, or give a comma-separated list",
        )
        parser.add_argument(
            "--name",
            action="append",
            default=[],
            metavar="EMAIL=NAME",
            help="the name of a player created by this command (repeatable)",
        )
        parser.add_argument("--game-name", default="", help="a name for the game")
        parser.add_argument("--edition", choices=("kosmos", "designer"), default="kosmos")
        parser.add_argument("--no-zero-card", action="store_true", help="without the 0 card (French rules)")
        parser.add_argument("--negotiation", action="store_true", help="the negotiation variant (gifts)")
        parser.add_argument("--open-hands", action="store_true", help="every hand is shown to everyone")
        parser.add_argument(
            "--adjacency",
            choices=("any", "own"),
            default="any",
            help="designer placement: next to any player's chip, or to one's own",
        )
        parser.add_argument(
            "--first-emperor",
            default="red",
            metavar="COLOUR|lot",
            help="the first emperor's colour, or 'lot' to draw it from the seed (default red)",
        )
        parser.add_argument("--seed", default=None, help="the game's seed (default: a random one)")
        parser.add_argument("--board", default="china", help="a built-in board name or a board JSON file")
        parser.add_argument("--start", action="store_true", help="start the game at once")

    def handle(self, *args: Any, **options: Any) -> None:
        game = run(
            lambda: cli.create_game(
                cli.split_emails(options["player"]),
                names=cli.parse_name_pairs(options["name"]),
                edition=options["edition"],
                options={
                    "zero_card": not options["no_zero_card"],
                    "negotiation": options["negotiation"],
                    "open_hands": options["open_hands"],
                    "adjacency": options["adjacency"],
                },
                first_emperor=options["first_emperor"],
                seed=options["seed"],
                board=options["board"],
                name=options["game_name"],
                start=options["start"],
            )
        )
        self.stdout.write(cli.describe_created(game))
