"""A second game for the service's tests: White Lotus's engine under another name, with a
clock of its own, a short window and its own (tiny) picture.  The service must reach it only
through the registry, as it will reach any game.  ``install`` registers it (tests only)."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from types import ModuleType
from typing import Any

from games.presentation import display, picture
from games.rules import base, registry
from games.rules import whitelotus as _wl

NAME = "second"
# White Lotus's contract, its core and its parts, but its words and looks (its About and its
# Presentation are its own below); not its submodules, which are its package's names only once
# something has imported them (``picture`` would then hide the service's
# ``games.presentation.picture`` imported above, in whichever test process imported it first)
for _key in dir(_wl):
    if (
        not _key.startswith("_")
        and _key not in ("About", "Presentation")
        and not isinstance(getattr(_wl, _key), ModuleType)
    ):
        globals()[_key] = getattr(_wl, _key)

name = NAME
title = "Second Game"
player_counts = (3, 4)


class About(_wl.About):
    VERSION = "second-1"
    time_controls: Mapping[str, Any] = {"hours_per_decision": 24}
    short_windows: Mapping[str, float] = {"place": 3}  # the first decision of a game
    # how the service presents a game is the defaults' (White Lotus's names and flags are its own)
    FIRST_SEAT_KEY = base.About.FIRST_SEAT_KEY
    FULL_PRESS_OPTIONS = base.About.FULL_PRESS_OPTIONS
    OPTION_FLAGS = base.About.OPTION_FLAGS


class Presentation(base.Presentation):
    """Its words and looks: the defaults', but its picture (this module's board_svg), what a
    decision asks, and White Lotus's sentences."""

    PICTURE = __name__
    narrate = staticmethod(_wl.Presentation.narrate)
    sealed_text = staticmethod(_wl.Presentation.sealed_text)

    def decision_text(self, view: Mapping[str, Any], kind: str, translate: Any = str) -> str:
        return decision_text(view, kind, translate)


def board_svg(
    board: Any, view: Mapping[str, Any], *, names: Mapping[str, str] | None = None, translate: Any = str
) -> str:
    """Its picture: a marker a test can find."""
    players = len(view["players"])
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" class="board" data-game="{NAME}" data-players="{players}"/>'
    )


def text_board(view: Mapping[str, Any], names: Mapping[str, str], translate: Any = str) -> list[str]:
    """Its board in words: one line a test can find."""
    return [f"The second game's board, {len(view['players'])} players"]


def decision_text(view: Mapping[str, Any], kind: str, translate: Any = str) -> str:
    return f"decide: {kind}"


@contextmanager
def installed() -> Iterator[None]:
    """The second game in the registry, for the time of a test."""
    picture._module.cache_clear()
    display.partials.cache_clear()
    try:
        with registry.register(NAME, __name__):
            yield
    finally:
        picture._module.cache_clear()
        display.partials.cache_clear()
