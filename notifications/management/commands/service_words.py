"""The words the service already says in German and French, for a game's author: each msgid
of the service's catalogue with its translations, one a line, tab-separated."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from notifications.services.servicewords import LANGUAGES, service_words


class Command(BaseCommand):
    help = (
        "List the msgids the service's catalogue translates (msgid, then German and French, "
        "tab-separated): a game may say them and needs no entry of its own for them."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "words", nargs="*", help="only msgids that have one of these as a whole word (any case)"
        )
        parser.add_argument(
            "--of",
            type=Path,
            metavar="FILE",
            help="only the msgids this .pot or .po has too (a game's: what it may leave to the service)",
        )

    def handle(self, *args: Any, words: list[str], of: Path | None = None, **options: Any) -> None:
        for msgid, said in service_words(words, of):
            line = "\t".join((msgid, *(said[language] for language in LANGUAGES)))
            self.stdout.write(line.replace("\n", "\\n"))
