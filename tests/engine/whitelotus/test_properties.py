"""Random whole games: they end, invariants hold after every move, replay is
deterministic, and no view ever shows a seat what is hidden from it."""

from __future__ import annotations

import json
import os
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.rules.base import IllegalCommand
from games.rules.whitelotus import outcome, view
from games.rules.whitelotus.engine import replay
from games.rules.whitelotus.state import State
from tests.engine.whitelotus.helpers import BOARD, config
from tests.engine.whitelotus.randomgames import check_invariants, hide_changes, hide_common, play_random

pytestmark = pytest.mark.slow  # thousands of whole games in CI: started first (tests/conftest.py)

# Random-move games per edition and player count; half as many games of defaults only, and a
# fifth as many for the view checks.  CI sets 1000 (see .ci/run); 40 keeps a local run short.
GAMES = int(os.environ.get("WL_RANDOM_GAMES", "40"))


def _profile(n: int) -> settings:
    return settings(
        max_examples=max(n, 5),
        deadline=None,
        derandomize=True,
        database=None,
        suppress_health_check=[HealthCheck.too_slow],
    )


PROFILE = _profile(GAMES)

games = st.fixed_dictionaries(
    {
        "seed": st.text("abcdefghijklmnopqrstuvwxyz0123456789", min_size=1, max_size=8),
        "key": st.integers(0, 2**32),
        "zero_card": st.booleans(),
        "negotiation": st.booleans(),
        "lot": st.booleans(),
    }
)


def _config(edition: str, players: int, g: dict[str, Any]):
    return config(
        players, edition, None if g["lot"] else 0, zero_card=g["zero_card"], negotiation=g["negotiation"]
    )


def _play_and_check(edition: str, players: int, g: dict[str, Any], defaults_only: bool) -> None:
    cfg = _config(edition, players, g)
    moves = []
    final: State | None = None
    for _before, seat, command, after, log in play_random(cfg, g["seed"], str(g["key"]), defaults_only):
        check_invariants(after)
        for entry in log:
            json.dumps(dict(entry.data))
        moves.append((seat, command))
        final = after
    assert final is not None and outcome(final) is not None
    again = replay(cfg, g["seed"], moves)
    assert again.to_json() == final.to_json()
    assert State.from_dict(json.loads(final.to_json()), BOARD).to_json() == final.to_json()


MATRIX = [(e, p) for e in ("kosmos", "designer") for p in (3, 4, 5, 6)]


@pytest.mark.parametrize(("edition", "players"), MATRIX)
@PROFILE
@given(g=games)
def test_random_legal_games_end_keep_invariants_and_replay(edition, players, g):
    _play_and_check(edition, players, g, defaults_only=False)


@pytest.mark.parametrize(("edition", "players"), MATRIX)
@_profile(GAMES // 2)
@given(g=games)
def test_games_of_default_moves_only_end_and_replay(edition, players, g):
    _play_and_check(edition, players, g, defaults_only=True)


@_profile(GAMES // 5)
@given(g=games, edition=st.sampled_from(["kosmos", "designer"]), players=st.integers(3, 6))
def test_no_view_shows_another_seats_hand_sealed_choice_or_drawn_tile(g, edition, players):
    """Non-interference: changing seat B's hidden information never changes what seat A
    (or a spectator) sees; nor does the seed or the bag's composition."""
    cfg = _config(edition, players, g)
    for n, (_, _, _, state, _) in enumerate(play_random(cfg, g["seed"], str(g["key"]))):
        if n % 7:
            continue
        for a in [None, *range(players)]:
            seen = view(state, a)
            json.dumps(seen)
            assert "seed" not in seen or state.phase.name == "finished"
            for b in range(players):
                if b == a:
                    continue
                for other in hide_changes(state, b):
                    assert view(other, a) == seen, (a, b, state.phase)
            public = {k: v for k, v in seen.items() if k not in ("seed_digest", "seed")}
            for other in hide_common(state):
                theirs = view(other, a)
                theirs.pop("seed_digest")
                theirs.pop("seed", None)  # revealed once the game is over, by design
                assert public == theirs


@PROFILE
@given(g=games)
def test_illegal_commands_never_change_the_state(g):
    cfg = _config("kosmos", 4, g)
    for state, seat, _, _, _ in play_random(cfg, g["seed"], str(g["key"])):
        from games.rules.whitelotus import apply, legal
        from games.rules.whitelotus.commands import Army, Place

        for wrong in (Place(0), Army(999)):
            if wrong in legal(state, seat):
                continue
            before = state.to_json()
            try:
                apply(state, seat, wrong)
            except IllegalCommand as error:
                assert "What you can do now" in error.message or not error.legal
            assert state.to_json() == before
        break
