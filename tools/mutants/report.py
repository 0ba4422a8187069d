"""What a run prints: the score, the score of each module, and each survivor as a one-line diff."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from .catalogue import change, mutated_source
from .running import Outcome


def percent(killed: int, total: int) -> str:
    return f"{100 * killed / total:.0f}%" if total else "n/a"


def lines(game: str, root: Path, outcomes: Iterable[Outcome]) -> list[str]:
    done = sorted(outcomes, key=lambda o: (o.mutant.path, o.mutant.line, o.mutant.operator))
    killed = sum(o.killed for o in done)
    out = [f"mutants {game}: {killed} of {len(done)} killed, score {percent(killed, len(done))}"]
    modules: dict[str, list[Outcome]] = {}
    for o in done:
        modules.setdefault(o.mutant.path, []).append(o)
    for path, group in modules.items():
        k = sum(o.killed for o in group)
        out.append(f"  {path}: {k} of {len(group)} killed, score {percent(k, len(group))}")
    survivors = [o for o in done if not o.killed]
    if survivors:
        out.append("survivors:")
    for o in survivors:
        before = (root / o.mutant.path).read_text(encoding="utf-8")
        diff = change(before, mutated_source(root, o.mutant))
        out.append(f"  {o.mutant.path}:{o.mutant.line}: {diff}  [{o.mutant.operator}]")
    return out
