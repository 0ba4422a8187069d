"""No two modules of the project import each other, even round a longer circle, and no import
inside a function reaches a higher floor than its module's (the floors of ``pyproject.toml``'s
``floors`` contract, docs/ARCHITECTURE.md).

Every import counts: at the top of a module, inside a function (where one was often put to
dodge a circle: it still ties the two modules together) or under ``if TYPE_CHECKING``.  The
import graph is read from the source with ``ast``; relative imports are resolved, and
``from package import name`` is an import of the submodule ``package.name`` where there is one.
"""

from __future__ import annotations

import ast
import tomllib
from collections.abc import Iterator
from pathlib import Path

from tools.importcontracts import Floors

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("games", "notifications", "leagues", "whitelotus")


def modules(root: Path = ROOT, packages: tuple[str, ...] = PACKAGES) -> dict[str, Path]:
    """Dotted name -> source file of every module of ``packages`` under ``root``."""
    found = {}
    for package in packages:
        for path in sorted((root / package).rglob("*.py")):
            parts = path.relative_to(root).with_suffix("").parts
            if "migrations" in parts:
                continue
            if parts[-1] == "__init__":
                parts = parts[:-1]
            found[".".join(parts)] = path
    return found


def _base(name: str, path: Path, level: int) -> str:
    """The package a relative import of ``level`` dots in module ``name`` starts from."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    for _ in range(level - 1):
        package = package.rpartition(".")[0]
    return package


def imported(name: str, path: Path, known: dict[str, Path], *, inside: bool = False) -> Iterator[str]:
    """The modules of ``known`` that module ``name`` imports, wherever in it (``inside``: only
    in a function's body)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    nodes = (
        [
            n
            for f in ast.walk(tree)
            if isinstance(f, ast.FunctionDef | ast.AsyncFunctionDef)
            for n in ast.walk(f)
        ]
        if inside
        else list(ast.walk(tree))
    )
    for node in nodes:
        targets: list[str] = []
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            module = node.module or ""
            if node.level:
                base = _base(name, path, node.level)
                module = f"{base}.{module}" if module else base
            targets = [f"{module}.{alias.name}" for alias in node.names] + [module]
            # ``from package import submodule`` imports the submodule; ``from module import
            # name`` imports the module
            targets = [t for t in targets[:-1] if t in known] or [module]
        for target in targets:
            while target and target not in known:  # ``import a.b.c`` of a name inside a.b
                target = target.rpartition(".")[0]
            if target and target != name:
                yield target


def graph(known: dict[str, Path]) -> dict[str, set[str]]:
    return {name: set(imported(name, path, known)) for name, path in known.items()}


def circles(edges: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected groups of more than one module (Tarjan), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for other in sorted(edges.get(node, ())):
            if other not in index:
                visit(other)
                low[node] = min(low[node], low[other])
            elif other in on_stack:
                low[node] = min(low[node], index[other])
        if low[node] == index[node]:
            group = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                group.append(member)
                if member == node:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    for node in sorted(edges):
        if node not in index:
            visit(node)
    return sorted(found)


def floors() -> Floors:
    """The floors of pyproject.toml's ``floors`` contract."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    (contract,) = [c for c in config["tool"]["importlinter"]["contracts"] if c["type"] == "floors"]
    return Floors(contract["floors"])


def test_no_import_inside_a_function_reaches_a_higher_floor() -> None:
    # an import put inside a function to dodge the contract still ties the two modules together
    known, house = modules(), floors()
    upward = [
        f"{name} -> {target}"
        for name, path in known.items()
        for target in imported(name, path, known, inside=True)
        if not house.allowed(name, target)
    ]
    assert upward == []


def test_a_floor_holds_its_own_room_and_what_is_below() -> None:
    house = Floors(["site", "mail | web", "store + other.models", "rules"])
    assert house.allowed("web.views", "store.x") and house.allowed("mail.a", "mail.b")
    assert house.allowed("other.models", "store.rows") and house.allowed("site", "rules.base")
    assert not house.allowed("mail.a", "web.views")  # rooms of a floor are apart
    assert not house.allowed("store", "web") and not house.allowed("rules.base", "other.models")
    assert house.place("other.views") is None and house.allowed("other.views", "site")


def test_no_module_of_the_project_is_in_an_import_circle() -> None:
    found = circles(graph(modules()))
    assert found == [], "import circles (each group imports itself round):\n" + "\n".join(
        " <-> ".join(group) for group in found
    )


def _package(root: Path, files: dict[str, str]) -> dict[str, Path]:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return modules(root, ("pkg",))


def test_a_circle_through_an_import_inside_a_function_is_found(tmp_path: Path) -> None:
    known = _package(
        tmp_path,
        {
            "pkg/__init__.py": "",
            "pkg/bots.py": "def enqueue():\n    from .tasks import play\n",
            "pkg/tasks.py": "from . import bots\n",
            "pkg/rules/__init__.py": "",
            "pkg/rules/engine.py": "def hint():\n    from .menu import describe\n",
            "pkg/rules/menu.py": "from pkg.rules.engine import legal\n",
            "pkg/rules/entry.py": "from ..rules import records\n",
            "pkg/rules/records.py": "import pkg.rules.entry.Reader\n",
            "pkg/rules/alone.py": "from . import engine\nfrom pkg import tasks\n",
        },
    )
    assert circles(graph(known)) == [
        ["pkg.bots", "pkg.tasks"],
        ["pkg.rules.engine", "pkg.rules.menu"],
        ["pkg.rules.entry", "pkg.rules.records"],
    ]


def test_imports_one_way_make_no_circle_and_a_longer_circle_is_one_group(tmp_path: Path) -> None:
    known = _package(
        tmp_path,
        {
            "pkg/__init__.py": "from . import a\n",  # a package importing its own module
            "pkg/a.py": "from .b import f\n",
            "pkg/b.py": "from pkg.c import g\n",
            "pkg/c.py": "import os\n",
        },
    )
    assert circles(graph(known)) == []
    (tmp_path / "pkg/c.py").write_text("if True:\n    from .a import h\n", encoding="utf-8")
    assert circles(graph(known)) == [["pkg.a", "pkg.b", "pkg.c"]]
