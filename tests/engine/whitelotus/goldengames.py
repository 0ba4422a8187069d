"""White Lotus's golden games as the tests read them: where they are kept, and how each was
played."""

from __future__ import annotations

from pathlib import Path
from typing import Any

HERE = Path(__file__).parent / "golden"


# name: (players, edition, seed, options, every move a default?)
GAMES: dict[str, tuple[int, str, str, dict[str, Any], bool]] = {
    "kosmos-5p-seed7": (5, "kosmos", "7", {}, False),
    "kosmos-6p-defaults": (6, "kosmos", "golden-6", {}, True),
    "kosmos-3p-french": (3, "kosmos", "golden-fr", {"zero_card": False}, False),
    "designer-4p": (4, "designer", "golden-4d", {}, False),
    "designer-6p-defaults": (6, "designer", "golden-6d", {}, True),
}
