"""The rules as seed 003 words them where the engine once read more into its words (plans
broken and kept, empty pavilions, the tenth and eleventh entries, challenges, the order
clockwise from a mover other than north, two-player games), and nothing public that tells a
dial; one test per behaviour, on the hand-made board."""

from __future__ import annotations

import hashlib
import json

import pytest

from games.rules import registry
from games.rules.verbotenestadt import engine
from games.rules.verbotenestadt.commands import Believe, Dial, Doubt, Keep, Move, Plan, Spare, Stop, Take
from games.rules.verbotenestadt.decisions import legal, move_options, pending
from games.rules.verbotenestadt.defaults import default
from games.rules.verbotenestadt.engine import apply, setup
from games.rules.verbotenestadt.narrate import narrate
from games.rules.verbotenestadt.state import evolve
from tests.engine.verbotenestadt.helpers import arrange, config, hands, play, rigged, started

TO_2 = {"rr": (5, 7), "yy": (9, 2), "bb": (9, 12), "gg": (12, 12), "kk": (12, 2)}


def kinds(state):
    return [(d.seat, d.kind) for d in pending(state)]


def public(log):
    return [e for e in log if e.private_to is None]


# -- a plan that breaks tells the others only that it ended (review 3) ----------------------


def test_a_broken_plan_names_the_official_only_to_its_player(monkeypatch):
    state = arrange(started(3), TO_2, target=1)
    with rigged(monkeypatch, faces=["red"]):
        state, log = apply(state, 0, Plan((Move("yy", ("n",)), Move("yy", ("n",)))))
    broken = [e for e in public(log) if e.kind == "plan_broken"]
    assert len(broken) == 1 and "code" not in broken[0].data
    assert broken[0].data == {"seat": 0, "left": 1}  # the move that failed counts as left
    assert "yy" not in narrate(state, broken[0])
    reason = [e for e in log if e.kind == "plan_reason"]
    assert [e.private_to for e in reason] == [0] and reason[0].data["code"] == "yy"
    assert "yy" in narrate(state, reason[0])
    assert kinds(state) == [(0, "move")]


# -- a pavilion face drops a plan only when the target changes (review 4) --------------------


def test_a_pavilion_face_that_rolls_the_same_target_lets_the_plan_go_on(monkeypatch):
    state = arrange(started(3), TO_2, target=1)
    with rigged(monkeypatch, faces=["red-pavilion", "red"], targets=[1]):
        state, log = apply(state, 0, Plan((Move("yy", ("n",)), Move("bb", ("n",))), stop=True))
    assert [e.data["code"] for e in log if e.kind == "moved"] == ["yy", "bb"]
    assert [e.data["pavilion"] for e in log if e.kind == "target"] == [1]
    assert not [e for e in log if e.kind == "plan_dropped"] and state.active == 1


def test_a_pavilion_face_keeping_the_target_asks_a_player_without_a_plan_as_before(monkeypatch):
    state = arrange(started(3), TO_2, target=1)
    with rigged(monkeypatch, faces=["red-pavilion"], targets=[1]):
        state, _ = apply(state, 0, Move("yy", ("n",)))
    assert state.target == 1 and kinds(state) == [(0, "move")] and state.moves == 1


# -- the start roll-off begins at a seat drawn by lot (review 5) ------------------------------


def test_the_start_roll_off_begins_at_a_seat_drawn_by_lot(monkeypatch):
    begins = set()
    for seed in range(24):
        state = setup(config(4, first=None), f"s{seed}")
        with rigged(monkeypatch, faces=["black", "red"] * 30):
            state, log = play(state, *((s, Dial(c)) for s, c in enumerate(["rr", "yy", "bb", "gg"])))
        rolls = [e.data["seat"] for e in log if e.kind == "start_roll"]
        assert rolls == [rolls[0], (rolls[0] + 1) % 4] and state.active == rolls[1]  # then clockwise
        begins.add(rolls[0])
    assert begins == {0, 1, 2, 3}


# -- every dial gets a fresh commitment at each window, kept or not (review 6) ---------------


def _commitment_of(shown):
    canonical = json.dumps([shown["seat"], shown["code"], shown["salt"]], separators=(",", ":"))
    return hashlib.sha256(canonical.encode()).hexdigest()


def test_a_kept_dial_gets_a_fresh_commitment_and_nobody_is_told_who_kept():
    state = arrange(started(3), TO_2, target=2)
    before = state.commitments
    state, log = play(state, (0, Move("rr", ("n",))), (1, Keep()), (2, Dial("kk")), (0, Dial("gg")))
    assert all(new != old for new, old in zip(state.commitments, before, strict=True))
    closed = [e for e in public(log) if e.kind == "dials"]
    assert [set(e.data) for e in closed] == [{"commitments"}]
    assert "North" not in narrate(state, closed[0]) and "East" not in narrate(state, closed[0])
    # the kept dial is still shown with the salt of its latest commitment
    shown = []
    engine._reveal(state, 1, shown)
    assert shown[0].data["code"] == "yy" and _commitment_of(shown[0].data) == state.commitments[1]


# -- an empty pavilion allows a taking, it does not force one (review 7) ----------------------

ORANGE = [("orange", "hat"), ("orange", "coat"), ("orange", "trousers")]


def _at_empty_pavilion(players=3, partners=False, hands_=((), (ORANGE[0],), ()), terrace=()):
    state = arrange(started(players, partners=partners), TO_2, target=2, terrace=terrace)
    return evolve(state, piles=(*state.piles[:1], (), *state.piles[2:]), hands=tuple(hands_))


def test_at_an_empty_pavilion_a_single_card_is_offered_and_may_be_spared():
    state, _ = apply(_at_empty_pavilion(), 0, Move("rr", ("n",)))
    assert kinds(state) == [(0, "empty")]  # not taken at once
    assert set(legal(state, 0)) == {Take(*ORANGE[0]), Spare()}
    state, log = apply(state, 0, Spare())
    assert state.hands == ((), (ORANGE[0],), ()) and any(e.kind == "spared" for e in log)
    assert kinds(state) == [(0, "dial"), (1, "rebribe"), (2, "rebribe")]


def test_at_an_empty_pavilion_a_partners_card_is_not_taken_by_itself_and_the_default_spares_it():
    state = _at_empty_pavilion(4, partners=True, hands_=((), (), (ORANGE[0],), ()))
    state, _ = apply(state, 0, Move("rr", ("n",)))
    assert kinds(state) == [(0, "empty")] and state.hands[2] == (ORANGE[0],)
    assert default(state, 0) == Spare()


def test_after_ten_an_empty_pavilion_takes_the_colour_from_the_others_but_not_from_a_partner():
    terrace = ("ry", "rb", "rg", "rk", "yr", "yb", "yg", "yk", "br", "by")
    state = _at_empty_pavilion(
        4, partners=True, hands_=((), (ORANGE[0],), (ORANGE[1],), (ORANGE[2],)), terrace=terrace
    )
    state, _ = apply(state, 0, Move("rr", ("n",)))
    assert sorted(state.hands[0]) == sorted([ORANGE[0], ORANGE[2]]) and state.hands[2] == (ORANGE[1],)


# -- the default first move does not tell the dial (review 2) --------------------------------


@pytest.mark.parametrize("seed", ["a", "b", "c", "d"])
@pytest.mark.parametrize("many_turns", [False, True])
def test_the_default_first_move_that_does_not_enter_is_the_same_whatever_the_dial(seed, many_turns):
    vs = registry.get("verbotenestadt")
    cfg = vs.serial.make_config(
        vs.serial.load_board("forbidden_city"), 3, "ravensburger", {"many_turns": many_turns}, 0
    )
    state = setup(cfg, seed)
    for s, code in enumerate(["rr", "yy", "bb"]):
        state, _ = apply(state, s, Dial(code))
    target = state.board.pavilion(state.target).square
    seen = set()
    for code in state.on_board():
        dialled = evolve(state, dials=(code, *state.dials[1:]))
        move = default(dialled, 0)
        entered = move.code == code and dict(move_options(dialled, 0)).get(move) == target
        if not entered:
            seen.add(move)
    assert len(seen) == 1, seen


def test_the_default_first_move_enters_with_the_bribed_official_when_it_can():
    state = arrange(started(3), TO_2, target=2)
    assert default(state, 0) == Move("rr", ("n",))
    other = default(evolve(state, dials=("yy", *state.dials[1:])), 0)
    assert other == default(evolve(state, dials=("kk", *state.dials[1:])), 0)


# -- a selfplay record carries every option (review 11) ---------------------------------------


def test_a_selfplay_record_header_carries_every_option_the_edition_and_the_start_seat():
    from dataclasses import fields as dataclass_fields

    from games.rules.verbotenestadt.selfplay import format_record
    from games.rules.verbotenestadt.state import Options

    cfg = config(4, partners=True, first=2, many_turns=True)
    head = format_record(cfg, "x", setup(cfg, "x"), []).splitlines()
    options = next(line for line in head if line.startswith("# options "))
    assert options.split()[2:] == [f"{f.name}=yes" for f in dataclass_fields(Options)]
    assert "# edition ravensburger" in head and "# first_seat south" in head
    assert "# first_seat lot" in format_record(config(3, first=None), "x", setup(cfg, "x"), [])


# -- cases the tests did not tell apart (review 10) ----------------------------------------------

RED_HAT, RED_COAT = ("red", "hat"), ("red", "coat")
TEN = ("ry", "rb", "rg", "rk", "yr", "yb", "yg", "yk", "br", "by")


def _south_moves(dials, cards):
    """Four players, south (seat 2) to move rr into pavilion 2."""
    state = arrange(started(4, dials=dials), TO_2, target=2, active=2)
    return hands(state, *cards) if cards else state


def test_the_same_choice_card_goes_furthest_clockwise_from_a_mover_other_than_north():
    state = _south_moves(["rr", "rr", "rr", "rr"], None)  # clockwise from south: west, north, east
    state, log = apply(state, 2, Move("rr", ("n",)))
    assert [e.data["recipient"] for e in log if e.kind == "same_choice"] == [1]
    assert state.hands[1] and not state.hands[0] and not state.hands[2] and not state.hands[3]


def test_the_first_doubter_clockwise_from_a_mover_other_than_north_counts():
    cards = ([RED_HAT], [RED_COAT], [("red", "trousers")], [("blue", "hat")])
    state = _south_moves(["yy", "bb", "gg", "kk"], cards)  # south bluffs with rr
    state, _ = apply(state, 2, Move("rr", ("n",)))
    state, log = play(state, (0, Doubt()), (1, Doubt()), (3, Doubt()))
    assert [e.data["doubter"] for e in log if e.kind == "answers"] == [3]  # west, not north
    assert ("blue", "hat") in state.hands[3] and any(c[0] == "orange" for c in state.hands[3])


def test_the_tenth_entry_takes_one_card_and_the_eleventh_all():
    state = arrange(started(3), TO_2, target=2, terrace=TEN[:9])
    tenth, log = apply(state, 0, Move("rr", ("n",)))
    assert len(tenth.terrace) == 10 and len(tenth.hands[0]) == 1
    assert [e.data["take_all"] for e in log if e.kind == "entered"] == [False]
    state = arrange(started(3), TO_2, target=2, terrace=TEN)
    eleventh, log = apply(state, 0, Move("rr", ("n",)))
    assert len(eleventh.terrace) == 11 and len(eleventh.hands[0]) == 3
    assert [e.data["take_all"] for e in log if e.kind == "entered"] == [True]


def test_a_challenge_at_an_empty_pavilion_gives_the_winner_a_card_of_its_colour_then_the_penalty():
    state = arrange(started(3, dials=["rr", "bb", "gg"]), TO_2, target=2)
    state = evolve(
        state,
        piles=(*state.piles[:1], (), *state.piles[2:]),
        hands=((RED_HAT,), (RED_COAT, ORANGE[0]), (ORANGE[1],)),
    )
    state, _ = play(state, (0, Move("rr", ("n",))), (1, Doubt()), (2, Believe()))
    assert kinds(state) == [(0, "empty")]  # the honest mover won: the pavilion's "card" first
    state, _ = apply(state, 0, Take(*ORANGE[1]))
    assert kinds(state) == [(0, "penalty")]
    state, _ = apply(state, 0, Take(*ORANGE[0]))
    assert set(state.hands[0]) == {RED_HAT, ORANGE[1], ORANGE[0]} and state.hands[1] == (RED_COAT,)


def test_a_challenge_under_take_all_gives_the_winner_all_the_cards_then_the_penalty():
    state = arrange(started(3, dials=["yy", "bb", "gg"]), TO_2, target=2, terrace=TEN)
    state = hands(state, [RED_HAT], [RED_COAT], [])
    state, _ = play(state, (0, Move("rr", ("n",))), (1, Doubt()))  # a bluff, doubted
    assert state.hands[0] == ()
    assert sorted(state.hands[1]) == sorted([RED_COAT, RED_HAT, *ORANGE])


def test_a_bluff_with_another_players_bribed_official_keeps_that_dial_secret_and_gives_it_nothing():
    state = arrange(started(3, dials=["yy", "rr", "gg"]), TO_2, target=2)
    state = hands(state, [RED_HAT], [RED_COAT], [])
    state, log = play(state, (0, Move("rr", ("n",))), (1, Believe()))
    assert [e.data["case"] for e in log if e.kind == "challenge_result"] == ["bluff"]
    assert [e.data["seat"] for e in log if e.kind == "revealed"] == [0]  # east's rr stays secret
    assert not [e for e in log if e.kind == "same_choice"]
    assert state.hands[1] == (RED_COAT,) and len(state.hands[0]) == 2 and state.extra_turn


def test_a_doubted_honest_entry_gives_the_card_to_the_mover_despite_the_same_choice():
    state = arrange(started(3, dials=["rr", "bb", "rr"]), TO_2, target=2)
    state = hands(state, [RED_HAT], [RED_COAT], [("red", "trousers")])
    state, log = play(state, (0, Move("rr", ("n",))), (1, Doubt()), (2, Believe()))
    assert [e.data["case"] for e in log if e.kind == "challenge_result"] == ["doubted_honest"]
    assert not [e for e in log if e.kind == "same_choice"]
    assert [e.data["seat"] for e in log if e.kind == "revealed"] == [0]
    assert any(c[0] == "orange" for c in state.hands[0]) and RED_COAT in state.hands[0]
    assert state.hands[2] == (("red", "trousers"),)


def test_a_two_player_game_alternates_and_the_other_rolls_the_fate_dice(monkeypatch):
    state = arrange(started(2), TO_2, target=1)
    with rigged(monkeypatch, faces=["black", "red", "black"]):
        state, log = play(state, (0, Move("yy", ("n",))), (1, Move("bb", ("n",))), (1, Move("gg", ("w",))))
    assert [(e.data["seat"], e.data["active"]) for e in log if e.kind == "fate"] == [(1, 0), (0, 1), (0, 1)]
    assert [e.data["seat"] for e in log if e.kind == "turn"] == [1, 0] and state.active == 0
    state = hands(arrange(state, TO_2, target=2), [RED_HAT], [RED_COAT])
    state, _ = apply(state, 0, Move("rr", ("n",)))
    assert kinds(state) == [(1, "challenge")]  # the only other card holder may doubt


# -- the pavilion face's new target stands if the player stops (review 8, OP 33) ---------------


def test_a_new_target_rolled_on_a_pavilion_face_stands_when_the_player_then_stops(monkeypatch):
    state = arrange(started(3), TO_2, target=1)
    with rigged(monkeypatch, faces=["red-pavilion"], targets=[5]):
        state, log = play(state, (0, Move("yy", ("n",))), (0, Stop()))
    assert [e.data["pavilion"] for e in log if e.kind == "target"] == [5]
    assert state.target == 5 and state.active == 1


def test_a_broken_plan_tells_how_many_of_its_moves_were_never_made(monkeypatch):
    state = arrange(started(3), TO_2, target=1)
    for plan, left in (
        (Plan((Move("yy", ("n",)), Move("yy", ("n",)), Move("bb", ("n",)))), 2),
        (Plan((Move("yy", ("n",)), Move("yy", ("n",)), Move("bb", ("n",)), Move("gg", ("n",)))), 3),
    ):
        with rigged(monkeypatch, faces=["red"]):
            _, log = apply(state, 0, plan)
        (broken,) = [e for e in log if e.kind == "plan_broken"]
        assert broken.data["left"] == left
