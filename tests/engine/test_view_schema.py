"""Every registered game's views are what the service reads (games.rules.base.View): players
with seat, colour and score, the decisions owed with colour, kind and sealed, the phase, a
seat's own colour and sealed choice, the seed once over and never before; checked at every step
of random games, for every seat and a spectator.  Sealed Bids and Dealer's Draw (the games of
tests/contract the tests register) are checked with them: the schema asks nothing a game of
the required names, with or without chance, cannot give."""

from __future__ import annotations

import random

import pytest

from games.rules import registry
from games.rules.base import Rules, view_problems
from tests.contract import dealersdraw, sealedbids

TEST_GAMES = {"sealedbids": sealedbids, "dealersdraw": dealersdraw}
GAMES = (*registry.names(), *(name for name in TEST_GAMES if name not in registry.PACKAGES))


def _game(name: str) -> Rules:
    return registry.get(name) if name in registry.PACKAGES else Rules(name, TEST_GAMES[name])


def _check(rules: Rules, state: object, finished: bool) -> None:
    seats = len(rules.view(state, None)["players"])
    for seat in (None, *range(seats)):
        problems = view_problems(rules.view(state, seat), seat, finished)
        assert not problems, f"{rules.name}, seat {seat}: {problems}"


@pytest.mark.parametrize("name", GAMES)
@pytest.mark.parametrize("seed", ["1", "2"])
def test_every_view_of_a_random_game_has_what_the_service_reads(name: str, seed: str) -> None:
    rules = _game(name)
    for players in rules.player_counts:
        config = rules.serial.make_config(
            rules.serial.load_board(rules.about.default_board),
            players,
            rules.about.editions[0],
            dict(rules.about.OPTIONS),
            None,
        )
        state = rules.setup(config, f"schema-{seed}")
        pick = random.Random(f"{name}-{seed}-{players}")
        for _ in range(1500):
            owed = rules.pending(state)
            if not owed:
                break
            _check(rules, state, False)
            seat = pick.choice(owed).seat
            state, _ = rules.apply(state, seat, pick.choice(rules.legal(state, seat)))
        if rules.outcome(state) is not None:
            _check(rules, state, True)


def test_a_view_that_lacks_what_the_service_reads_is_told_so() -> None:
    view = {
        "players": [{"seat": 0, "colour": "amber", "score": {}}],
        "pending": [{"kind": "bid"}],
        "phase": 1,
    }
    problems = view_problems(view, None, True)
    assert "players[0]['score'] has no int 'total'" in problems
    assert "pending[0] lacks 'colour'" in problems
    assert "the view['phase'] is int, not <class 'str'>" in problems
    assert "a running game's view shows its 'seed'" in view_problems({**view, "seed": "7"}, None, False)
    assert "seat 0's view has you='jade', not 'amber'" in view_problems({**view, "you": "jade"}, 0, False)
    assert "a spectator's view names a seat ('you') or a sealed choice" in view_problems(
        {**view, "sealed": {"bid": 3}}, None, False
    )


def test_a_sealed_choice_under_any_key_is_said_by_the_game_or_plainly() -> None:
    minimal = _game("sealedbids")
    assert minimal.presentation.sealed_text({"bid": 3}) == "bid 3"
    wl = registry.get("whitelotus")
    assert wl.presentation.sealed_text({"bid": {"amount": 3, "against": "green"}}) == "bid 3 against green"
    assert wl.presentation.sealed_text({"side": "rebels", "army": 2}) == "side rebels, army 2"
    assert registry.get("verbotenestadt").presentation.sealed_text({"choice": "rg"}) == "choice rg"
