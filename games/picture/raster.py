"""The SVG rasterised to PNG for mails, with resvg (``resvg-py``: a wheel that bundles the
renderer, so it installs from the package registry alone, with no system library).

resvg draws text only with the fonts it is given.  A fresh machine may have none, so the
picture is drawn with the Liberation Sans files shipped in ``fonts/`` (SIL OFL, see
``fonts/LICENSE-OFL.txt``) and system fonts are never read: the same SVG gives the same PNG
on every machine, which also makes a retried mail carry the very same picture.
"""

from __future__ import annotations

from functools import lru_cache
from importlib import resources

import resvg_py

FONT_FILES = ("LiberationSans-Regular.ttf", "LiberationSans-Bold.ttf")


def font_paths() -> list[str]:
    folder = resources.files("games.picture") / "fonts"
    return [str(folder / name) for name in FONT_FILES]


@lru_cache(maxsize=16)
def svg_to_png(svg: str, width: int) -> bytes:
    """``svg`` drawn ``width`` pixels wide (height in proportion), on its own fonts only.

    Remembered for a few calls: the picture draws only public facts, so every seat's mail
    about one event carries the same picture, and it is drawn once (about 0.1 s)."""
    return bytes(
        resvg_py.svg_to_bytes(
            svg_string=svg,
            width=width,
            skip_system_fonts=True,
            font_files=font_paths(),
            font_family="Liberation Sans",
            sans_serif_family="Liberation Sans",
        )
    )
