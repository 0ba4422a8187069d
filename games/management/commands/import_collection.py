"""``manage.py import_collection``: a file or folder of records imported as one collection."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from games.jobs import collection as collection_import
from games.management.commands._base import run


class Command(BaseCommand):
    help = (
        "Import every record in the given files and folders (a tournament) into one collection, "
        "which the archive can filter by. Each game is all or nothing: a record that does not "
        "import is named with why, and the others are imported. Exits 1 if any was refused."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("paths", nargs="+", metavar="PATH", help="a record file or a folder of them")
        parser.add_argument("--collection", required=True, help="the collection's name (made if new)")
        parser.add_argument("--description", default="", help="what the collection is (a new one)")

    def handle(self, *args: Any, **options: Any) -> None:
        paths = [Path(p) for p in options["paths"]]
        collection, items = run(
            lambda: collection_import.import_collection(paths, options["collection"], options["description"])
        )
        self.stdout.write(collection_import.report(collection, items))
        if any(item.game is None for item in items):
            raise CommandError("Some records were not imported (see above).")
