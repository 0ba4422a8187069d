"""The short load and chaos run (issue 16): ``python -m bench.load --short`` on the production
shape, with a worker killed, the broker and the SMTP sink restarted, must lose and duplicate
nothing: once with Redis as the broker, once with RabbitMQ.

It runs the service's processes against a database of its own (``<DATABASE_URL's name>_load``),
so it needs Postgres: away from CI it is skipped on the SQLite fallback and says so; in CI it
fails instead.  Each run takes two to three minutes, most of it the minute sweeps bringing
back what the restarted broker lost."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import IN_CI

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.slow
@pytest.mark.parametrize("broker", ["redis", "rabbitmq"])
def test_a_short_busy_weekend_with_kills_and_restarts_loses_and_doubles_nothing(broker: str) -> None:
    url = os.environ.get("DATABASE_URL", "")
    server = {"redis": "redis-server", "rabbitmq": "rabbitmq-server"}[broker]
    missing = None if url.startswith("postgres") else "needs Postgres (running on the SQLite fallback)"
    if missing is None and shutil.which(server) is None:
        missing = f"needs {server} (Debian's package; .ci/run installs it)"
    if missing:
        if IN_CI:
            pytest.fail(f"CI must run the load test: it {missing}")
        pytest.skip(missing)
    # its own database name per broker: xdist may run both at once
    env = {**os.environ, "DATABASE_URL": f"{url}_{broker}"}
    done = subprocess.run(
        [sys.executable, "-m", "bench.load", "--short", "--broker", broker],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=900,
    )
    out = done.stdout + done.stderr
    print(out)
    assert "lost moves: 0" in out, out
    assert "duplicated moves: 0 applied twice, 0 stale or stranger's replies applied" in out, out
    assert "lost mails: 0" in out, out
    assert "goals: 0 lost, 0 duplicated: met" in out, out
    assert done.returncode == 0, out
    # the run did what it says: replies of every kind, a kill, both restarts
    for kind in ("player", "duplicate", "stale", "stranger"):
        assert f"{kind} " in out.split("replies sent:")[1].split("\n")[0], out
    assert "kill -9 worker" in out and "broker restarted" in out and "SMTP sink restarted" in out, out
