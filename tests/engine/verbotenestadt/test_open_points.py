"""The decisions RULES.md records where the seed is silent (its *Open points*) and the details
of the rules the other modules leave open, each a test on a hand-made state of the test board."""

from __future__ import annotations

import pytest

from games.rules import registry
from games.rules.base import IllegalCommand
from games.rules.verbotenestadt.board import Board
from games.rules.verbotenestadt.commands import Believe, Dial, Doubt, Keep, Move, Plan, Spare, Stop, Take
from games.rules.verbotenestadt.constants import MAX_PLAN, SEATS
from games.rules.verbotenestadt.decisions import bluffing_open, legal, pending
from games.rules.verbotenestadt.engine import apply, setup
from games.rules.verbotenestadt.state import Config, Options, evolve
from tests.engine.verbotenestadt.boards import test_board
from tests.engine.verbotenestadt.helpers import (
    BOARD,
    TO_2_SQUARES,
    arrange,
    config,
    hands,
    play,
    rigged,
    started,
)

RED_HAT, RED_COAT, RED_TROUSERS = ("red", "hat"), ("red", "coat"), ("red", "trousers")
ORANGE = [("orange", "hat"), ("orange", "coat"), ("orange", "trousers")]
NINE = ("ry", "rb", "rg", "rk", "yr", "yb", "yg", "yk", "br")
FOURTEEN = ("ry", "rb", "rg", "rk", "yr", "yb", "yg", "yk", "br", "by", "bg", "bk", "gr", "gy")


def kinds(state):
    return [(d.seat, d.kind) for d in pending(state)]


def boxed_board() -> Board:
    """The test board with (12, 5) walled in on all four sides."""
    walls = [[[12, 5], [11, 5]], [[12, 5], [13, 5]], [[12, 5], [12, 4]], [[12, 5], [12, 6]]]
    return test_board(extra_walls=walls)


# -- setup and the start player (OP 10) ----------------------------------------------------


def test_a_first_seat_in_the_config_begins_without_a_roll_off():
    state = setup(config(3, first=2), "s")
    state, log = play(state, (0, Dial("rr")), (1, Dial("yy")), (2, Dial("bb")))
    assert not [e for e in log if e.kind == "start_roll"]
    assert [e.data["seat"] for e in log if e.kind == "start_player"] == [2]
    assert state.active == 2 and state.turn == 1 and state.moves == 0


def test_the_start_player_rolls_the_first_target():
    state = setup(config(3, first=1), "s")
    with pytest.MonkeyPatch.context() as monkeypatch, rigged(monkeypatch, targets=[7]):
        state, log = play(state, (0, Dial("rr")), (1, Dial("yy")), (2, Dial("bb")))
    assert [(e.data["seat"], e.data["pavilion"]) for e in log if e.kind == "target"] == [(1, 7)]
    assert state.target == 7


def test_the_four_grey_yellow_squares_stay_empty_at_the_start():
    state = setup(config(2), "s")
    for square in state.board.extra_start:
        assert square not in state.occupied()


# -- the dial windows ------------------------------------------------------------------------


def test_a_seat_may_change_its_sealed_dial_until_the_last_one_is_in():
    state = setup(config(3, first=0), "s")
    state, log = play(state, (0, Dial("rr")), (0, Dial("kk")), (1, Dial("yy")))
    assert [e.kind for e in log if e.private_to is None] == ["submitted", "changed", "submitted"]
    assert state.dials == (None, None, None)  # nothing counts before the window closes
    state, _ = apply(state, 2, Dial("bb"))
    assert state.dials == ("kk", "yy", "bb")
    with pytest.raises(IllegalCommand):
        apply(state, 0, Dial("gg"))  # closed: dials change only in a window


def test_keep_is_refused_in_the_first_window_and_a_dial_of_no_official_anywhere():
    state = setup(config(2), "s")
    for command in (Keep(), Dial("zz")):
        with pytest.raises(IllegalCommand):
            apply(state, 0, command)
    with pytest.raises(IllegalCommand):
        apply(state, 0, Believe())


def test_a_kept_dial_whose_official_went_to_the_terrace_is_refused_and_the_menu_does_not_offer_it(
    monkeypatch,
):
    state = arrange(started(3, dials=["rr", "rr", "yy"]), TO_2_SQUARES, target=2)
    state, _ = apply(state, 0, Move("rr", ("n",)))
    assert Keep() not in legal(state, 1) and Keep() in legal(state, 2)
    with pytest.raises(IllegalCommand):
        apply(state, 1, Keep())
    assert Dial("rr") not in legal(state, 1) and Dial("yy") in legal(state, 1)


def test_every_window_commits_every_dial_of_the_window_afresh():
    state = arrange(started(3), TO_2_SQUARES, target=2)
    before = state.commitments
    state, log = play(state, (0, Move("rr", ("n",))), (0, Dial("yy")), (1, Keep()), (2, Keep()))
    assert state.dial_sets == (2, 2, 2)
    assert all(a != b for a, b in zip(before, state.commitments, strict=True))
    assert [e.data["commitments"] for e in log if e.kind == "dials"] == [list(state.commitments)]
    assert [(e.data["seat"], e.data["code"]) for e in log if e.kind == "dial"] == [(0, "yy")]
    assert all(e.private_to == 0 for e in log if e.kind == "dial")


# -- moves and the fate dice (OP 11, 12, 30) --------------------------------------------------


def test_a_refused_move_changes_nothing_and_names_the_menu():
    state = arrange(started(3), TO_2_SQUARES, target=1)
    with pytest.raises(IllegalCommand) as refused:
        apply(state, 0, Move("rr", ("s", "s")))
    assert refused.value.legal and "move rr" in " ".join(refused.value.legal)
    with pytest.raises(IllegalCommand):
        apply(state, 1, Move("yy", ("n",)))  # not its turn
    with pytest.raises(IllegalCommand):
        apply(state, 5, Move("yy", ("n",)))  # no such seat
    with pytest.raises(IllegalCommand):
        apply(state, 0, Move("zz", ("n",)))  # no such official
    with pytest.raises(IllegalCommand):
        apply(evolve(state, terrace=("rr",), squares=(None, *state.squares[1:])), 0, Move("rr", ("n",)))


def test_the_large_die_is_rolled_after_the_third_move_and_every_later_one(monkeypatch):
    state = arrange(started(2), {"yy": (9, 2), "bb": (9, 12), "gg": (12, 12), "kk": (12, 2)}, target=2)
    moves = [
        Move("yy", ("n",)),
        Move("yy", ("s",)),
        Move("yy", ("n",)),
        Move("yy", ("s",)),
        Move("yy", ("n",)),
    ]
    with rigged(monkeypatch, faces=["red"] * 5):
        state, log = play(state, *((0, m) for m in moves))
    assert [e.data["die"] for e in log if e.kind == "fate"] == ["small", "middle", "large", "large", "large"]
    assert [e.data["seat"] for e in log if e.kind == "fate"] == [1] * 5
    assert state.moves == 5 and state.active == 0


def test_after_a_black_die_the_next_seat_clockwise_plays_its_turn_from_the_small_die(monkeypatch):
    state = arrange(started(3), {"yy": (9, 2), "bb": (9, 12), "gg": (12, 12), "kk": (12, 2)}, target=2)
    with rigged(monkeypatch, faces=["black", "red"]):
        state, log = play(state, (0, Move("yy", ("n",))), (1, Move("bb", ("n",))))
    assert [(e.data["seat"], e.data["die"]) for e in log if e.kind == "fate"] == [(1, "small"), (2, "small")]
    assert [e.data["turn"] for e in log if e.kind == "turn"] == [2]
    assert state.active == 1 and state.moves == 1


def test_the_last_seat_passes_the_turn_to_the_first(monkeypatch):
    state = evolve(arrange(started(3), {"yy": (9, 2)}, target=2), active=2)
    with rigged(monkeypatch, faces=["black"]):
        state, log = apply(state, 2, Move("yy", ("n",)))
    assert state.active == 0 and [e.data["seat"] for e in log if e.kind == "fate"] == [0]


def test_a_pavilion_face_is_rolled_by_the_active_player_and_a_new_target_after_an_entry_by_the_mover(
    monkeypatch,
):
    state = arrange(started(3), TO_2_SQUARES, target=1)
    with rigged(monkeypatch, faces=["red-pavilion"], targets=[2, 5]):
        state, log = apply(state, 0, Move("yy", ("n",)))
        state, more = play(state, (0, Move("rr", ("n",))), (0, Dial("bb")), (1, Keep()), (2, Keep()))
    assert [(e.data["seat"], e.data["pavilion"]) for e in log + more if e.kind == "target"] == [
        (0, 2),
        (0, 5),
    ]
    assert state.active == 1 and state.target == 5


def test_nobody_able_to_move_passes_the_turn_and_a_round_of_it_ends_the_game():
    """OP 24: the last official on the board is walled in."""
    board = boxed_board()
    state = setup(Config(board, SEATS[:3], first_seat=0), "t")
    state, _ = play(state, (0, Dial("rr")), (1, Dial("rr")), (2, Dial("rr")))
    state = arrange(state, {"rr": (5, 7), "kk": (12, 5)}, target=2)
    state, log = play(state, (0, Move("rr", ("n",))), (0, Dial("kk")), (1, Dial("kk")), (2, Dial("kk")))
    assert [e.data["seat"] for e in log if e.kind == "no_move"] == [1, 2, 0]
    assert state.phase == "finished" and any(e.kind == "game_over" for e in log)


def test_a_turn_that_can_move_again_resets_the_count_of_passes():
    board = boxed_board()
    state = setup(Config(board, SEATS[:2], first_seat=0), "t")
    state, _ = play(state, (0, Dial("rr")), (1, Dial("rr")))
    state = evolve(arrange(state, {"rr": (5, 7), "kk": (12, 5), "yy": (9, 2)}, target=2), passes=1)
    with pytest.MonkeyPatch.context() as monkeypatch, rigged(monkeypatch, faces=["black"]):
        state, _ = apply(state, 0, Move("yy", ("n",)))
    assert state.passes == 0 and state.phase == "move" and state.active == 1


# -- plans (OP 26) ----------------------------------------------------------------------------


def test_a_plan_whose_first_move_is_impossible_is_refused_whole():
    state = arrange(started(3), TO_2_SQUARES, target=1)
    with pytest.raises(IllegalCommand):
        apply(state, 0, Plan((Move("rr", ("s", "s")), Move("yy", ("n",)))))
    assert state.moves == 0 and state.plan == ()


def test_a_plan_holds_at_most_twenty_moves():
    state = arrange(started(3), TO_2_SQUARES, target=1)
    with pytest.raises(IllegalCommand) as refused:
        apply(state, 0, Plan((Move("yy", ("n",)),) * (MAX_PLAN + 1)))
    assert "20" in str(refused.value)
    with pytest.MonkeyPatch.context() as monkeypatch, rigged(monkeypatch, faces=["black"]):
        state, _ = apply(state, 0, Plan((Move("yy", ("n",)),) * MAX_PLAN))
    assert state.active == 1


def test_an_empty_plan_is_a_stop_and_refused_before_the_first_move(monkeypatch):
    state = arrange(started(3), TO_2_SQUARES, target=1)
    with pytest.raises(IllegalCommand):
        apply(state, 0, Plan(()))
    with rigged(monkeypatch, faces=["red"]):
        state, log = play(state, (0, Move("yy", ("n",))), (0, Plan(())))
    assert state.active == 1 and any(e.kind == "stopped" for e in log)


def test_a_plan_that_ends_with_stop_stops_after_its_last_move(monkeypatch):
    state = arrange(started(3), TO_2_SQUARES, target=1)
    with rigged(monkeypatch, faces=["red", "red"]):
        state, log = apply(state, 0, Plan((Move("yy", ("n",)), Move("bb", ("n",))), stop=True))
    assert [e.kind for e in log if e.kind in ("moved", "stopped")] == ["moved", "moved", "stopped"]
    assert state.active == 1 and not state.plan_stop


# -- entries, the challenge and the cards (OP 5, 6, 14, 15, 17, 19, 20, 28, 29) ----------------


def test_before_bluffing_opens_an_honest_entry_goes_through_no_challenge():
    state = hands(arrange(started(3), TO_2_SQUARES, target=2), [RED_HAT])  # only the mover holds one
    assert not bluffing_open(state, 0)
    state, log = apply(state, 0, Move("rr", ("n",)))
    assert not [e for e in log if e.kind == "challenge"] and state.phase == "dial"
    assert [e.data["seat"] for e in log if e.kind == "revealed"] == [0]


def test_once_bluffing_is_open_an_honest_entry_is_challenged_too_and_only_card_holders_answer():
    state = hands(arrange(started(4), TO_2_SQUARES, target=2), [RED_HAT], [], [RED_COAT], [RED_TROUSERS])
    state, log = apply(state, 0, Move("rr", ("n",)))
    assert [e.data["challengers"] for e in log if e.kind == "challenge"] == [[2, 3]]
    assert kinds(state) == [(2, "challenge"), (3, "challenge")]
    assert not [e for e in log if e.kind == "revealed"]  # the dial is shown after the answers


def test_a_challenger_may_change_its_answer_until_the_last_is_in():
    state = hands(arrange(started(3), TO_2_SQUARES, target=2), [RED_HAT], [RED_COAT], [RED_TROUSERS])
    state, _ = play(state, (0, Move("rr", ("n",))), (1, Doubt()), (1, Believe()))
    assert state.phase == "challenge"
    state, log = apply(state, 2, Believe())
    assert [e.data["case"] for e in log if e.kind == "challenge_result"] == ["honest"]
    with pytest.raises(IllegalCommand):
        apply(state, 1, Doubt())


def test_the_mover_shows_its_dial_after_the_challenge_and_the_card_goes_with_the_result():
    state = hands(arrange(started(3), TO_2_SQUARES, target=2), [RED_HAT], [RED_COAT], [])
    state, log = play(state, (0, Move("rr", ("n",))), (1, Believe()))
    shown = [(e.data["seat"], e.data["code"]) for e in log if e.kind == "revealed"]
    assert shown == [(0, "rr")]
    assert len(state.hands[0]) == 2 and state.hands[0][1][0] == "orange"


def test_a_doubted_honest_entry_with_one_card_to_take_takes_it_at_once():
    state = hands(arrange(started(3), TO_2_SQUARES, target=2), [RED_HAT], [RED_COAT], [])
    state, log = play(state, (0, Move("rr", ("n",))), (1, Doubt()))
    assert RED_COAT in state.hands[0] and state.hands[1] == ()
    assert kinds(state) == [(0, "dial"), (1, "rebribe"), (2, "rebribe")]  # no question asked
    assert [e.data["reason"] for e in log if e.kind == "took"] == ["penalty"]


def test_the_penalty_is_chosen_from_the_losers_cards_only():
    state = hands(
        arrange(started(3, dials=["yy", "bb", "gg"]), TO_2_SQUARES, target=2),
        [RED_HAT, ("white", "hat")],
        [RED_COAT],
        [RED_TROUSERS],
    )
    state, _ = play(state, (0, Move("rr", ("n",))), (1, Doubt()), (2, Doubt()))
    # a bluff doubted by east first: east takes the card and chooses one of north's
    assert kinds(state) == [(1, "penalty")]
    assert set(legal(state, 1)) == {Take(*RED_HAT), Take("white", "hat")}
    with pytest.raises(IllegalCommand):
        apply(state, 1, Take(*RED_TROUSERS))
    with pytest.raises(IllegalCommand):
        apply(state, 1, Spare())  # a penalty may not be spared
    state, _ = apply(state, 1, Take("white", "hat"))
    assert state.hands[0] == (RED_HAT,) and ("white", "hat") in state.hands[1]


def test_a_bluff_believed_gives_an_extra_turn_that_starts_from_the_small_die(monkeypatch):
    state = hands(
        arrange(started(3, dials=["yy", "bb", "gg"]), TO_2_SQUARES, target=2), [RED_HAT], [RED_COAT]
    )
    with rigged(monkeypatch, faces=["red"], targets=[3]):
        state, log = play(
            state,
            (0, Move("rr", ("n",))),
            (1, Believe()),
            (0, Dial("kk")),
            (1, Keep()),
            (2, Keep()),
            (0, Move("yy", ("n",))),
        )
    assert [e.data["seat"] for e in log if e.kind == "extra_turn"] == [0]
    assert [e.data["die"] for e in log if e.kind == "fate"] == ["small"]
    assert state.active == 0 and state.moves == 1 and not state.extra_turn


def test_the_same_choice_does_not_apply_to_a_bluff_with_another_players_official():
    state = hands(
        arrange(started(3, dials=["yy", "rr", "gg"]), TO_2_SQUARES, target=2), [RED_HAT], [RED_COAT]
    )
    state, log = play(state, (0, Move("rr", ("n",))), (1, Believe()))
    assert [e.data["seat"] for e in log if e.kind == "revealed"] == [0]
    assert state.hands[0][-1][0] == "orange" and state.hands[1] == (RED_COAT,)


def test_the_same_choice_applies_before_bluffing_opens_and_the_mover_gets_nothing():
    state = arrange(started(2, dials=["rr", "rr"]), TO_2_SQUARES, target=2)
    state, log = apply(state, 0, Move("rr", ("n",)))
    assert state.hands == ((), (state.hands[1][0],)) and state.hands[1][0][0] == "orange"
    assert [e.data["recipient"] for e in log if e.kind == "same_choice"] == [1]


def test_the_bluff_condition_is_checked_at_each_entry_not_at_the_start_of_the_turn(monkeypatch):
    """OP 14: a dragon in the turn takes the mover's only card, and with it the bluff."""
    state = hands(
        arrange(started(3, dials=["yy", "bb", "gg"]), TO_2_SQUARES, target=2), [RED_HAT], [RED_COAT]
    )
    assert Move("rr", ("n",)) in legal(state, 0)
    with rigged(monkeypatch, faces=["red-dragon"]):
        state, _ = apply(state, 0, Move("kk", ("n",)))
    state, _ = apply(state, 1, Take(*RED_HAT))
    assert Move("rr", ("n",)) not in legal(state, 0)
    with pytest.raises(IllegalCommand):
        apply(state, 0, Move("rr", ("n",)))


def test_the_ninth_and_tenth_officials_take_one_card_and_the_eleventh_all():
    for terrace, cards in [(NINE, 1), ((*NINE, "by"), 3)]:
        state = arrange(started(3), TO_2_SQUARES, target=2, terrace=terrace)
        state, log = apply(state, 0, Move("rr", ("n",)))
        assert len(state.hands[0]) == cards, terrace
        assert [e.data["take_all"] for e in log if e.kind == "entered"] == [cards == 3]


def test_at_an_empty_pavilion_nothing_is_taken_when_nobody_else_holds_its_colour():
    state = arrange(started(3), TO_2_SQUARES, target=2)
    state = evolve(state, piles=(*state.piles[:1], (), *state.piles[2:]), hands=((ORANGE[0],), (), ()))
    state, log = apply(state, 0, Move("rr", ("n",)))
    assert [e.data["reason"] for e in log if e.kind == "nothing"] == ["empty"]
    assert state.hands[0] == (ORANGE[0],) and state.phase == "dial"


def test_a_dragon_roller_may_not_take_its_own_card_and_may_spare():
    state = hands(arrange(started(3), TO_2_SQUARES, target=1), [RED_HAT], [RED_COAT])
    with pytest.MonkeyPatch.context() as monkeypatch, rigged(monkeypatch, faces=["red-dragon"]):
        state, _ = apply(state, 0, Move("yy", ("n",)))
    assert set(legal(state, 1)) == {Take(*RED_HAT), Spare()}
    with pytest.raises(IllegalCommand):
        apply(state, 1, Take(*RED_COAT))
    with pytest.raises(IllegalCommand):
        apply(state, 0, Stop())  # the roller's choice comes first
    state, log = apply(state, 1, Spare())
    assert state.hands[0] == (RED_HAT,) and kinds(state) == [(0, "move")]
    assert [e.data["seat"] for e in log if e.kind == "spared"] == [1]


def test_the_last_entry_settles_its_challenge_and_penalty_before_the_game_ends():
    state = hands(
        arrange(started(3, dials=["yy", "bb", "gg"]), TO_2_SQUARES, target=2, terrace=FOURTEEN),
        [RED_HAT, ("white", "hat")],
        [RED_COAT, ("white", "coat")],
    )
    state, _ = play(state, (0, Move("rr", ("n",))), (1, Doubt()))
    assert state.phase == "take" and kinds(state) == [(1, "penalty")]
    state, log = apply(state, 1, Take(*RED_HAT))
    assert state.phase == "finished" and state.hands[0] == (("white", "hat"),)
    assert sorted(e.data["seat"] for e in log if e.kind == "revealed") == [1, 2]  # north's was shown
    with pytest.raises(IllegalCommand):
        apply(state, 2, Keep())


def test_a_dragon_is_idle_when_only_the_roller_holds_cards(monkeypatch):
    state = hands(arrange(started(3), TO_2_SQUARES, target=1), [], [RED_HAT, RED_COAT])
    with rigged(monkeypatch, faces=["red-dragon"]):
        state, log = apply(state, 0, Move("yy", ("n",)))
    assert [e.data["seat"] for e in log if e.kind == "dragon_idle"] == [1]
    assert kinds(state) == [(0, "move")] and state.hands[1] == (RED_HAT, RED_COAT)


def test_the_menu_offers_stop_only_once_the_player_has_moved(monkeypatch):
    state = arrange(started(3), TO_2_SQUARES, target=1)
    assert Stop() not in legal(state, 0)
    with rigged(monkeypatch, faces=["red"]):
        state, _ = apply(state, 0, Move("yy", ("n",)))
    assert Stop() in legal(state, 0)


# -- the table -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("seats", "partners", "first", "edition"),
    [
        (SEATS[:1], False, None, "ravensburger"),
        ((*SEATS, "fifth"), False, None, "ravensburger"),
        (SEATS[:3], True, None, "ravensburger"),
        (SEATS[:2], False, 2, "ravensburger"),
        (SEATS[:2], False, None, "other"),
    ],
    ids=["one player", "five players", "partners of three", "no such first seat", "no such edition"],
)
def test_a_table_is_two_to_four_players_and_partners_are_four(seats, partners, first, edition):
    with pytest.raises(ValueError):
        Config(BOARD, seats, edition=edition, options=Options(partners=partners), first_seat=first)
    assert Config(BOARD, SEATS, options=Options(partners=True)).partner(1) == 3
    assert Config(BOARD, SEATS[:2], first_seat=1).players == 2


# -- tasks that follow one another: the pavilion's card(s), then the penalty (OP 15) ----------


def _empty_pavilion_2(state):
    return evolve(state, piles=(*state.piles[:1], (), *state.piles[2:]))


def test_sparing_the_card_of_an_empty_pavilion_still_leaves_the_penalty_to_choose():
    state = _empty_pavilion_2(arrange(started(3, dials=["rr", "bb", "gg"]), TO_2_SQUARES, target=2))
    state = evolve(state, hands=((RED_HAT,), (RED_COAT, ORANGE[0]), (ORANGE[1],)))
    state, _ = play(state, (0, Move("rr", ("n",))), (1, Doubt()), (2, Believe()))
    assert kinds(state) == [(0, "empty")]
    state, _ = apply(state, 0, Spare())
    assert kinds(state) == [(0, "penalty")]
    state, _ = apply(state, 0, Take(*RED_COAT))
    assert set(state.hands[0]) == {RED_HAT, RED_COAT} and state.hands[1] == (ORANGE[0],)


def test_after_ten_a_doubted_honest_entry_at_an_empty_pavilion_takes_its_colour_then_the_penalty():
    terrace = (*NINE, "by")
    state = arrange(started(3, dials=["rr", "bb", "gg"]), TO_2_SQUARES, target=2, terrace=terrace)
    state = _empty_pavilion_2(state)
    state = evolve(state, hands=((RED_HAT,), (RED_COAT, RED_TROUSERS, ORANGE[0]), (ORANGE[1],)))
    state, _ = play(state, (0, Move("rr", ("n",))), (1, Doubt()), (2, Believe()))
    assert set(state.hands[0]) == {RED_HAT, ORANGE[0], ORANGE[1]}  # the colour from both others
    assert kinds(state) == [(0, "penalty")]
    state, _ = apply(state, 0, Take(*RED_TROUSERS))
    assert state.hands[1] == (RED_COAT,) and RED_TROUSERS in state.hands[0]


def test_an_entry_ends_the_turn_and_drops_the_rest_of_the_plan():
    state = arrange(started(3), TO_2_SQUARES, target=2)
    state, log = apply(state, 0, Plan((Move("rr", ("n",)), Move("yy", ("n",))), stop=True))
    assert [e.data["moves"] for e in log if e.kind == "plan_dropped"] == [1]
    assert state.plan == () and not state.plan_stop and state.phase == "dial"


def test_the_clock_gives_a_day_per_decision_and_twelve_hours_to_the_sealed_windows():
    """RULES.md, Play by mail: the clock, and the log entries that tell sealed choices."""
    vs = registry.get("verbotenestadt")
    assert vs.about.time_controls == {"hours_per_decision": 24, "reminder_hours": [12, 2]}
    assert vs.about.short_windows == {"rebribe": 12, "challenge": 12}
    assert {"dials", "answers", "revealed"} == vs.about.REVEALS
