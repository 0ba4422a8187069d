"""Random whole games.  Of random legal commands mixed with the bots': every state keeps the
invariants, replay is deterministic, a command off the menu is refused.  With the bots (and with
deadline defaults only): they end, replay is deterministic, the state round-trips through JSON,
and neither a view nor the public log (as narrated) nor a default's command shows a seat what is
hidden from it (another seat's dial or sealed answer, the order of the face-down cards; an
absent player's own dial, for its public default move)."""

from __future__ import annotations

import json
import os
from typing import Any

import pytest
from hypothesis import HealthCheck, Phase, example, given, settings
from hypothesis import strategies as st

from games.rules import registry
from games.rules.base import IllegalCommand
from games.rules.verbotenestadt.bots import Bot
from games.rules.verbotenestadt.commands import Believe, Command, Dial, Doubt, Keep, Move, Spare, Stop, Take
from games.rules.verbotenestadt.constants import OFFICIALS, SEATS
from games.rules.verbotenestadt.decisions import can_move, legal, move_options, owed, pending
from games.rules.verbotenestadt.defaults import default
from games.rules.verbotenestadt.engine import apply, replay, setup
from games.rules.verbotenestadt.state import Config, Options, State, evolve
from games.rules.verbotenestadt.views import view
from tests.engine.verbotenestadt.randomgames import check_invariants, play_random

pytestmark = pytest.mark.slow  # 50 whole games each in CI (a minute or more): started first

VS = registry.get("verbotenestadt")
BOARD = VS.serial.load_board("forbidden_city")
CHECK_LOG = (
    os.environ.get("VS_CHECK_LOG", "1") == "1"
)  # the public log check (every 4th step) doubles the time
# A game takes about a second (twice that with the log check): 3 by default and the examples
# below; VS_RANDOM_GAMES sets the number, else a twentieth of the WL_RANDOM_GAMES CI sets (50).
GAMES = int(os.environ.get("VS_RANDOM_GAMES") or max(3, int(os.environ.get("WL_RANDOM_GAMES", "0")) // 20))
PROFILE = settings(
    max_examples=GAMES,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[HealthCheck.too_slow],
    phases=[Phase.explicit, Phase.reuse, Phase.generate],  # a whole game is too slow to shrink
)
games = st.fixed_dictionaries(
    {
        "seed": st.text("abcdefghijklmnopqrstuvwxyz0123456789", min_size=1, max_size=8),
        "players": st.integers(2, 4),
        "partners": st.booleans(),
        "lot": st.booleans(),
        "defaults": st.integers(0, 3),
        "many_turns": st.integers(0, 3),
    }
)


def _config(g: dict[str, Any]) -> Config:
    n = g["players"]
    return Config(
        BOARD,
        SEATS[:n],
        options=Options(partners=g["partners"] and n == 4, many_turns=g["many_turns"] == 3),
        first_seat=None if g["lot"] else 0,
    )


def _hidden_from_views(state: State) -> None:
    """Changing what is hidden (another seat's dial and sealed answer, the order of the
    face-down cards) changes no one else's view."""
    n = state.players
    shuffled = evolve(state, piles=tuple(tuple(reversed(p)) for p in state.piles))
    for seat in [None, *range(n)]:
        seen = view(state, seat)
        json.dumps(seen)
        assert view(shuffled, seat) == seen
        for other in range(n):
            if other == seat:
                continue
            dial = state.dials[other]
            changed = OFFICIALS[(OFFICIALS.index(dial) + 1) % 25] if dial else "rr"
            secret = evolve(
                state,
                dials=tuple(changed if s == other else d for s, d in enumerate(state.dials)),
                sealed=tuple(_other_answer(a) if s == other else a for s, a in enumerate(state.sealed)),
            )
            assert view(secret, seat) == seen, (seat, other)


# entries whose step may legitimately depend on a hidden dial or card order: an entry shows
# the dials (the mover's, the same choice), a card taken from a pavilion shows that card
SHOWS_DIALS = frozenset({"entered", "revealed", "game_over"})
SHOWS_CARDS = frozenset({"took_pile", "game_over"})


def _public(state: State, log: list[Any]) -> list[str]:
    """The public entries of a step as the others read them (narrated)."""
    return [VS.presentation.narrate(state, e) for e in log if e.private_to is None]


def _hidden_from_log(state: State, seat: int, command: Any, by_default: bool) -> None:
    """Changing what is hidden from the others (another seat's dial, the order of the
    face-down cards; for a default that does not enter, the actor's own dial too) changes
    neither the public log of a step, as narrated, unless the step shows it (an entry, a card
    taken from a pavilion), nor the command a default plays."""
    after, log = apply(state, seat, command)
    kinds = {e.kind for e in log}
    seen = _public(after, log)
    variants: list[State] = []
    if not kinds & SHOWS_CARDS:
        variants.append(evolve(state, piles=tuple(tuple(reversed(p)) for p in state.piles)))
    if not kinds & SHOWS_DIALS:
        for other in range(state.players):
            if other == seat or state.dials[other] is None:
                continue
            on_board = state.on_board()
            dial = state.dials[other]
            changed = (
                on_board[(on_board.index(dial) + 1) % len(on_board)] if dial in on_board else on_board[0]
            )
            variants.append(
                evolve(state, dials=tuple(changed if s == other else d for s, d in enumerate(state.dials)))
            )
            answer = state.sealed[other] if state.phase == "dial" else None
            if answer is not None:  # a dial window: whether a seat kept or changed is its secret too
                swapped = changed if answer == "keep" else "keep"
                sealed = tuple(swapped if s == other else a for s, a in enumerate(state.sealed))
                variants.append(evolve(state, sealed=sealed))
        if by_default and pending(state)[0].kind == "move" and not state.moves:
            # the compulsory first move of an absent player: public, so blind to its own dial
            for code in state.on_board()[:5]:
                variants.append(
                    evolve(state, dials=tuple(code if s == seat else d for s, d in enumerate(state.dials)))
                )
    for variant in variants:
        played = default(variant, seat) if by_default else command
        if (
            by_default
            and played != command
            and (_enters(variant, seat, played) or _enters(state, seat, command))
        ):
            continue  # the absent player's own official entered: the entry shows the dial
        if by_default:
            assert played == command, (seat, command, played)
        after_v, log_v = apply(variant, seat, played)
        assert _public(after_v, log_v) == seen, (seat, command)


def _enters(state: State, seat: int, command: Any) -> bool:
    _, log = apply(state, seat, command)
    return any(e.kind == "entered" for e in log)


def _other_answer(answer: str | None) -> str | None:
    """A different sealed answer of the same kind (None stays None: whether a seat has
    answered is public)."""
    if answer is None:
        return None
    if answer in ("believe", "doubt"):
        return "doubt" if answer == "believe" else "believe"
    return "keep" if answer != "keep" else "rr"


@PROFILE
@given(games)
# always played: 4 bots (now and then a default) in the partner variant, by the default rules;
# 3 seats with many turns
@example({"seed": "p4", "players": 4, "partners": True, "lot": True, "defaults": 2, "many_turns": 1})
@example({"seed": "m3", "players": 3, "partners": False, "lot": False, "defaults": 3, "many_turns": 3})
def test_random_games_end_replay_round_trip_and_hide_what_is_hidden(g):
    config = _config(g)
    state = setup(config, g["seed"])
    bots = [Bot(f"{g['seed']}:{s}") for s in range(config.players)]
    moves = []
    steps = 0
    while decisions := pending(state):
        seat = decisions[steps % len(decisions)].seat
        use_default = g["defaults"] == 0 or steps % (g["defaults"] + 3) == 0
        command = default(state, seat) if use_default else bots[seat].choose(state, seat)
        if CHECK_LOG and steps % 4 == 0:
            _hidden_from_log(state, seat, command, use_default)
        state, log = apply(state, seat, command)
        moves.append((seat, command))
        steps += 1
        assert all(json.dumps(dict(e.data)) for e in log)
        for entry in log:  # every entry has a sentence
            assert VS.presentation.narrate(state, entry) not in ("", entry.kind), entry
        for d in pending(state):
            assert VS.presentation.decision_text(view(state, d.seat), d.kind) and VS.notation.describe(
                state, d.seat, "de"
            )
        if steps % 9 == 0 and state.phase != "finished":
            _hidden_from_views(state)
            data = VS.serial.state_to_dict(state)
            assert (
                VS.serial.state_to_dict(VS.serial.state_from_dict(json.loads(json.dumps(data)), config))
                == data
            )
        assert steps < 5000, "the game does not end"
    assert state.phase == "finished" and VS.outcome(state) is not None
    assert VS.serial.state_to_dict(replay(config, g["seed"], moves)) == VS.serial.state_to_dict(state)
    texts = [(seat, VS.notation.format_command(state, c)) for seat, c in moves]
    assert [VS.parse_command(state, t) for _, t in texts] == [c for _, c in moves]
    config_data = json.loads(json.dumps(VS.serial.config_to_data(config)))
    assert VS.serial.config_from_data(config_data, BOARD) == config


random_games = st.fixed_dictionaries(
    {
        "seed": st.text("abcdefghijklmnopqrstuvwxyz0123456789", min_size=1, max_size=8),
        "key": st.integers(0, 2**32),
        "players": st.integers(2, 4),
        "partners": st.booleans(),
        "lot": st.booleans(),
        "many_turns": st.integers(0, 3),
    }
)


@PROFILE
@given(random_games)
@example({"seed": "r4", "key": 4, "players": 4, "partners": True, "lot": True, "many_turns": 0})
@example({"seed": "r2", "key": 2, "players": 2, "partners": False, "lot": False, "many_turns": 3})
def test_random_legal_games_end_keep_invariants_replay_and_refuse_what_is_off_the_menu(g):
    config = _config({**g, "defaults": 0})
    moves = []
    final = None
    for before, seat, command, after, log in play_random(config, g["seed"], str(g["key"])):
        check_invariants(after)
        assert all(json.dumps(dict(e.data)) for e in log)
        if len(moves) % 40 == 0:
            _off_the_menu_is_refused(before)
        if before.phase == "move" and len(moves) % 10 == 0:
            _the_menu_is_what_the_moves_do(before, seat)
        moves.append((seat, command))
        final = after
    assert final is not None and final.phase == "finished" and VS.outcome(final) is not None
    assert VS.serial.state_to_dict(replay(config, g["seed"], moves)) == VS.serial.state_to_dict(final)
    assert VS.serial.state_to_dict(replay(config, g["seed"], moves)) == VS.serial.state_to_dict(final)


def _off_the_menu_is_refused(state: State) -> None:
    """Every seat: a command of a kind it does not owe, or of its kind but not on its menu, is
    refused (and the state, a value, stays as it was)."""
    every: list[Command] = [Keep(), Dial("rr"), Believe(), Doubt(), Stop(), Spare(), Take("red", "hat")]
    every += [Move(code, (d,)) for code in OFFICIALS[:5] for d in "nesw"]
    every += [Move(code, (d,), short=True) for code in OFFICIALS[:5] for d in "nesw"]
    for seat in range(state.players):
        menu = legal(state, seat)
        for command in every:
            if command in menu or (isinstance(command, Move | Dial) and _maybe_legal(state, seat, command)):
                continue
            with pytest.raises(IllegalCommand):
                apply(state, seat, command)


def _maybe_legal(state: State, seat: int, command: Move | Dial) -> bool:
    """A move the menu lists by another path, or a dial changed in an open window: legal
    without being the menu's own entry."""
    if isinstance(command, Dial):
        return owed(state, seat) in ("dial", "rebribe") and state.square_of(command.code) is not None
    menu = legal(state, seat)
    return any(isinstance(m, Move) and m.code == command.code for m in menu)


def _the_menu_is_what_the_moves_do(state: State, seat: int) -> None:
    """Whether the seat can move is whether its menu has a move (the quick check a turn's start
    makes), and a sample of the menu's moves end where the menu says they do."""
    options = move_options(state, seat)
    assert can_move(state, seat) == bool(options)
    target = state.board.pavilion(state.target).square if state.target else None
    for move, end in options[:: max(1, len(options) // 6)]:
        after, log = apply(state, seat, move)
        entered = any(e.kind == "entered" for e in log)
        assert entered == (end == target), move
        assert entered or after.square_of(move.code) == end, move
