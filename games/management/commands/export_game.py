"""``manage.py export_game``: a game's record in the text notation."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from games import jobs
from games.management.commands._base import run
from games.models import Game


class Command(BaseCommand):
    help = (
        "Write a game's record: a header (the game unless the default one, edition, board, colours, "
        "options, the seat that begins, "
        "SEED, name, players, dates) and one 'colour: command' line per move in effect. "
        "The record includes the seed, from which every future draw follows: export only "
        "finished games, or as a moderator — never hand the record of a running game to players."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("game_id", type=int)
        parser.add_argument("-o", "--output", metavar="FILE", help="write to FILE instead of standard output")

    def handle(self, *args: Any, **options: Any) -> None:
        game = run(lambda: jobs.get_game(options["game_id"]))
        text = run(lambda: jobs.export_record(game))
        if game.status != Game.Status.FINISHED:
            self.stderr.write(
                f"Note: game {game.pk} is not finished; its record includes the seed: "
                "keep it from the players."
            )
        if options["output"]:
            Path(options["output"]).write_text(text, encoding="utf-8")
            self.stdout.write(f"Wrote the record of game {game.pk} to {options['output']}.")
        else:
            self.stdout.write(text, ending="")
