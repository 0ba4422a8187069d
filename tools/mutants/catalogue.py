"""Every mutant cosmic-ray's operators can make in a package, and a seeded sample of them."""

from __future__ import annotations

import ast
import difflib
import random
import re
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


Span = tuple[tuple[int, int], tuple[int, int]]


def annotation_spans(source: str) -> list[Span]:
    """Where the type annotations are. With ``from __future__ import annotations`` (every
    module here) they are never evaluated, so a change inside one (``int | None`` made
    ``int - None``) cannot change what the code does: such mutants are left out."""
    spans: list[Span] = []
    for node in ast.walk(ast.parse(source)):
        found: list[ast.expr | None] = []
        if isinstance(node, ast.arg):
            found = [node.annotation]
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            found = [node.returns]
        elif isinstance(node, ast.AnnAssign):
            found = [node.annotation]
        for a in found:
            if a is not None and a.end_lineno is not None and a.end_col_offset is not None:
                spans.append(((a.lineno, a.col_offset), (a.end_lineno, a.end_col_offset)))
    return spans


def every_mutant(root: Path, package: Path) -> list[Mutant]:
    """Every mutant of each module under ``package`` (a directory below ``root``, or one module)."""
    ops = operators()
    found: list[Mutant] = []
    for module in sorted(package.rglob("*.py")) if package.is_dir() else [package]:
        source = module.read_text(encoding="utf-8")
        nodes = list(ast_nodes(get_ast(source)))
        typing = annotation_spans(source) if "from __future__ import annotations" in source else []
        relative = module.relative_to(root).as_posix()
        for name, op in ops:
            positions = (start for node in nodes for start, _ in op.mutation_positions(node))
            found.extend(
                Mutant(relative, name, n, start[0])
                for n, start in enumerate(positions)
                if not any(first <= start < last for first, last in typing)
            )
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


def survivors_of(root: Path, report: str) -> tuple[list[Mutant], list[str]]:
    """The survivors a run printed (``path:line: old  ->  new  [operator]``), found again in
    today's source: the same operator making the same change, on the same line or, when the
    file has moved, the nearest line that has it. Also the lines of those no longer found."""
    found: list[Mutant] = []
    gone: list[str] = []
    everything: dict[str, list[Mutant]] = {}
    for text in report.splitlines():
        if not text.startswith("  ") or "  ->  " not in text or not text.rstrip().endswith("]"):
            continue
        where, _, rest = text.strip().partition(": ")
        path, _, line = where.rpartition(":")
        shown, _, operator = rest.rstrip("]").rpartition("  [")
        if not (root / path).is_file() or not line.isdigit():
            gone.append(text.strip())
            continue
        source = (root / path).read_text(encoding="utf-8")
        if path not in everything:
            everything[path] = every_mutant(root, root / path)
        candidates = sorted(
            (m for m in everything[path] if m.operator == operator), key=lambda m: abs(m.line - int(line))
        )  # nearest first: applying a mutant to read its change is the slow part
        wanted = _uncommented(shown)
        again = next(
            (m for m in candidates if _uncommented(change(source, mutated_source(root, m))) == wanted), None
        )
        if again is not None:
            found.append(again)
        else:
            gone.append(text.strip())
    return found, gone


def _uncommented(shown: str) -> str:
    """A change as ``old  ->  new`` without the lines' comments (one added since the report
    was printed, to say a mutant is equivalent, does not make it another mutant)."""
    return "  ->  ".join(re.sub(r"\s+#.*$", "", side) for side in shown.split("  ->  "))
