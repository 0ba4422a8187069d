"""Every file, folder and ``manage.py`` command README.md names exists (issue 29: README cited
``games/records.py`` after it moved to ``games/rules/records.py``, and "migration
``games/0009``" where four migrations start with 0009).  Followed literally in a fresh clone,
README must not send a newcomer to a file or command that is not there."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.core.management import get_commands

ROOT = Path(__file__).resolve().parents[1]
DOCUMENTS = (
    "README.md",
    "deploy/README.md",
    "COMMANDS.md",
    "games/rules/whitelotus/COMMANDS.md",
    "games/rules/whitelotus/RULES.md",
    "games/rules/verbotenestadt/COMMANDS.md",
    "LEAGUES.md",
    "docs/ADDING-A-GAME.md",
    "docs/ARCHITECTURE.md",
    "docs/OPERATING.md",
    "docs/PLAYING.md",
)
# `games/rules/records.py`, `deploy/postfix/whitelotus.cf`, `.ci/run`, `scripts/serve`, and a
# file named alone (`rng.py`: somewhere in the repository)
PATH = re.compile(r"`((?:\.{1,2}/)?[\w.-]+(?:/[\w.-]*)+|[\w-]+\.(?:py|md|cf|toml|json|cfg|ini|yml|yaml))`")
# "migration `games/0009`": an app's migration by its number
MIGRATION = re.compile(r"migration `(\w+)/(\d{4})\w*`")
COMMAND = re.compile(r"manage\.py ([a-z][a-z_]+)")
# made when the service or its checks run, not kept in the repository
MADE = (".local/", ".venv/", "node_modules/", "artifacts/", "record.json")
LEFT_OUT = {".venv", "node_modules", ".git", "artifacts"}


def named_paths(text: str) -> list[str]:
    """The repository paths a document names: a path whose first folder is one of the
    repository's (`mailgun/inbound/` is a URL's tail, `red/green` two words), or a file name."""
    top = {p.name for p in ROOT.iterdir()}
    found = []
    for match in PATH.finditer(text):
        path = match.group(1)
        if "<" in path or path.startswith(MADE):
            continue
        first = path.split("/", 1)[0]
        if "/" in path and first not in top:
            continue
        found.append(path)
    return found


def exists(path: str) -> bool:
    if "/" in path:
        return (ROOT / path).exists()
    return any(not LEFT_OUT & set(p.relative_to(ROOT).parts) for p in ROOT.rglob(path))


@pytest.mark.parametrize("document", DOCUMENTS)
def test_every_path_the_document_names_exists(document):
    text = (ROOT / document).read_text(encoding="utf-8")
    missing = [p for p in named_paths(text) if not exists(p)]
    assert not missing, f"{document} names paths that are not in the repository: {missing}"


@pytest.mark.parametrize("document", DOCUMENTS)
def test_every_migration_the_document_names_is_one_file(document):
    text = (ROOT / document).read_text(encoding="utf-8")
    for match in MIGRATION.finditer(text):
        app, _number = match.group(1), match.group(2)
        name = match.group(0).split("`")[1].split("/", 1)[1]
        found = list((ROOT / app / "migrations").glob(f"{name}*.py"))
        assert len(found) == 1, f"{document}: {match.group(0)} names {len(found)} migrations"


@pytest.mark.parametrize("document", DOCUMENTS)
def test_every_manage_py_command_the_document_names_exists(document):
    text = (ROOT / document).read_text(encoding="utf-8")
    commands = get_commands()
    unknown = sorted({c for c in COMMAND.findall(text) if c not in commands})
    assert not unknown, f"{document} names manage.py commands that do not exist: {unknown}"
