"""What the engines keep on a state besides its fields (issue 26: replay speed) is what those
fields say: after every command of whole games, the facts carried over and updated from state
to state equal the facts computed afresh from the same fields (a state read back from JSON)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from games.rules import registry
from games.rules.base import Rules
from games.rules.verbotenestadt.state import State as CityState
from games.rules.whitelotus.state import Census
from games.rules.whitelotus.state import State as LotusState

# (game, players, edition, options): both editions of White Lotus, the options that change
# placement and tiles, and Die Verbotene Stadt with one or many turns per move
TABLES = [
    ("whitelotus", 6, "kosmos", {}),
    ("whitelotus", 4, "kosmos", {"ricefield_extra": "must", "temple_draw": "must"}),
    ("whitelotus", 5, "designer", {"adjacency": "own"}),
    ("whitelotus", 3, "designer", {}),
    ("verbotenestadt", 4, "ravensburger", {}),
    ("verbotenestadt", 3, "ravensburger", {"many_turns": True}),
]


def fresh(rules: Rules, state: Any, config: Any) -> Any:
    """The same state without anything kept on it: read back from its JSON."""
    return rules.serial.state_from_dict(json.loads(json.dumps(rules.serial.state_to_dict(state))), config)


def check_lotus(state: LotusState, again: LotusState) -> None:
    assert state.census() == Census.of(again)
    assert state.marks() == again.marks()
    for seat in range(state.players):
        assert list(state.areas_of(seat)) == [a for a, o in enumerate(state.owner) if o == seat]


def check_city(state: CityState, again: CityState) -> None:
    assert state.occupied() == again.occupied()
    assert state.on_board() == again.on_board()
    for code in state.on_board():
        assert state.occupied(besides=code) == again.occupied(besides=code)


@pytest.mark.parametrize(("name", "players", "edition", "options"), TABLES)
def test_facts_kept_on_the_state_equal_the_facts_of_its_fields(
    name: str, players: int, edition: str, options: dict[str, Any]
) -> None:
    rules = registry.get(name)
    board = rules.serial.load_board(rules.about.default_board)
    config = rules.serial.make_config(
        board, players, edition, {**rules.about.OPTIONS, **options}, rules.about.default_first_seat
    )
    seed = f"derived-{name}-{players}-{edition}"
    state = rules.setup(config, seed)
    bots = [rules.about.Bot(f"{seed}:bot:{s}") for s in range(players)]
    check = check_lotus if name == "whitelotus" else check_city
    commands = 0
    while decisions := rules.pending(state):
        seat = decisions[0].seat
        state, _ = rules.apply(state, seat, bots[seat].choose(state, seat))
        check(state, fresh(rules, state, config))
        commands += 1
    assert commands > 50  # whole games
