"""The checks that keep one test's threads and tasks out of the next (tests/hygiene.py) do
catch what they are for."""

from __future__ import annotations

import threading
from types import SimpleNamespace

import pytest

from tests import hygiene


def test_a_thread_still_running_after_its_test_is_named(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(hygiene, "PATIENCE", 0.3)
    before = set(threading.enumerate())
    stop = threading.Event()
    lingering = threading.Thread(target=stop.wait, name="lingering-listener", daemon=True)
    lingering.start()
    try:
        assert [t.name for t in hygiene.threads_left(before)] == ["lingering-listener"]
    finally:
        stop.set()
        lingering.join()
    assert hygiene.threads_left(before) == []


def test_a_thread_that_ends_within_the_grace_is_not_held_against_its_test() -> None:
    before = set(threading.enumerate())
    finishing = threading.Timer(0.2, lambda: None)
    finishing.start()
    assert hygiene.threads_left(before) == []


def _run(task_id: str, eager: bool) -> None:
    task = SimpleNamespace(name="notifications.tasks.send_mails", request=SimpleNamespace(is_eager=eager))
    hygiene._task_started(task_id=task_id, task=task)


def test_a_task_run_by_a_worker_outside_its_test_is_caught() -> None:
    hygiene.take_strays()
    _run("t-1", eager=False)  # no test's worker is running: a worker left over ran it
    with hygiene.worker_running():
        _run("t-2", eager=False)  # this test's own worker: fine
        owner, hygiene.current[0] = hygiene.current[0], "tests/other.py::test_next"
        try:
            _run("t-3", eager=False)  # the worker outlived its test into the next one
        finally:
            hygiene.current[0] = owner
    strays = hygiene.take_strays()
    assert len(strays) == 2
    assert "send_mails[t-1] of the worker of no test" in strays[0]
    assert "[t-3]" in strays[1] and "ran during tests/other.py::test_next" in strays[1]


def test_a_task_run_eagerly_by_the_test_itself_is_expected() -> None:
    hygiene.take_strays()
    _run("t-4", eager=True)
    assert hygiene.take_strays() == []


def test_each_xdist_worker_has_a_redis_database_of_its_own(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PYTEST_XDIST_WORKER", "gw0")
    assert hygiene.own_redis("redis://127.0.0.1:6379/15") == "redis://127.0.0.1:6379/15"
    monkeypatch.setenv("PYTEST_XDIST_WORKER", "gw1")
    assert hygiene.own_redis("redis://127.0.0.1:6379/15") == "redis://127.0.0.1:6379/14"
    monkeypatch.delenv("PYTEST_XDIST_WORKER")
    assert hygiene.own_redis("redis://127.0.0.1:6379/15") == "redis://127.0.0.1:6379/15"


def test_a_failure_whose_traceback_cannot_be_formatted_is_still_reported(
    request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch
) -> None:
    """CPython 3.11.7's AST race (gh-106905) inside pytest's report of a failure: the run goes
    on with the failure told in one line instead of crashing the xdist worker."""
    from tests import conftest

    call = pytest.CallInfo.from_call(lambda: 1 / 0, when="call")
    race = SystemError("AST constructor recursion depth mismatch (before=144, after=90)")

    def formatting_fails(*_: object) -> pytest.TestReport:
        raise race

    monkeypatch.setattr(conftest, "_make_report", formatting_fails)
    monkeypatch.setattr(conftest, "_pause", lambda _: None)
    wrapper = conftest.pytest_runtest_makereport(request.node, call)
    next(wrapper)
    with pytest.raises(StopIteration) as done:
        wrapper.throw(race)
    report = done.value.value
    assert report.failed and report.when == "call"
    assert "ZeroDivisionError: division by zero" in str(report.longrepr)
    assert "the AST formatter failed" in str(report.longrepr)


def test_any_other_system_error_in_a_report_is_not_swallowed(request: pytest.FixtureRequest) -> None:
    from tests import conftest

    call = pytest.CallInfo.from_call(lambda: 1 / 0, when="call")
    wrapper = conftest.pytest_runtest_makereport(request.node, call)
    next(wrapper)
    with pytest.raises(SystemError, match="something else"):
        wrapper.throw(SystemError("something else"))
