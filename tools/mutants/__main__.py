"""``python -m tools.mutants <game> [--sample N] [--seed S] [--module M] [--jobs J] [--timeout T]``
(``scripts/mutants``): a seeded sample of mutants of ``games/rules/<game>/``, each run against
the game's fast engine tests; prints the score, each module's score and every survivor.
``--again REPORT`` runs the survivors a saved report printed, found again in today's source."""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from games.rules import registry
from tools.mutants.catalogue import Mutant, every_mutant, sample, survivors_of
from tools.mutants.picking import Imports, covering_tests, game_tests, module_name
from tools.mutants.report import lines
from tools.mutants.running import Outcome, run_tests, sandbox, try_mutant

ROOT = Path(__file__).resolve().parents[2]


def arguments(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="scripts/mutants", description=__doc__)
    parser.add_argument("game", choices=sorted(registry.PACKAGES))
    parser.add_argument("--sample", type=int, default=None, help="how many mutants (default: all)")
    parser.add_argument("--seed", type=int, default=0, help="the sample's seed (default 0)")
    parser.add_argument("--module", default=None, help="only this module of the package (views.py)")
    parser.add_argument(
        "--tests",
        nargs="+",
        type=Path,
        default=None,
        help="only these test files (a quick look at one module)",
    )
    parser.add_argument(
        "--again",
        type=Path,
        default=None,
        help="a run's printed report: run its survivors again (after new tests)",
    )
    parser.add_argument("--jobs", type=int, default=1, help="mutants run at once (default 1)")
    parser.add_argument(
        "--timeout", type=float, default=None, help="seconds per mutant (default: 3 x the clean run)"
    )
    return parser.parse_args(argv)


def deselection(game: str, shared: bool) -> str:
    """Tests every game shares run once per registered game; only this game's runs count."""
    others = [name for name in sorted(registry.PACKAGES) if name != game]
    return f"not ({' or '.join(others)})" if shared and others else ""


def ordered(copy: Path, tests: list[Path], mutant: Mutant) -> list[Path]:
    """The files that import the mutated module themselves first: they fail soonest."""
    imports = Imports(copy)
    chosen = covering_tests(copy, tests, copy / mutant.path)
    name = module_name(copy, copy / mutant.path)
    return sorted(chosen, key=lambda t: (name not in imports.direct(t), t.name))


def main(argv: list[str] | None = None) -> int:
    args = arguments(argv)
    with tempfile.TemporaryDirectory(prefix="mutants-") as tmp:
        # the copies are taken first and the mutants read from them: the worktree may change
        copies = [sandbox(ROOT, Path(tmp) / str(n)) for n in range(max(1, args.jobs))]
        package = copies[0].joinpath(*registry.PACKAGES[args.game].split("."))
        if args.module:
            package = package / args.module
        if args.again:
            chosen, gone = survivors_of(copies[0], args.again.read_text(encoding="utf-8"))
            for text in gone:
                print(f"  gone     {text}  (its line or change is no longer in the source)", file=sys.stderr)
        else:
            chosen = sample(every_mutant(copies[0], package), args.sample, args.seed)
        tests = game_tests(copies[0], args.game)
        if args.tests:
            tests = [copies[0] / t for t in args.tests]
        deselect = deselection(args.game, not (copies[0] / "tests" / "engine" / args.game).is_dir())
        result, clean = run_tests(copies[0], tests, deselect, timeout=3600)
        if result != "passed":
            print(f"mutants {args.game}: the tests fail without any mutant; fix them first", file=sys.stderr)
            return 2
        timeout = args.timeout or max(30.0, 3 * clean)
        print(f"{len(chosen)} mutants, clean run {clean:.0f}s, timeout {timeout:.0f}s", file=sys.stderr)
        free = list(copies)

        def one(mutant: Mutant) -> Outcome:
            copy = free.pop()
            try:
                moved = [copy / t.relative_to(copies[0]) for t in tests]
                outcome = try_mutant(copy, mutant, ordered(copy, moved, mutant), deselect, timeout)
            finally:
                free.append(copy)
            print(f"  {outcome.why:8} {outcome.seconds:5.1f}s {mutant.path}:{mutant.line}", file=sys.stderr)
            return outcome

        started = time.monotonic()
        with ThreadPoolExecutor(max_workers=len(copies)) as pool:
            outcomes = list(pool.map(one, chosen))
    print("\n".join(lines(args.game, outcomes)))
    print(f"({time.monotonic() - started:.0f}s, seed {args.seed})", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
