"""What a run prints: the score, the score of each module, and each survivor as a one-line diff."""

from __future__ import annotations

from collections.abc import Iterable

from .running import Outcome


def percent(killed: int, total: int) -> str:
    return f"{100 * killed / total:.0f}%" if total else "n/a"


def lines(game: str, outcomes: Iterable[Outcome]) -> list[str]:
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
        out.append(f"  {o.mutant.path}:{o.mutant.line}: {o.change}  [{o.mutant.operator}]")
    return out
