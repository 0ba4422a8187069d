"""A fold (``serial.fold``, ``serial.draft``: one working copy changed in place) reaches what
``apply`` after ``apply`` reaches: random whole games of every registered game, compared after
every move and at the end, and the states it started from are left as they were."""

from __future__ import annotations

import json
import os
import random
from typing import Any

import pytest
from hypothesis import HealthCheck, Phase, given, reject, settings
from hypothesis import strategies as st

from games.rules import registry
from games.rules.base import Rules

# whole games per registered game (a few seconds each batch); CI may ask for more
GAMES = int(os.environ.get("FOLD_RANDOM_GAMES", "12"))

PROFILE = settings(
    max_examples=GAMES,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[HealthCheck.too_slow],
    phases=(Phase.generate,),  # a whole game shrinks slowly: the first failing one is shown
)


def option_values(rules: Rules) -> dict[str, st.SearchStrategy[Any]]:
    """What each option may be: a flag's either way, the values its command-line flag names."""
    named = {option: values for option, values, _ in rules.about.OPTION_FLAGS.values()}
    choices: dict[str, st.SearchStrategy[Any]] = {}
    for option, default in rules.about.OPTIONS.items():
        if isinstance(default, bool):
            choices[option] = st.booleans()
        elif isinstance(named.get(option), tuple):
            choices[option] = st.sampled_from(named[option])
        else:
            choices[option] = st.just(default)
    return choices


@st.composite
def games(draw: st.DrawFn, rules: Rules) -> tuple[Any, str, int]:
    """A config (players, edition, options, who begins), a seed and the key of the moves."""
    board = rules.serial.load_board(rules.about.default_board)
    options = draw(st.fixed_dictionaries(option_values(rules)))
    try:
        config = rules.serial.make_config(
            board,
            draw(st.sampled_from(rules.player_counts)),
            draw(st.sampled_from(rules.about.editions)),
            options,
            draw(st.sampled_from((rules.about.default_first_seat, None))),
        )
    except ValueError:  # options this game cannot have together (partners of three)
        reject()
    seed = draw(st.text("abcdefghijklmnopqrstuvwxyz0123456789", min_size=1, max_size=8))
    return config, seed, draw(st.integers(0, 2**32))


def snapshot(rules: Rules, state: Any) -> str:
    """A state's value as text, what was drawn on the way to it included (not a field)."""
    drawn = [(c.kind, list(c.value)) for c in rules.chance.drawn(state)]
    return json.dumps([rules.serial.state_to_dict(state), drawn], sort_keys=True)


def random_game(rules: Rules, config: Any, seed: str, key: int) -> tuple[Any, list[tuple[int, Any, Any]]]:
    """The setup and a whole game of any seat that owes a move: mostly the game's bot, now and
    then a random legal move (a sealed choice changed, a gift) or the deadline's default; each
    move with the state ``apply`` returns."""
    pick = random.Random(key)
    start = rules.setup(config, seed)
    bots = [rules.about.Bot(f"fold:{key}:{seat}") for seat in range(len(config_seats(rules, start)))]
    state, moves = start, []
    for _ in range(3000):
        owed = rules.pending(state)
        if not owed:
            break
        seat = pick.choice(owed).seat
        roll = pick.random()
        if roll < 0.1:
            command = rules.default(state, seat)
        elif roll < 0.25:
            command = pick.choice(rules.legal(state, seat))
        else:
            command = bots[seat].choose(state, seat)
        state, _ = rules.apply(state, seat, command)
        moves.append((seat, command, state))
    assert not rules.pending(state), "a random game ended within 3000 moves"
    return start, moves


def config_seats(rules: Rules, state: Any) -> list[Any]:
    """The seats of a game (its spectator's view lists its players)."""
    return list(rules.view(state, None)["players"])


@pytest.mark.parametrize("name", registry.names())
def test_a_fold_reaches_every_state_apply_reaches(name: str) -> None:
    rules = registry.get(name)

    @PROFILE
    @given(games(rules))
    def check(game: tuple[Any, str, int]) -> None:
        start, moves = random_game(rules, *game)
        before = [snapshot(rules, start), *(snapshot(rules, after) for _, _, after in moves)]
        draft = rules.serial.draft(start)
        for n, (seat, command, after) in enumerate(moves, 1):
            draft.apply(seat, command, ())
            reached = draft.done()
            assert reached == after, f"move {n} of {len(moves)}"
            assert snapshot(rules, reached) == before[n], f"move {n} of {len(moves)}"
        final = rules.serial.fold(start, ((seat, command, ()) for seat, command, _ in moves))
        assert final == moves[-1][2]
        assert snapshot(rules, final) == before[-1]
        # nothing a fold began from, or that apply returned on the way, was changed
        assert [snapshot(rules, start), *(snapshot(rules, after) for _, _, after in moves)] == before

    check()
