"""A game created before the options ``ricefield_extra`` and ``temple_draw`` existed (its
first event's config does not name them) plays on and replays under the old rule, the
compulsory extra markers and draws, with the same rules version (issue 14)."""

from __future__ import annotations

from typing import Any

import pytest

from games import services
from games.models import Game
from games.rules import whitelotus as wl
from games.rules.whitelotus.selfplay import all_defaults
from games.rules.whitelotus.state import LEGACY
from tests.games.factories import players

pytestmark = pytest.mark.django_db


def _old_config_to_data(config: wl.Config) -> dict[str, Any]:
    """The config as the service stored it before issue 14: four options."""
    data = config.to_dict()
    data["options"] = {k: v for k, v in config.options.to_data().items() if k not in LEGACY}
    return data


def _created(seed: str, monkeypatch: pytest.MonkeyPatch | None = None) -> Game:
    """A started 3-player kosmos game; with ``monkeypatch``, created as before issue 14."""
    if monkeypatch is not None:
        monkeypatch.setattr(wl.Serial, "config_to_data", staticmethod(_old_config_to_data))
    game = services.create_game(players(3), edition="kosmos", seed=seed)
    if monkeypatch is not None:
        monkeypatch.undo()
    services.start_game(game)
    game.refresh_from_db()
    return game


def test_an_old_game_reads_as_the_compulsory_rules_and_is_not_refused(monkeypatch):
    game = _created("old", monkeypatch)
    assert "ricefield_extra" not in game.events.get(seq=1).payload["config"]["options"]
    options = services.config_of(game).options
    assert (options.ricefield_extra, options.temple_draw) == ("must", "must")
    assert services.version_mismatch(game) is None


def test_a_new_game_stores_every_option():
    game = _created("new")
    stored = game.events.get(seq=1).payload["config"]["options"]
    assert (stored["ricefield_extra"], stored["temple_draw"]) == ("may", "may")


def test_an_old_game_plays_to_its_end_and_replays_as_the_old_rules_play_it(monkeypatch):
    """Every move a deadline default: the service's game is the engine's all-default game
    under the compulsory rules, and a replay from zero gives the same state."""
    game = _created("old-to-the-end", monkeypatch)
    rules = services.rules_of(game)
    while decisions := rules.pending(services.head_state(game)):
        services.apply_default(game, decisions[0].seat)
        game.refresh_from_db()
    final, same = services.replay_game(game)
    assert same and final.phase.name == "finished"
    old = wl.make_config(
        services.config_of(game).board, 3, "kosmos", _old_config_to_data(final.config)["options"], 0
    )
    assert final.to_json() == all_defaults(old, "old-to-the-end").state.to_json()
    new = wl.make_config(old.board, 3, "kosmos", dict(wl.About.OPTIONS), 0)
    assert final.to_json() != all_defaults(new, "old-to-the-end").state.to_json()  # the rules differ
