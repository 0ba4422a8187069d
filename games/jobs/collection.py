"""Importing a collection: a file or folder of records at once (a tournament played elsewhere),
each game all or nothing, with a report (``manage.py import_collection``).

A file may hold several records, each beginning with its title line (``# White Lotus game
record``); a folder's files are read in name order (``*.txt``, ``*.json``, and any file whose
first line is a record's title).  A record that does not import is named with its file, its
first line and why, and the others are imported all the same.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

from django.utils.text import slugify

from games import jobs
from games.models import Collection, Game

_TITLE = re.compile(r"^# .+ game record\s*$", re.M)


@dataclass(frozen=True)
class Item:
    """One record of the collection and what came of it: its game, or why not."""

    where: str  # file, and the line its record begins at when a file holds several
    game: Game | None
    error: str = ""


def records_in(path: Path) -> Iterator[tuple[str, str]]:
    """``(where, text)`` of every record in a file, or in a folder's files, in name order."""
    if path.is_dir():
        for child in sorted(path.iterdir()):
            if child.is_file() and (child.suffix in (".txt", ".json") or _is_record(child)):
                yield from records_in(child)
        return
    text = path.read_text(encoding="utf-8")
    starts = [m.start() for m in _TITLE.finditer(text)]
    if len(starts) <= 1:
        yield str(path), text
        return
    if text[: starts[0]].strip():
        starts.insert(0, 0)
    for begin, end in zip(starts, [*starts[1:], len(text)], strict=True):
        line = text.count("\n", 0, begin) + 1
        yield f"{path}:{line}", text[begin:end]


def _is_record(path: Path) -> bool:
    try:
        with path.open(encoding="utf-8") as f:
            return bool(_TITLE.match(f.readline()))
    except (OSError, UnicodeDecodeError):
        return False


def collection_named(name: str, description: str = "") -> Collection:
    """The collection called ``name``; a new one if there is none."""
    name = " ".join(name.split())[:100]
    if not name:
        raise jobs.JobError("A collection needs a name.")
    found = Collection.objects.filter(name=name).first()
    if found is not None:
        return found
    base = slugify(name)[:90] or "collection"
    slug, n = base, 1
    while Collection.objects.filter(slug=slug).exists():
        n += 1
        slug = f"{base}-{n}"
    return Collection.objects.create(name=name, slug=slug, description=description)


def import_collection(
    paths: Iterable[Path], name: str, description: str = ""
) -> tuple[Collection, list[Item]]:
    """Every record under ``paths`` imported into the collection ``name``, each on its own."""
    collection = collection_named(name, description)
    items: list[Item] = []
    for path in paths:
        if not path.exists():
            items.append(Item(str(path), None, "no such file or folder"))
            continue
        try:
            found = list(records_in(path))
        except (OSError, UnicodeDecodeError) as error:
            items.append(Item(str(path), None, f"cannot read it: {error}"))
            continue
        for where, text in found:
            try:
                game = jobs.import_record(text, collection=collection, origin=Path(where).name)
            except jobs.JobError as error:
                items.append(Item(where, None, str(error)))
            else:
                items.append(Item(where, game))
    return collection, items


def report(collection: Collection, items: list[Item]) -> str:
    """What an operator reads: one line per record, then the count."""
    lines = []
    for item in items:
        if item.game is not None:
            moves = item.game.events.filter(kind__in=("command", "default")).count()
            lines.append(f"OK      {item.where}: game {item.game.pk} ({item.game}), {moves} moves")
        else:
            first, *rest = item.error.splitlines() or [""]
            lines.append(f"REFUSED {item.where}: {first}")
            lines += [f"        {line}" for line in rest]
    done = sum(1 for i in items if i.game is not None)
    lines.append(
        f"{collection.name}: {done} of {len(items)} record(s) imported"
        + (f", {len(items) - done} refused (nothing of them was kept)." if done < len(items) else ".")
    )
    return "\n".join(lines)
