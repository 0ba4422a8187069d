"""Golden games: complete records checked in with the final state they replay to.

A change to the engine that alters an old game fails here.  If the change is meant (a rule
fixed), regenerate with ``python -m tests.engine.whitelotus.test_golden`` and say why in the
commit; a change to the self-play bots alone, with
``python -m tests.engine.whitelotus.test_golden selfplay``.
"""

from __future__ import annotations

import json
import sys

import pytest

from games.rules.whitelotus.record import Record, format_record, parse_record
from games.rules.whitelotus.selfplay import main, play
from games.rules.whitelotus.state import Options
from tests.engine.selfplaying import self_play
from tests.engine.whitelotus.goldengames import GAMES, HERE
from tests.engine.whitelotus.helpers import BOARD, config


@pytest.mark.parametrize("name", sorted(GAMES))
def test_golden_game_replays_to_its_recorded_final_state(name):
    _record, final = parse_record((HERE / f"{name}.txt").read_text())
    expected = json.loads((HERE / f"{name}.final.json").read_text())
    assert json.loads(final.to_json()) == expected
    assert final.phase.name == "finished"


# what ``python -m games.rules.whitelotus.selfplay <arguments>`` prints, kept whole: the
# bots' every choice (the record) and the scores' summary
SELFPLAY = {
    "selfplay-kosmos-5p": ["--players", "5", "--seed", "7"],
    "selfplay-designer-4p": ["--players", "4", "--edition", "designer", "--seed", "golden-4d"],
    "selfplay-kosmos-3p-defaults": ["--players", "3", "--seed", "golden-3", "--defaults", "--no-zero-card"],
}


@pytest.mark.parametrize("name", sorted(SELFPLAY))
def test_self_play_prints_the_same_game_and_scores_for_a_seed(name):
    """The bots are deterministic for a seed: a change to how they choose, or to what the
    command prints, fails here (regenerate as for the golden games, saying why)."""
    assert self_play(main, SELFPLAY[name]) == (HERE / f"{name}.txt").read_text()


def regenerate(only_self_play: bool) -> None:
    for name, arguments in SELFPLAY.items():
        (HERE / f"{name}.txt").write_text(self_play(main, arguments))
    if only_self_play:  # the bots changed, not the rules: the golden games stay as they are
        return
    for name, (players, edition, seed, options, defaults) in GAMES.items():
        cfg = config(players, edition, **options)
        assert cfg.options == Options(**options) and cfg.board is BOARD
        final, moves, _ = play(cfg, seed, use_defaults=defaults)
        (HERE / f"{name}.txt").write_text(format_record(Record(cfg, seed, tuple(moves))))
        state = json.loads(final.to_json())
        (HERE / f"{name}.final.json").write_text(json.dumps(state, indent=1, sort_keys=True) + "\n")
        print(f"{name}: {len(moves)} moves, year {final.year}", file=sys.stderr)


if __name__ == "__main__":
    regenerate(only_self_play=sys.argv[1:] == ["selfplay"])
