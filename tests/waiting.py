"""Waiting in tests: on a condition, with a generous deadline, and a failure that names what was
awaited.

A test that races threads, workers, brokers, Postfix or a browser must pass on a busy 2-core
machine (load average 6 and more), so it never sleeps a fixed time to "let things finish" and
never gives up after a deadline sized for an idle laptop.  It polls a condition; the deadline
is long (a minute by default, ``WL_TEST_WAIT`` seconds if set) because a deadline only ends a
test that has already failed: a passing test stops waiting as soon as its condition holds.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable

#: seconds a condition may take before the test fails: long, because only failures wait it out
PATIENCE = float(os.environ.get("WL_TEST_WAIT", "90"))


def wait_for(condition: Callable[[], object], what: str, timeout: float | None = None) -> None:
    """Poll ``condition`` until it is true; fail naming ``what`` after ``timeout`` seconds
    (:data:`PATIENCE` when not given).  ``timeout`` is a floor: a busy machine never gets less
    than :data:`PATIENCE`."""
    limit = max(timeout or 0.0, PATIENCE)
    start = time.monotonic()
    pause = 0.02
    while not condition():
        waited = time.monotonic() - start
        if waited > limit:
            raise AssertionError(f"waited {waited:.0f} s for {what}, in vain")
        time.sleep(pause)
        pause = min(pause * 1.5, 0.25)


def idle(busy: Callable[[], bool], what: str, quiet: float = 1.0, timeout: float | None = None) -> None:
    """Wait until ``busy()`` has been false for ``quiet`` seconds in a row: for "every task has
    finished" where one look could fall between two tasks (instead of a fixed sleep)."""
    since = [time.monotonic()]

    def calm() -> bool:
        now = time.monotonic()
        if busy():
            since[0] = now
            return False
        return now - since[0] >= quiet

    wait_for(calm, f"{what} to be over", timeout)
