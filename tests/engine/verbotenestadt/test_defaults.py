"""What a missed deadline plays in Die Verbotene Stadt (defaults.py; RULES.md "Defaults" and
OP 27), on hand-made states."""

from __future__ import annotations

import pytest

from games.rules.verbotenestadt.commands import Believe, Dial, Keep, Move, Spare, Stop, Take
from games.rules.verbotenestadt.decisions import move_options
from games.rules.verbotenestadt.defaults import blind_move, default
from games.rules.verbotenestadt.engine import apply
from games.rules.verbotenestadt.search import reach
from games.rules.verbotenestadt.state import evolve
from tests.engine.verbotenestadt.helpers import TO_2_SQUARES, arrange, config, hands, play, rigged, started

RED_HAT, RED_COAT = ("red", "hat"), ("red", "coat")


def test_a_default_dial_names_an_official_on_the_board_by_a_lot_that_leaves_the_dice_alone():
    state = arrange(started(3), TO_2_SQUARES, target=2)
    state, _ = apply(state, 0, Move("rr", ("n",)))
    command = default(state, 0)
    assert isinstance(command, Dial) and command.code in state.on_board() and command.code != "rr"
    assert default(state, 0) == command  # the same lot again
    after, _ = apply(state, 0, command)
    assert after.draws == state.draws


def test_a_default_re_bribe_keeps_a_dial_whose_official_is_on_the_board_and_else_draws_one():
    state = arrange(started(3, dials=["rr", "rr", "yy"]), TO_2_SQUARES, target=2)
    state, _ = apply(state, 0, Move("rr", ("n",)))
    assert default(state, 2) == Keep()
    east = default(state, 1)
    assert isinstance(east, Dial) and east.code in state.on_board()


def test_a_default_answer_to_a_challenge_is_believe():
    state = hands(arrange(started(3), TO_2_SQUARES, target=2), [RED_HAT], [RED_COAT])
    state, _ = apply(state, 0, Move("rr", ("n",)))
    assert default(state, 1) == Believe()


def test_after_the_first_move_the_default_stops(monkeypatch):
    state = arrange(started(3), TO_2_SQUARES, target=1)
    with rigged(monkeypatch, faces=["red"]):
        state, _ = apply(state, 0, Move("yy", ("n",)))
    assert default(state, 0) == Stop()


def test_the_default_first_move_brings_an_official_within_one_move_of_the_target():
    """No official can enter pavilion 2 in one move; two moves (yy west then north, bb one
    step east) bring one within a move of it: the default, chosen without the dial, is one of
    those, by lot."""
    squares = {"kk": (12, 13), "yy": (3, 1), "bb": (7, 6), "gg": (1, 8)}
    state = arrange(started(3, dials=["kk", "yy", "bb"]), squares, target=2)
    chosen = set()
    target = state.board.pavilion(2).square
    for seed in "abcdef":
        seeded = evolve(state, seed=seed)
        move = default(seeded, 0)
        assert isinstance(move, Move)
        chosen.add(move)
        occupied = seeded.occupied(besides=move.code)
        start = seeded.square_of(move.code)
        assert start is not None
        after, log = apply(seeded, 0, move)
        end = after.square_of(move.code)
        assert end is not None and not any(e.kind == "entered" for e in log)
        assert target not in reach(seeded.board, occupied, start, target, 2)
        assert target in reach(seeded.board, occupied, end, target, 2), (seed, move)
    assert chosen == {Move("yy", ("w", "n")), Move("bb", ("e",), short=True)}


def test_a_default_dragon_takes_the_card_worth_most_and_spares_when_only_a_partner_holds_one(monkeypatch):
    state = started(4, partners=True)
    cards = [RED_HAT, ("white", "hat")], [("white", "coat")], [], [RED_COAT]
    state = hands(arrange(state, TO_2_SQUARES, target=1), *cards)
    with rigged(monkeypatch, faces=["red-dragon"]):
        state, _ = apply(state, 0, Move("yy", ("n",)))
    # east rolls for north and holds a white coat: the white hat makes a pair (3 more points),
    # the red hat or west's (the partner's) red coat one point
    assert default(state, 1) == Take("white", "hat")
    lonely = evolve(state, hands=((), (), (), (RED_COAT,)))
    assert default(lonely, 1) == Spare()  # only the partner (west) holds one


def test_a_default_plays_only_for_a_seat_that_owes_a_decision():
    state = started(3)
    with pytest.raises(ValueError):
        default(state, 1)
    assert config(3).players == 3 and play(state)[0] is state


def test_with_no_target_yet_a_default_move_is_drawn_by_lot_among_all_moves():
    """A hand-made position before the blue die has rolled: no square is nearer the target."""
    state = evolve(arrange(started(3), TO_2_SQUARES, target=2), target=None)
    options = move_options(state, 0)
    chosen = {blind_move(evolve(state, turn=turn), 0, options) for turn in range(12)}
    assert chosen <= {m for m, _ in options} and len(chosen) > 1
