"""The rules of Die Verbotene Stadt (seed 003), one test per rule, on the hand-made board."""

from __future__ import annotations

import hashlib
import json

import pytest

from games.rules.base import IllegalCommand
from games.rules.verbotenestadt import dice
from games.rules.verbotenestadt.commands import (
    Believe,
    Dial,
    Doubt,
    Keep,
    Move,
    Plan,
    Spare,
    Stop,
    Take,
)
from games.rules.verbotenestadt.decisions import legal, pending
from games.rules.verbotenestadt.defaults import default
from games.rules.verbotenestadt.engine import apply, outcome, setup
from games.rules.verbotenestadt.state import Options, evolve
from tests.engine.verbotenestadt.helpers import BOARD, arrange, config, hands, play, rigged, started

# pavilion 2 (orange) is at (0, 7), its door (1, 7): an official on (5, 7) sliding north enters it
TO_2 = {"rr": (5, 7), "yy": (9, 2), "bb": (9, 12), "gg": (12, 12), "kk": (12, 2)}
RED_HAT, RED_COAT, ORANGE_HAT = ("red", "hat"), ("red", "coat"), ("orange", "hat")


def kinds(state):
    return [(d.seat, d.kind) for d in pending(state)]


# -- setup ---------------------------------------------------------------------------------


def test_setup_puts_the_25_officials_on_the_start_squares_and_asks_every_seat_for_a_dial():
    state = setup(config(3), "s")
    assert sorted(s for s in state.squares if s) == sorted(BOARD.start)
    assert all(len(p) == 3 for p in state.piles)
    assert kinds(state) == [(0, "dial"), (1, "dial"), (2, "dial")]
    assert all(d.sealed for d in pending(state))


def test_the_start_player_is_the_first_to_roll_red_on_the_large_die(monkeypatch):
    state = setup(config(3, first=None), "s")
    with rigged(monkeypatch, faces=["black", "black", "red-dragon"], targets=[5]):
        state, log = play(state, (0, Dial("rr")), (1, Dial("yy")), (2, Dial("bb")))
    rolls = [e.data["seat"] for e in log if e.kind == "start_roll"]
    assert rolls == [(rolls[0] + i) % 3 for i in range(3)]  # clockwise from a seat by lot
    assert state.active == rolls[2] and state.target == 5
    assert kinds(state) == [(rolls[2], "move")]


def test_a_dial_is_committed_so_its_reveal_can_be_checked():
    state = started(3)
    salt = dice.salt("t", 0, state.dial_sets[0])
    canonical = json.dumps([0, "rr", salt], separators=(",", ":"))
    assert state.commitments[0] == hashlib.sha256(canonical.encode()).hexdigest()


def test_a_dial_may_only_name_an_official_on_the_board():
    state = setup(config(2), "s")
    state = evolve(state, squares=(None, *state.squares[1:]))  # rr off the board
    with pytest.raises(IllegalCommand):
        apply(state, 0, Dial("rr"))


# -- moves and the fate dice ------------------------------------------------------------


def test_the_first_move_of_a_turn_is_compulsory():
    state = started(3)
    with pytest.raises(IllegalCommand):
        apply(state, 0, Stop())


def test_the_fate_dice_go_small_middle_large_and_black_ends_the_turn(monkeypatch):
    state = arrange(started(3), TO_2, target=1)
    with rigged(monkeypatch, faces=["red", "red", "red", "black"]):
        state, log = play(
            state,
            (0, Move("yy", ("n",))),
            (0, Move("bb", ("n",))),
            (0, Move("gg", ("w",))),
            (0, Move("kk", ("n",))),
        )
    assert [e.data["die"] for e in log if e.kind == "fate"] == ["small", "middle", "large", "large"]
    assert [e.data["seat"] for e in log if e.kind == "fate"] == [1, 1, 1, 1]  # the left neighbour rolls
    assert state.active == 1 and state.moves == 0


def test_after_red_the_player_may_stop(monkeypatch):
    state = arrange(started(3), TO_2, target=1)
    with rigged(monkeypatch, faces=["red"]):
        state, _ = play(state, (0, Move("yy", ("n",))), (0, Stop()))
    assert state.active == 1


def test_entering_the_target_ends_the_turn_without_a_fate_roll(monkeypatch):
    state = arrange(started(3), TO_2, target=2)
    with rigged(monkeypatch, targets=[4]):
        state, log = apply(state, 0, Move("rr", ("n",)))
    assert not [e for e in log if e.kind == "fate"]
    assert state.terrace == ("rr",) and state.square_of("rr") is None
    assert state.hands[0] and state.hands[0][0][0] == "orange"  # the top card of pavilion 2
    assert kinds(state) == [(0, "dial"), (1, "rebribe"), (2, "rebribe")]


def test_after_an_entry_the_mover_sets_a_new_dial_the_others_may_keep_then_the_left_neighbour_plays(
    monkeypatch,
):
    state = arrange(started(3), TO_2, target=2)
    with rigged(monkeypatch, targets=[6]):
        state, _ = play(state, (0, Move("rr", ("n",))), (1, Keep()), (2, Dial("kk")))
        with pytest.raises(IllegalCommand):
            apply(state, 0, Keep())  # the mover's official is on the terrace
        state, _log = apply(state, 0, Dial("gg"))
    assert state.dials == ("gg", "yy", "kk")
    assert state.target == 6 and state.active == 1


def test_a_pavilion_face_rolls_a_new_target_before_the_next_move(monkeypatch):
    state = arrange(started(3), TO_2, target=1)
    with rigged(monkeypatch, faces=["red-pavilion"], targets=[2]):
        state, log = apply(state, 0, Move("yy", ("n",)))
    assert state.target == 2 and kinds(state) == [(0, "move")]
    assert [e.data["reason"] for e in log if e.kind == "target"] == ["fate"]


def test_a_dragon_lets_the_roller_take_a_card_from_any_other_player(monkeypatch):
    state = hands(arrange(started(3), TO_2, target=1), [RED_HAT], [], [RED_COAT])
    with rigged(monkeypatch, faces=["red-dragon"]):
        state, _ = apply(state, 0, Move("yy", ("n",)))
    assert kinds(state) == [(1, "dragon")]
    assert set(legal(state, 1)) == {Take(*RED_HAT), Take(*RED_COAT), Spare()}
    state, _ = apply(state, 1, Take(*RED_HAT))  # from the active player
    assert state.hands[1] == (RED_HAT,) and kinds(state) == [(0, "move")]


def test_a_dragon_with_no_card_to_take_changes_nothing(monkeypatch):
    state = arrange(started(3), TO_2, target=1)
    with rigged(monkeypatch, faces=["red-dragon"]):
        state, log = apply(state, 0, Move("yy", ("n",)))
    assert kinds(state) == [(0, "move")] and any(e.kind == "dragon_idle" for e in log)


# -- bluffing and the challenge ------------------------------------------------------------


def test_before_bluffing_is_open_only_the_bribed_official_may_enter():
    state = arrange(started(3, dials=["yy", "bb", "gg"]), TO_2, target=2)
    with pytest.raises(IllegalCommand) as refused:
        apply(state, 0, Move("rr", ("n",)))
    assert "only the official on your dial" in str(refused.value)
    assert Move("rr", ("n",)) not in legal(state, 0)


def test_bluffing_opens_once_the_mover_and_another_player_own_a_card(monkeypatch):
    state = hands(arrange(started(3, dials=["yy", "bb", "gg"]), TO_2, target=2), [RED_HAT], [], [RED_COAT])
    assert Move("rr", ("n",)) in legal(state, 0)
    state, _log = apply(state, 0, Move("rr", ("n",)))
    assert kinds(state) == [(2, "challenge")]  # only card holders may doubt
    assert all(d.sealed for d in pending(state))


def _challenge(monkeypatch, mover_dial, answers):
    state = hands(
        arrange(started(3, dials=[mover_dial, "bb", "gg"]), TO_2, target=2), [RED_HAT], [RED_COAT], []
    )
    state = evolve(state, piles=(*state.piles[:1], (ORANGE_HAT, *state.piles[1][1:]), *state.piles[2:]))
    with rigged(monkeypatch, targets=[3]):
        state, log = apply(state, 0, Move("rr", ("n",)))
        for seat, answer in answers:
            state, more = apply(state, seat, answer)
            log += more
    return state, log


def test_believed_and_honest_the_mover_takes_the_card(monkeypatch):
    state, log = _challenge(monkeypatch, "rr", [(1, Believe())])
    assert ORANGE_HAT in state.hands[0] and not state.extra_turn
    assert [e.data["case"] for e in log if e.kind == "challenge_result"] == ["honest"]


def test_a_believed_bluff_gives_the_card_and_another_turn(monkeypatch):
    state, log = _challenge(monkeypatch, "yy", [(1, Believe())])
    assert ORANGE_HAT in state.hands[0]
    state, log = play(state, (0, Dial("yy")), (1, Keep()), (2, Keep()))
    assert state.active == 0 and any(e.kind == "extra_turn" for e in log)


def test_a_doubted_honest_mover_takes_the_card_and_one_of_the_doubters(monkeypatch):
    state, _ = _challenge(monkeypatch, "rr", [(1, Doubt())])
    assert ORANGE_HAT in state.hands[0] and RED_COAT in state.hands[0] and state.hands[1] == ()


def test_a_doubted_bluffer_loses_the_card_and_one_of_his_own(monkeypatch):
    state, _ = _challenge(monkeypatch, "yy", [(1, Doubt())])
    assert state.hands[0] == () and set(state.hands[1]) == {RED_COAT, ORANGE_HAT, RED_HAT}


def test_only_the_first_doubter_clockwise_from_the_mover_counts(monkeypatch):
    state = hands(
        arrange(started(4, dials=["yy", "bb", "gg", "kk"]), TO_2, target=2),
        [RED_HAT],
        [],
        [RED_COAT],
        [ORANGE_HAT],
    )
    state, _ = apply(state, 0, Move("rr", ("n",)))
    state, log = play(state, (3, Doubt()), (2, Doubt()))
    assert [e.data["doubter"] for e in log if e.kind == "answers"] == [2]


def test_the_winner_of_a_challenge_chooses_the_penalty_card(monkeypatch):
    state = hands(
        arrange(started(3, dials=["rr", "bb", "gg"]), TO_2, target=2),
        [RED_HAT],
        [RED_COAT, ("red", "trousers")],
        [],
    )
    state, _ = apply(state, 0, Move("rr", ("n",)))
    state, _ = apply(state, 1, Doubt())
    assert kinds(state) == [(0, "penalty")]
    state, _ = apply(state, 0, Take("red", "trousers"))
    assert ("red", "trousers") in state.hands[0] and state.hands[1] == (RED_COAT,)


def test_the_same_choice_gives_the_card_to_the_holder_furthest_clockwise(monkeypatch):
    state = arrange(started(4, dials=["rr", "rr", "yy", "rr"]), TO_2, target=2)
    state, log = apply(state, 0, Move("rr", ("n",)))
    assert state.hands[3] and not state.hands[0] and not state.hands[1]
    assert sorted(e.data["seat"] for e in log if e.kind == "revealed") == [0, 1, 3]


# -- empty pavilions, take-all, the end ------------------------------------------------------


def test_at_an_empty_pavilion_the_mover_takes_a_card_of_its_colour_from_another_player():
    state = arrange(started(3), TO_2, target=2)
    orange = [("orange", "hat"), ("orange", "coat"), ("orange", "trousers")]
    state = evolve(
        state, piles=(*state.piles[:1], (), *state.piles[2:]), hands=((), (orange[0],), tuple(orange[1:]))
    )
    state, _ = apply(state, 0, Move("rr", ("n",)))
    assert kinds(state) == [(0, "empty")]
    assert set(legal(state, 0)) == {
        Take("orange", "hat"),
        Take("orange", "coat"),
        Take("orange", "trousers"),
        Spare(),
    }
    state, _ = apply(state, 0, Take("orange", "coat"))
    assert state.hands[0] == (("orange", "coat"),)


def test_after_ten_on_the_terrace_an_entry_takes_all_the_cards_of_the_pavilion():
    state = arrange(
        started(3), TO_2, target=2, terrace=("ry", "rb", "rg", "rk", "yr", "yb", "yg", "yk", "br", "by")
    )
    state, _ = apply(state, 0, Move("rr", ("n",)))
    assert sorted(state.hands[0]) == sorted([("orange", p) for p in ("hat", "coat", "trousers")])


def test_after_ten_an_empty_pavilion_gives_its_three_cards_from_the_others():
    state = arrange(
        started(3), TO_2, target=2, terrace=("ry", "rb", "rg", "rk", "yr", "yb", "yg", "yk", "br", "by")
    )
    state = evolve(state, piles=(*state.piles[:1], (), *state.piles[2:]))
    state = evolve(
        state, hands=((), (("orange", "hat"), RED_HAT), (("orange", "coat"), ("orange", "trousers")))
    )
    state, _ = apply(state, 0, Move("rr", ("n",)))
    assert len(state.hands[0]) == 3 and state.hands[1] == (RED_HAT,)


def test_the_game_ends_when_the_fifteenth_official_reaches_the_terrace():
    terrace = ("ry", "rb", "rg", "rk", "yr", "yb", "yg", "yk", "br", "by", "bg", "bk", "gr", "gy")
    state = arrange(started(3), TO_2, target=2, terrace=terrace)
    state, log = apply(state, 0, Move("rr", ("n",)))
    assert state.phase == "finished" and pending(state) == ()
    assert not [e for e in log if e.kind in ("rebribe", "target", "turn", "extra_turn")]  # nothing after
    assert sorted(e.data["seat"] for e in log if e.kind == "revealed") == [0, 1, 2]  # all dials shown
    result = outcome(state)
    assert result is not None and result.winners == (0,)


def test_a_believed_bluff_on_the_last_entry_gives_no_extra_turn():
    terrace = ("ry", "rb", "rg", "rk", "yr", "yb", "yg", "yk", "br", "by", "bg", "bk", "gr", "gy")
    state = hands(
        arrange(started(3, dials=["yy", "bb", "gg"]), TO_2, target=2, terrace=terrace), [RED_HAT], [RED_COAT]
    )
    state, log = play(state, (0, Move("rr", ("n",))), (1, Believe()))
    assert [e.data["case"] for e in log if e.kind == "challenge_result"] == ["bluff"]
    assert ORANGE_HAT[0] in [c[0] for c in state.hands[0]]  # the bluffer still takes the card
    assert state.phase == "finished" and not state.extra_turn
    assert not [e for e in log if e.kind in ("rebribe", "target", "turn", "extra_turn")]


# -- plans ------------------------------------------------------------------------------------


def test_a_plan_is_carried_out_while_the_fate_dice_stay_red(monkeypatch):
    state = arrange(started(3), TO_2, target=1)
    plan = Plan((Move("yy", ("n",)), Move("bb", ("n",)), Move("gg", ("w",))), stop=True)
    with rigged(monkeypatch, faces=["red", "red", "red"]):
        state, log = apply(state, 0, plan)
    assert [e.data["code"] for e in log if e.kind == "moved"] == ["yy", "bb", "gg"]
    assert state.active == 1  # stopped after the plan


def test_a_plan_asks_again_when_it_runs_out(monkeypatch):
    state = arrange(started(3), TO_2, target=1)
    with rigged(monkeypatch, faces=["red", "red"]):
        state, _ = apply(state, 0, Plan((Move("yy", ("n",)), Move("bb", ("n",)))))
    assert kinds(state) == [(0, "move")] and state.moves == 2


def test_a_black_die_ends_the_plan_and_the_turn(monkeypatch):
    state = arrange(started(3), TO_2, target=1)
    with rigged(monkeypatch, faces=["black"]):
        state, log = apply(state, 0, Plan((Move("yy", ("n",)), Move("bb", ("n",)))))
    assert state.active == 1 and any(e.kind == "plan_dropped" for e in log)


def test_a_new_target_drops_the_rest_of_the_plan(monkeypatch):
    state = arrange(started(3), TO_2, target=1)
    with rigged(monkeypatch, faces=["red-pavilion"], targets=[5]):
        state, log = apply(state, 0, Plan((Move("yy", ("n",)), Move("bb", ("n",))), stop=True))
    assert kinds(state) == [(0, "move")] and state.target == 5 and state.plan == ()
    assert [e.data["moves"] for e in log if e.kind == "plan_dropped"] == [1]


def test_a_dragon_interrupts_the_plan_which_goes_on_after_the_rollers_choice(monkeypatch):
    state = hands(arrange(started(3), TO_2, target=1), [RED_HAT])
    with rigged(monkeypatch, faces=["red-dragon", "red"]):
        state, _ = apply(state, 0, Plan((Move("yy", ("n",)), Move("bb", ("n",))), stop=True))
        assert kinds(state) == [(1, "dragon")]
        state, log = apply(state, 1, Take(*RED_HAT))
    assert [e.data["code"] for e in log if e.kind == "moved"] == ["bb"] and state.active == 1


def test_a_plan_move_that_became_impossible_ends_the_plan(monkeypatch):
    state = arrange(started(3), TO_2, target=1)
    # yy slides north from (9,2) to (4,2)... then "yy s" would need room: make it a move into a wall
    with rigged(monkeypatch, faces=["red"]):
        state, log = apply(state, 0, Plan((Move("yy", ("n",)), Move("yy", ("n",)))))
    assert any(e.kind == "plan_broken" for e in log)
    assert [e.private_to for e in log if e.kind == "plan_reason"] == [0]
    assert kinds(state) == [(0, "move")] and state.plan == ()


# -- defaults ------------------------------------------------------------------------------------


def test_defaults_keep_believe_stop_and_make_the_compulsory_first_move(monkeypatch):
    state = arrange(started(3), TO_2, target=2)
    assert default(state, 0) == Move("rr", ("n",))  # the bribed official into the target
    with rigged(monkeypatch, faces=["red"]):
        moved, _ = apply(state, 0, Move("yy", ("n",)))
    assert default(moved, 0) == Stop()
    state, _ = apply(state, 0, Move("rr", ("n",)))
    assert default(state, 1) == Keep()
    assert isinstance(default(state, 0), Dial) and default(state, 0).code != "rr"


def test_by_default_a_move_turns_at_most_once():
    state = arrange(setup(config(3, many_turns=False), "t"), TO_2, target=1, phase="move", active=0)
    with pytest.raises(IllegalCommand, match="at most 2 slides"):
        apply(state, 0, Move("yy", ("n", "e", "s")))
    assert all(len(m.path) <= 2 for m in legal(state, 0) if isinstance(m, Move))
    assert Options().many_turns is False and state.config.max_slides == 2


def test_with_the_many_turns_option_a_move_turns_again_after_every_slide():
    state = arrange(setup(config(3, many_turns=True), "t"), TO_2, target=1, phase="move", active=0)
    assert any(len(m.path) > 2 for m in legal(state, 0) if isinstance(m, Move))


def test_config_data_with_the_former_option_one_turn_still_loads():
    from games.rules import registry

    vs = registry.get("verbotenestadt")
    data = vs.serial.config_to_data(config(3, many_turns=False))
    assert data["options"] == {"partners": False, "many_turns": False}
    for one_turn, many in ((False, True), (True, False)):
        old = {**data, "options": {"partners": False, "one_turn": one_turn}}
        assert vs.serial.config_from_data(old, BOARD).options.many_turns is many
        assert (
            vs.serial.make_config(BOARD, 3, "ravensburger", {"one_turn": one_turn}, 0).options.many_turns
            is many
        )
    assert vs.serial.make_config(BOARD, 3, "ravensburger", {}, 0).options == Options()


# -- what a seat sees, defaults for cards ------------------------------------------------------


def test_a_view_shows_a_seat_its_own_dial_and_nobody_elses():
    from games.rules.verbotenestadt.views import view

    state = started(3)
    assert view(state, 1)["dial"] == {"code": "yy"}
    assert view(state, None)["dial"] is None
    for seen in (view(state, 0), view(state, None)):
        assert all(p["dial"] is None for p in seen["players"])
        assert "yy" not in json.dumps({k: v for k, v in seen.items() if k != "officials"})
    assert all(len(p["commitment"]) == 64 for p in view(state, None)["players"])


def test_a_shown_dial_matches_its_commitment():
    state = arrange(started(3), TO_2, target=2)
    commitment = state.commitments[0]
    _, log = apply(state, 0, Move("rr", ("n",)))
    shown = next(e.data for e in log if e.kind == "revealed")
    canonical = json.dumps([shown["seat"], shown["code"], shown["salt"]], separators=(",", ":"))
    assert hashlib.sha256(canonical.encode()).hexdigest() == commitment == shown["commitment"]


def test_a_dragon_may_take_nothing(monkeypatch):
    state = hands(arrange(started(3), TO_2, target=1), [RED_HAT])
    with rigged(monkeypatch, faces=["red-dragon"]):
        state, _ = apply(state, 0, Move("yy", ("n",)))
    state, log = apply(state, 1, Spare())
    assert state.hands[0] == (RED_HAT,) and any(e.kind == "spared" for e in log)


def test_the_default_card_is_the_most_valuable_and_spares_a_partner(monkeypatch):
    state = hands(
        arrange(started(4, partners=True), TO_2, target=1),
        [RED_HAT],
        [("blue", "hat"), ("blue", "coat")],
        [],
        [("blue", "trousers")],
    )
    with rigged(monkeypatch, faces=["red-dragon"]):
        state, _ = apply(state, 0, Move("yy", ("n",)))
    assert kinds(state) == [(1, "dragon")]
    # west's blue trousers would make east's blue a triple, but west is east's partner
    assert default(state, 1) == Take("red", "hat")
    state = hands(state, [], [("blue", "hat"), ("blue", "coat")], [], [("blue", "trousers")])
    assert default(state, 1) == Spare()  # a dragon spares a partner when nothing else
