"""What a game's self-play command prints, caught whole: the golden self-play games of every
game are checked, and regenerated, against it."""

from __future__ import annotations

import io
from collections.abc import Callable
from contextlib import redirect_stdout


def self_play(main: Callable[[list[str]], int], arguments: list[str]) -> str:
    """The output of ``python -m games.rules.<game>.selfplay <arguments>``, run by the game's
    ``main``, which must end well."""
    out = io.StringIO()
    with redirect_stdout(out):
        assert main(arguments) == 0
    return out.getvalue()
