"""Registering a game for a while in tests, its own catalogue read too."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from types import ModuleType

from django.conf import settings
from django.test import override_settings

from games.rules import registry


@contextmanager
def registered(name: str, module: ModuleType) -> Iterator[None]:
    """``module`` registered as ``name``, its own catalogue read too: the settings found the
    games' catalogues when they were read, so a game registered later is added to LOCALE_PATHS
    here (after the service's, as the settings put them; changing the setting resets Django's
    translation caches, django/test/signals.py)."""
    with registry.register(name, module):
        found = [path for path in registry.locale_dirs() if path not in settings.LOCALE_PATHS]
        with override_settings(LOCALE_PATHS=[*settings.LOCALE_PATHS, *found]):
            yield
