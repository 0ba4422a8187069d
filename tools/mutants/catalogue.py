"""Every mutant cosmic-ray's operators can make in a package, and a seeded sample of them."""

from __future__ import annotations

import difflib
import random
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from cosmic_ray import plugins
from cosmic_ray.ast import ast_nodes, get_ast
from cosmic_ray.mutating import mutate_code


@dataclass(frozen=True)
class Mutant:
    """One change: the ``occurrence``-th place in ``path`` where ``operator`` applies."""

    path: str  # relative to the repository's root
    operator: str
    occurrence: int
    line: int

    @property
    def family(self) -> str:
        """The kind of change: ``core/ReplaceBinaryOperator_Add_Sub`` is a binary operator's."""
        return self.operator.split("_", 1)[0]


def operators() -> list[tuple[str, Any]]:
    """cosmic-ray's core operators that need no arguments, by name."""
    found = []
    for name in sorted(plugins.operator_names()):
        cls = plugins.get_operator(name)
        if name.startswith("core/") and not cls.arguments():
            found.append((name, cls()))
    return found


def every_mutant(root: Path, package: Path) -> list[Mutant]:
    """Every mutant of each module under ``package`` (a directory below ``root``, or one module)."""
    ops = operators()
    found: list[Mutant] = []
    for module in sorted(package.rglob("*.py")) if package.is_dir() else [package]:
        tree = get_ast(module.read_text(encoding="utf-8"))
        nodes = list(ast_nodes(tree))
        relative = module.relative_to(root).as_posix()
        for name, op in ops:
            positions = (start for node in nodes for start, _ in op.mutation_positions(node))
            found.extend(Mutant(relative, name, n, start[0]) for n, start in enumerate(positions))
    return found


def sample(mutants: list[Mutant], size: int | None, seed: int) -> list[Mutant]:
    """``size`` mutants drawn with ``seed`` (all when ``size`` is None or not smaller).

    The draw is over places first: a ``+`` can become any of eleven other operators and a
    ``<`` any of nine, so drawing over mutants would be mostly operator swaps; each place and
    kind of change (a file, a line, an operator family) is one candidate, and one of its
    mutants is picked with the same seed."""
    rng = random.Random(seed)
    places: dict[tuple[str, int, str], list[Mutant]] = {}
    for m in mutants:
        places.setdefault((m.path, m.line, m.family), []).append(m)
    choices = [rng.choice(group) for _, group in sorted(places.items())]
    if size is None or size >= len(choices):
        return choices
    return sorted(rng.sample(choices, size), key=lambda m: (m.path, m.line, m.operator, m.occurrence))


def mutated_source(root: Path, mutant: Mutant) -> str:
    """The module's text with the mutant applied."""
    ops = dict(operators())
    source = (root / mutant.path).read_text(encoding="utf-8")
    code = mutate_code(source, ops[mutant.operator], mutant.occurrence)
    if code is None:
        raise ValueError(f"{mutant} applies nowhere in {mutant.path}")
    return str(code)


def change(before: str, after: str) -> str:
    """The mutant as a one-line diff: ``old  ->  new`` of the first line it changes."""
    old = before.splitlines()
    new = after.splitlines()
    for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(a=old, b=new, autojunk=False).get_opcodes():
        if tag != "equal":
            gone = " / ".join(line.strip() for line in old[i1:i2]) or "(nothing)"
            came = " / ".join(line.strip() for line in new[j1:j2]) or "(nothing)"
            return f"{gone}  ->  {came}"
    return "(no change)"
