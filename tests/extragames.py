"""Games registered for a whole test run from the environment, as a registry line would:
``TEST_EXTRA_GAMES="dealersdraw=tests.contract.dealersdraw"`` (``name=package``, comma-separated)
puts each in ``registry.PACKAGES`` before the tests are collected, so every test that runs over
the registered games (parametrized by ``registry.names()``, or reading ``locale_dirs()`` and
``template_dirs()``) runs over it too.  tests/test_extra_game.py runs the game-wide tests so.

The settings found the games' catalogues and templates when they were read, before any
conftest runs: an extra game's are added to them here, after the others' as the settings put
them, and Django's caches of both are reset as ``override_settings`` would."""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from typing import Any

VARIABLE = "TEST_EXTRA_GAMES"


def from_environment(environ: Mapping[str, str] = os.environ) -> dict[str, str]:
    """Each extra game's name -> its package's dotted name."""
    found: dict[str, str] = {}
    for item in filter(None, (part.strip() for part in environ.get(VARIABLE, "").split(","))):
        name, _, package = item.partition("=")
        if not re.fullmatch(r"[a-z][a-z0-9_]*", name) or not package:
            raise ValueError(
                f"{VARIABLE}: {item!r} is not name=package (dealersdraw=tests.contract.dealersdraw)"
            )
        found[name] = package
    return found


def register_for_the_run(games: Mapping[str, str]) -> None:
    """``games`` in the registry until the process ends, their catalogues and templates read."""
    if not games:
        return
    from django.conf import Settings, settings
    from django.test.signals import setting_changed

    from games.rules import registry

    for name, package in games.items():
        if name in registry.PACKAGES:
            raise ValueError(f"{VARIABLE}: a game called {name!r} is registered already")
        registry.PACKAGES[name] = package
    registry.get.cache_clear()
    for name in games:
        registry.get(name)  # refused now, with what it lacks, rather than in every test
    locale = [path for path in registry.locale_dirs() if path not in settings.LOCALE_PATHS]
    settings.LOCALE_PATHS = [*settings.LOCALE_PATHS, *locale]
    engines: list[dict[str, Any]] = [dict(engine) for engine in settings.TEMPLATES]
    dirs = list(engines[0]["DIRS"])
    engines[0]["DIRS"] = [*dirs, *(path for path in registry.template_dirs() if path not in dirs)]
    settings.TEMPLATES = engines
    for setting in ("LOCALE_PATHS", "TEMPLATES"):
        setting_changed.send(sender=Settings, setting=setting, value=getattr(settings, setting), enter=True)


def run_environment(games: str, environ: Mapping[str, str] = os.environ) -> dict[str, str]:
    """The environment of a test run in a process of its own beside this one, with ``games``
    (``TEST_EXTRA_GAMES``'s value) registered: not an xdist worker of this run, and with a
    Postgres database and a Redis database of its own, so that neither run drops the other's
    test database or takes the other's Celery tasks."""
    from urllib.parse import urlsplit, urlunsplit

    env = {k: v for k, v in environ.items() if not k.startswith(("PYTEST_XDIST_", "PYTEST_CURRENT"))}
    env[VARIABLE] = games
    database = env.get("DATABASE_URL", "")
    if database.startswith("postgres"):
        parts = urlsplit(database)
        env["DATABASE_URL"] = urlunsplit(parts._replace(path=parts.path.rstrip("/") + "_extragames"))
    redis = env.get("REDIS_URL", "redis://127.0.0.1:6379/0")
    base, _, db = redis.rpartition("/")
    own = f"{base}/{((int(db) if db.isdigit() else 0) + 8) % 16}"  # xdist's workers count down from it
    if env.get("CELERY_BROKER_URL") == redis:
        env["CELERY_BROKER_URL"] = own
    env["REDIS_URL"] = own
    return env
