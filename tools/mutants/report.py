"""What a run prints: the score, the score over the rules modules and over the rest, the score
of each module, and each survivor as a one-line diff."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import PurePosixPath

from tools.mutants.running import Outcome

# The rules proper, by module name in either game: the engine, the state and its data, the
# moves of each phase (White Lotus splits them by phase), who decides what, the views, the
# defaults, the notation and its words, the scoring, and the dice and chance. Everything else
# (pictures, text boards, menus, narration, mail and page words, the bots and self-play, the
# package's contract glue) draws or words a game for people or plays it.
RULES_MODULES = frozenset(
    {
        "engine",
        "state",
        "board",
        "constants",
        "common",
        "flow",
        "placement",
        "contest",
        "rebellion",
        "income",
        "tiles",
        "moves",
        "decisions",
        "views",
        "defaults",
        "commands",
        "notation",
        "words",
        "record",
        "scoring",
        "dice",
        "rng_draws",
        "chancetext",
    }
)


def percent(killed: int, total: int) -> str:
    return f"{100 * killed / total:.0f}%" if total else "n/a"


def is_rules(path: str) -> bool:
    return PurePosixPath(path).stem in RULES_MODULES


def lines(game: str, outcomes: Iterable[Outcome]) -> list[str]:
    done = sorted(outcomes, key=lambda o: (o.mutant.path, o.mutant.line, o.mutant.operator))
    killed = sum(o.killed for o in done)
    out = [f"mutants {game}: {killed} of {len(done)} killed, score {percent(killed, len(done))}"]
    for title, group in (
        ("rules modules", [o for o in done if is_rules(o.mutant.path)]),
        ("drawing, words and players", [o for o in done if not is_rules(o.mutant.path)]),
    ):
        k = sum(o.killed for o in group)
        out.append(f"  {title}: {k} of {len(group)} killed, score {percent(k, len(group))}")
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
