"""Nothing a test starts outlives it, and no task runs where no test expects one.

Three checks, wired up in ``tests/conftest.py``:

* **Threads.**  Every thread a test starts (a Celery worker, an SMTP listener, a player) must
  have ended when the test's fixtures are torn down; a thread still alive after a generous
  grace is named in the test's failure.  Threads the test run keeps on purpose for the whole
  session are known by name (:data:`SESSION_THREADS`).
* **Tasks.**  A Celery task may run only inside :func:`worker_running` (a test's real worker,
  which records the test that started it) or eagerly in the test's own thread.  A task run by a
  worker for another test, or after its test ended, is recorded and fails the test it ran in.
* **The broker.**  Each xdist worker process has its own Redis database (:func:`own_redis`),
  so a task one process publishes can never reach another process's worker.
"""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from tests.waiting import PATIENCE

#: the test running now in this process (its node id), set by conftest around each test
current: list[str] = [""]
#: the test whose real worker is running, if any
_worker_owner: list[str | None] = [None]
#: tasks that ran where no test expected them: (task, test that owned the worker, test now)
strays: list[str] = []
_connected: list[bool] = [False]

#: threads a test may start that live on for the whole session by design (name prefixes)
SESSION_THREADS = (
    "pydevd",  # a debugger
    "ThreadPoolExecutor",  # asyncio's default executor, kept by the loop for the session
    "asyncio_",  # the same, as asyncio names them
)


def own_redis(url: str) -> str:
    """``url`` with a Redis database of this xdist worker's own: gw0 the URL's database, gw1 the
    one below it, and so on (Redis has 16)."""
    worker = os.environ.get("PYTEST_XDIST_WORKER", "")
    if not url.startswith("redis://") or not worker.startswith("gw"):
        return url
    base, _, db = url.rpartition("/")
    number = int(db) if db.isdigit() else 0
    return f"{base}/{(number - int(worker[2:])) % 16}"


def _task_started(sender: Any = None, task_id: str | None = None, task: Any = None, **_: Any) -> None:
    owner = _worker_owner[0]
    if getattr(getattr(task, "request", None), "is_eager", False):
        return  # run eagerly, in the thread that asked for it
    if owner is None or owner != current[0]:
        name = getattr(task, "name", sender)
        strays.append(f"task {name}[{task_id}] of the worker of {owner or 'no test'} ran during {current[0]}")


@contextmanager
def worker_running() -> Iterator[None]:
    """Around a test's real worker: tasks it runs belong to the test that started it."""
    if not _connected[0]:
        from celery.signals import task_prerun

        task_prerun.connect(_task_started, weak=False)
        _connected[0] = True
    _worker_owner[0] = current[0]
    try:
        yield
    finally:
        _worker_owner[0] = None


def threads_left(before: set[threading.Thread]) -> list[threading.Thread]:
    """Threads started since ``before`` that are still running after a grace to end, but for
    the session's own."""
    deadline = time.monotonic() + PATIENCE
    while True:
        left = [
            t
            for t in threading.enumerate()
            if t not in before and t.is_alive() and not t.name.startswith(SESSION_THREADS)
        ]
        if not left or time.monotonic() > deadline:
            return left
        left[0].join(0.2)


def take_strays() -> list[str]:
    found = list(strays)
    strays.clear()
    return found
