"""Golden games: complete records checked in with the final state they replay to.

A change to the engine that alters an old game fails here.  If the change is meant (a rule
fixed), regenerate with ``python -m tests.engine.test_golden`` and say why in the commit.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest

from games.rules.whitelotus.record import Record, format_record, parse_record
from games.rules.whitelotus.selfplay import play
from games.rules.whitelotus.state import Options

from .helpers import BOARD, config

HERE = Path(__file__).parent / "golden"
# name: (players, edition, seed, options, every move a default?)
GAMES: dict[str, tuple[int, str, str, dict[str, Any], bool]] = {
    "kosmos-5p-seed7": (5, "kosmos", "7", {}, False),
    "kosmos-6p-defaults": (6, "kosmos", "golden-6", {}, True),
    "kosmos-3p-french": (3, "kosmos", "golden-fr", {"zero_card": False}, False),
    "designer-4p": (4, "designer", "golden-4d", {}, False),
    "designer-6p-defaults": (6, "designer", "golden-6d", {}, True),
}


@pytest.mark.parametrize("name", sorted(GAMES))
def test_golden_game_replays_to_its_recorded_final_state(name):
    _record, final = parse_record((HERE / f"{name}.txt").read_text())
    expected = json.loads((HERE / f"{name}.final.json").read_text())
    assert json.loads(final.to_json()) == expected
    assert final.phase.name == "finished"


def regenerate() -> None:
    for name, (players, edition, seed, options, defaults) in GAMES.items():
        cfg = config(players, edition, **options)
        assert cfg.options == Options(**options) and cfg.board is BOARD
        final, moves, _ = play(cfg, seed, use_defaults=defaults)
        (HERE / f"{name}.txt").write_text(format_record(Record(cfg, seed, tuple(moves))))
        state = json.loads(final.to_json())
        (HERE / f"{name}.final.json").write_text(json.dumps(state, indent=1, sort_keys=True) + "\n")
        print(f"{name}: {len(moves)} moves, year {final.year}", file=sys.stderr)


if __name__ == "__main__":
    regenerate()
