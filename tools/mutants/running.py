"""Runs the tests against one mutant at a time in a copy of the repository, never in it."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

from tools.mutants.catalogue import Mutant, change, mutated_source

SKIPPED = shutil.ignore_patterns(
    ".git",
    ".venv",
    "node_modules",
    "__pycache__",
    ".mypy_cache",
    ".ruff_cache",
    ".hypothesis",
    ".wt",
    "*.pyc",
)


# pytest's exit codes: 0 all passed, 1 a test failed, 2 collection stopped (the mutated module
# no longer imports); 3, 4 and 5 (internal error, usage error, no tests) are the tool's fault
PYTEST_VERDICTS = {0: "passed", 1: "failed", 2: "broken"}


@dataclass(frozen=True)
class Outcome:
    mutant: Mutant
    killed: bool
    why: str  # "failed", "broken", "timeout" or "survived"
    seconds: float
    change: str  # the line it changed, read when it ran (the worktree may have moved on since)


def sandbox(root: Path, where: Path) -> Path:
    """A copy of the repository's files (no .git, no .venv) in ``where``."""
    copy = where / "repo"
    shutil.copytree(root, copy, ignore=SKIPPED, symlinks=True)
    return copy


def pytest_command(tests: list[Path], deselect: str) -> list[str]:
    command = [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-n", "0", "-x", "-q"]
    command += ["--no-header", "-m", "not slow"]
    if deselect:
        command += ["-k", deselect]
    return command + [str(t) for t in tests]


def run_tests(copy: Path, tests: list[Path], deselect: str, timeout: float) -> tuple[str, float]:
    """ "passed", "failed", "broken" or "timeout", and the seconds it took. No bytecode is written, so a
    change that keeps a file's size and second cannot be hidden by a stale ``.pyc``."""
    env = {**os.environ, "PYTHONDONTWRITEBYTECODE": "1", "PYTHONHASHSEED": "0"}
    env.pop("PYTEST_ADDOPTS", None)
    started = time.monotonic()
    process = subprocess.Popen(
        pytest_command(tests, deselect),
        cwd=copy,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    try:
        code = process.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        process.wait()
        return "timeout", time.monotonic() - started
    if code not in PYTEST_VERDICTS:
        raise RuntimeError(f"pytest could not run {tests} (exit code {code})")
    return PYTEST_VERDICTS[code], time.monotonic() - started


def try_mutant(copy: Path, mutant: Mutant, tests: list[Path], deselect: str, timeout: float) -> Outcome:
    """Applies ``mutant`` in the copy, runs ``tests`` (paths inside the copy), puts the file back."""
    target = copy / mutant.path
    original = target.read_text(encoding="utf-8")
    mutated = mutated_source(copy, mutant)
    try:
        target.write_text(mutated, encoding="utf-8")
        result, seconds = run_tests(copy, tests, deselect, timeout)
    finally:
        target.write_text(original, encoding="utf-8")
    why = "survived" if result == "passed" else result
    return Outcome(mutant, result != "passed", why, seconds, change(original, mutated))
