"""Nothing outside a game's package names a game or says its words: the service, its mails, pages,
admin and leagues reach every game through the registry and the contract, so a new game is its
package and a line in the registry.

For every registered game, its registry key (``verbotenestadt``), its package's dotted and
slashed paths and its title ("Die Verbotene Stadt") are looked for in what the project *does*:
Python code (its names and its strings, docstrings left out), templates (their comments left
out) and the project's configuration.  Prose that explains (docstrings, comments, the Markdown
docs) may mention a game as an example.

Where a name may appear, and why:

* the game's own package (``games/rules/<name>/``): it is the game;
* ``games/rules/registry.py``: the one list of the games (and ``DEFAULT``, the game chosen when
  none is named);
* ``tests/``: tests play the real games by name;
* migrations: they are history (a column's default, a data fix of that day's games);
* ``ALLOWED`` below: each file with the reason it may, and ``PENDING``: the places that still
  name a game and are to move into its package (each with what moves); this test fails on any
  other, and on an entry of either list that no longer names a game, so the lists only shrink.
"""

from __future__ import annotations

import ast
import re
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from games.rules import registry

ROOT = Path(__file__).resolve().parent.parent

# the service's own name (the site, its mails' footers, the Django project's package): it is
# called after its first game, and says so in these words only
SERVICE_NAME = re.compile(
    r"White Lotus by mail|White Lotus <"
    r"|\bwhitelotus(?=[.:/](settings|urls|celery|wsgi|asgi|localbroker|templates)\b)"
    r"|whitelotus(?=-by-mail|_by_mail)|\bwhitelotus\*"
)

# files that may name a game, and why
ALLOWED = {
    "games/rules/registry.py": "the one list of the games",
    "games/rules/rng.py": "the generator's key prefix (b'whitelotus:<n>'): changing it changes every draw",
    "whitelotus/celery.py": "the Celery app is the service's, named after the project",
    "notifications/inbound/pipe.py": "the service's syslog name",
    "pyproject.toml": "the project's name and package (named after the service), and each game's "
    "package data (its board files, shipped with it)",
    "whitelotus/settings.py": "the Django project's package and its local database, named after the service",
}

# places that still name a game, to move into its package (the next steps of issue 28)
PENDING: dict[str, str] = {}

# files that compare a game with ``registry.DEFAULT`` (which is for choosing a game where none
# is named, not for telling one game from the others), and why
DEFAULT_COMPARED = {
    "games/rules/records.py": "a record of the default game has no rules line (one without is its)",
}

SKIPPED_DIRS = ("tests/", "docs/", "bench/", "node_modules/")

# words of a game's vocabulary that are the service's own words too, and why
SERVICE_WORDS = {
    "place": "a player's final place (1st, 2nd) on every page and in every game-over mail",
    "resolve": "Python's and the network's verb (a path, a host, a name)",
    "white": "white space, and the pages' and pictures' colours",
}


def names() -> dict[str, re.Pattern[str]]:
    """Each game's key -> a pattern of the ways it is named."""
    found = {}
    for key, package in registry.PACKAGES.items():
        title = registry.get(key).title
        words = [rf"\b{re.escape(key)}\b", re.escape(package), re.escape(package.replace(".", "/"))]
        words.append(re.escape(title))
        found[key] = re.compile("|".join(words))
    return found


def vocabulary() -> dict[str, re.Pattern[str]]:
    """Each game's key -> a pattern of the words of its own (its word tables, its board's name,
    its name for the seat that begins): five letters or more, in no other registered game's
    words, and not the service's own (:data:`SERVICE_WORDS`)."""
    words: dict[str, set[str]] = {}
    for key in registry.names():
        rules = registry.get(key)
        found = {rules.about.default_board, *str(rules.about.FIRST_SEAT_KEY).split("_")}
        for tables in getattr(rules.notation.words, "TABLES", {}).values():
            for canonical, spellings in tables["en"].items():
                found |= {canonical, *spellings}
        words[key] = {w.lower() for w in found if len(w) >= 5}
    patterns = {}
    for key, own in words.items():
        others = set().union(*(w for k, w in words.items() if k != key))
        own = own - others - set(SERVICE_WORDS)
        if not own:  # a game with no words of its own (a small test game)
            continue
        alternatives = "|".join(sorted(map(re.escape, own)))
        # a word alone or a part of a name (``first_emperor``, ``palaceIcon``): no letter beside it
        patterns[key] = re.compile(rf"(?<![a-z])({alternatives})(?![a-z])", re.IGNORECASE)
    return patterns


def project_files() -> Iterator[str]:
    listed = subprocess.run(
        ["git", "ls-files", "--cached", "--others", "--exclude-standard"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split()
    packages = tuple(p.replace(".", "/") + "/" for p in registry.PACKAGES.values())
    for path in listed:
        if path.startswith(SKIPPED_DIRS) or path.startswith(packages) or "/migrations/" in path:
            continue
        if path.endswith(".py") or path.endswith(".toml") or "/templates/" in path:
            yield path


def _docstrings(tree: ast.AST) -> set[int]:
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
                found.add(id(body[0].value))
    return found


def said(path: str) -> Iterator[tuple[int, str]]:
    """(line, text) of everything ``path`` does that could name a game."""
    text = (ROOT / path).read_text(encoding="utf-8")
    if path.endswith(".py"):
        tree = ast.parse(text)
        docstrings = _docstrings(tree)
        for node in ast.walk(tree):
            line = getattr(node, "lineno", 0)
            if isinstance(node, ast.Constant) and isinstance(node.value, str | bytes):
                if id(node) not in docstrings:
                    value = node.value
                    yield line, value.decode("latin-1") if isinstance(value, bytes) else value
            elif isinstance(node, ast.Name):
                yield line, node.id
            elif isinstance(node, ast.Attribute):
                yield line, node.attr
            elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                yield line, node.name
            elif isinstance(node, ast.ImportFrom):
                yield line, " ".join([node.module or "", *(a.name for a in node.names)])
            elif isinstance(node, ast.Import):
                yield line, " ".join(a.name for a in node.names)
    else:
        if "/templates/" in path:
            text = re.sub(r"\{#.*?#\}", "", text, flags=re.S)
        for number, line in enumerate(text.splitlines(), 1):
            if not line.lstrip().startswith("#"):  # a TOML comment
                yield number, line


def naming(path: str) -> list[str]:
    found = []
    patterns = names()
    for line, text in said(path):
        text = SERVICE_NAME.sub("", text)
        for key, pattern in patterns.items():
            if pattern.search(text):
                found.append(f"{path}:{line}: names {key}: {text.strip()[:90]!r}")
    return found


def test_no_game_is_named_outside_its_package_and_the_registry():
    named = {path: found for path in project_files() if (found := naming(path))}
    unexplained = [
        line for path, lines in named.items() if path not in ALLOWED and path not in PENDING for line in lines
    ]
    assert unexplained == [], "a game is named outside its package:\n" + "\n".join(unexplained)
    stale = sorted((set(ALLOWED) | set(PENDING)) - set(named))
    assert stale == [], f"these no longer name a game: take them off the lists: {stale}"


def test_no_game_s_own_words_are_said_outside_its_package():
    # the service's pictures, words, defaults and commands say nothing of emperors, palaces or
    # China: a game's words are the game's, said through its words and its templates
    patterns = vocabulary()
    said_words = [
        f"{path}:{line}: {key}'s {found.group(1)!r}: {text.strip()[:80]!r}"
        for path in project_files()
        if path not in ALLOWED
        for line, text in said(path)
        for key, pattern in patterns.items()
        if (found := pattern.search(SERVICE_NAME.sub("", text)))
    ]
    assert said_words == [], "a game's own words outside its package:\n" + "\n".join(said_words)


def test_a_game_s_vocabulary_is_its_own_words():
    words = vocabulary()
    assert words["whitelotus"].search("first_emperor") and words["whitelotus"].search("Palace")
    assert words["whitelotus"].search("china") and not words["whitelotus"].search("red")
    assert words["verbotenestadt"].search("trousers") and not words["verbotenestadt"].search("take")
    assert not any(p.search("your final place") for p in words.values())


def compares_with_default(path: str) -> list[int]:
    """The lines of ``path`` that compare something with ``registry.DEFAULT``."""
    tree = ast.parse((ROOT / path).read_text(encoding="utf-8"))
    return [
        node.lineno
        for node in ast.walk(tree)
        if isinstance(node, ast.Compare)
        and any(
            isinstance(side, ast.Attribute)
            and side.attr == "DEFAULT"
            and isinstance(side.value, ast.Name)
            and side.value.id == "registry"
            for side in [node.left, *node.comparators]
        )
    ]


def test_the_default_game_is_for_choosing_a_game_not_for_telling_games_apart():
    compared = {
        p: lines for p in project_files() if p.endswith(".py") and (lines := compares_with_default(p))
    }
    unexplained = {p: lines for p, lines in compared.items() if p not in DEFAULT_COMPARED}
    assert unexplained == {}, f"a game is told apart by being the default: {unexplained}"
    stale = sorted(set(DEFAULT_COMPARED) - set(compared))
    assert stale == [], f"these no longer compare with registry.DEFAULT: take them off the list: {stale}"


@pytest.mark.parametrize(
    ("text", "names_it"),
    [
        ('if rules_name == "whitelotus"', True),
        ("from games.rules.verbotenestadt import words", True),
        ("Die Verbotene Stadt", True),
        ("White Lotus by mail", False),
        ("whitelotus.settings", False),
        ("the default game", False),
    ],
)
def test_the_check_tells_a_game_s_name_from_the_service_s(tmp_path, text, names_it):
    patterns = names()
    text = SERVICE_NAME.sub("", text)
    assert any(p.search(text) for p in patterns.values()) is names_it
