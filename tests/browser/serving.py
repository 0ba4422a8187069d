"""Running the site as its users start it, in a process of its own (``scripts/serve``,
gunicorn), for the browser tests that check what those commands serve: a fresh clone of this
repository, an environment without the test run's settings, a free port, and a clean stop."""

from __future__ import annotations

import contextlib
import os
import re
import signal
import socket
import subprocess
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]

# the stylesheet's mark on every page: the header's colour (games/static/games/pages.css)
STYLED = r"""() => ({
    header: getComputedStyle(document.querySelector('header.site')).backgroundColor,
    overflow: document.documentElement.scrollWidth - document.documentElement.clientWidth,
    static: performance.getEntriesByType('resource').filter(e => e.name.includes('/static/'))
        .map(e => [e.name.replace(/^.*\/static\//, ''), e.responseStatus]),
})"""
HEADER_COLOUR = "rgb(59, 47, 74)"  # #3b2f4a


def clone(into: Path) -> Path:
    """A fresh clone of this repository's committed HEAD (what a newcomer gets)."""
    subprocess.run(["git", "clone", "--quiet", str(ROOT), str(into)], check=True)
    return into


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def plain_environment(**extra: str) -> dict[str, str]:
    """This process's environment without a variable the settings read (``.env.example`` lists
    them all): the test run's database, broker and DEBUG must not reach the server, which
    starts from its own defaults as on a newcomer's machine."""
    example = (ROOT / "deploy/.env.example").read_text(encoding="utf-8")
    settings_names = set(re.findall(r"^#?([A-Z][A-Z0-9_]*)=", example, re.MULTILINE))
    dropped = settings_names | {"DJANGO_SETTINGS_MODULE", "DJANGO_ALLOW_ASYNC_UNSAFE", "VIRTUAL_ENV"}
    env = {k: v for k, v in os.environ.items() if k not in dropped and not k.startswith("ANYMAIL_")}
    env.update(extra)
    return env


def start(command: list[str], cwd: Path, env: dict[str, str], log: Path) -> subprocess.Popen[bytes]:
    """Start ``command`` in a session of its own (so that ``stop`` reaches every process it
    starts), its output into ``log``."""
    with log.open("wb") as out:
        return subprocess.Popen(
            command, cwd=cwd, env=env, stdout=out, stderr=subprocess.STDOUT, start_new_session=True
        )


def stop(process: subprocess.Popen[bytes]) -> None:
    """SIGTERM to the process's session (scripts/serve stops its children on it), a minute to
    end, then SIGKILL to whatever of the session is left."""
    try:
        os.killpg(process.pid, signal.SIGTERM)
    except ProcessLookupError:
        return
    with contextlib.suppress(subprocess.TimeoutExpired):
        process.wait(60)
    with contextlib.suppress(ProcessLookupError):
        os.killpg(process.pid, signal.SIGKILL)
    process.wait(10)


def answers(url: str, process: subprocess.Popen[bytes], log: Path) -> bool:
    """True once ``url`` answers 200; fails at once (with the log) if the server has exited."""
    if process.poll() is not None:
        raise AssertionError(f"exited with {process.returncode}:\n{tail(log)}")
    try:
        with urllib.request.urlopen(url, timeout=5) as response:
            return int(response.status) == 200
    except (urllib.error.URLError, OSError):
        return False


def tail(log: Path, lines: int = 40) -> str:
    return "\n".join(log.read_text(encoding="utf-8", errors="replace").splitlines()[-lines:])


def styled(page: Any, url: str) -> dict[str, Any]:
    """Open ``url`` and say whether the stylesheet reached it (the header's colour), how far the
    page scrolls sideways, and each of its /static/ files with its status."""
    response = page.goto(url)
    assert response is not None and response.ok, f"{url}: {response and response.status}"
    page.wait_for_load_state("load")
    return dict(page.evaluate(STYLED))
