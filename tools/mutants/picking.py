"""Which of a game's test files can notice a change to one module: those that import it,
directly or through other modules of the repository."""

from __future__ import annotations

import ast
from functools import cache
from pathlib import Path

from games.rules import registry

SLOW = "test_properties.py"  # the random-game property tests: thousands of games, left out


def game_tests(root: Path, game: str) -> list[Path]:
    """The game's fast engine tests: ``tests/engine/<game>/`` when it has its own folder,
    else the files directly in ``tests/engine/`` (the first game's, beside the tests every game
    shares); never the random-game property tests."""
    own = root / "tests" / "engine" / game
    files = (
        sorted(own.rglob("test_*.py"))
        if own.is_dir()
        else sorted((root / "tests" / "engine").glob("test_*.py"))
    )
    return [f for f in files if f.name != SLOW]


def module_name(root: Path, path: Path) -> str:
    parts = list(path.relative_to(root).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


class Imports:
    """The repository's own modules each file imports, read from its source (no import runs).

    The registry imports each game's package by name at run time, so a file that imports the
    registry counts as importing every registered game."""

    def __init__(self, root: Path) -> None:
        self.root = root

    def path(self, module: str) -> Path | None:
        base = self.root.joinpath(*module.split("."))
        for candidate in (base.with_suffix(".py"), base / "__init__.py"):
            if candidate.is_file():
                return candidate
        return None

    def _with_parents(self, module: str) -> set[str]:
        parts = module.split(".")
        return {".".join(parts[:n]) for n in range(1, len(parts) + 1) if self.path(".".join(parts[:n]))}

    @cache  # noqa: B019 - one Imports per run; the cache dies with it
    def direct(self, path: Path) -> frozenset[str]:
        tree = ast.parse(path.read_text(encoding="utf-8"))
        here = module_name(self.root, path)
        package = here if path.name == "__init__.py" else here.rpartition(".")[0]
        found: set[str] = set()
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                for alias in node.names:
                    found |= self._with_parents(alias.name)
            elif isinstance(node, ast.ImportFrom):
                base = package.split(".")[: len(package.split(".")) - node.level + 1] if node.level else []
                stem = ".".join([*base, *([node.module] if node.module else [])])
                found |= self._with_parents(stem)
                for alias in node.names:
                    found |= self._with_parents(f"{stem}.{alias.name}")
        if "games.rules.registry" in found:
            for package_name in registry.PACKAGES.values():
                found |= self._with_parents(package_name)
        found.discard(here)
        return frozenset(found)

    def closure(self, path: Path) -> set[str]:
        seen: set[str] = set()
        todo = [path]
        while todo:
            for module in self.direct(todo.pop()):
                if module not in seen:
                    seen.add(module)
                    where = self.path(module)
                    if where is not None:
                        todo.append(where)
        return seen


def covering_tests(root: Path, tests: list[Path], module: Path) -> list[Path]:
    """The test files among ``tests`` that import ``module``; all of them when none does (it is
    reached some way the source does not say)."""
    imports = Imports(root)
    name = module_name(root, module)
    chosen = [t for t in tests if name in imports.closure(t)]
    return chosen or tests
