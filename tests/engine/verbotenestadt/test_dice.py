"""The server's dice, lots and dial salts (RULES.md: Components, Setup, The secret dial)."""

from __future__ import annotations

import hashlib
import hmac
import json
from collections import Counter

import pytest

from games.rules.chance import Chance, ChanceError
from games.rules.verbotenestadt import dice
from games.rules.verbotenestadt.constants import CARDS, FATE_DICE, GARMENT_COLOURS, OFFICIALS, PIECES
from games.rules.verbotenestadt.engine import setup
from games.rules.verbotenestadt.state import evolve
from tests.engine.verbotenestadt.helpers import config


def test_a_commitment_is_the_sha256_of_the_canonical_json_of_seat_code_and_salt():
    for seat, code, salt in [(0, "rr", "00ff"), (3, "kg", "0123456789abcdef"), (1, "by", "")]:
        canonical = json.dumps([seat, code, salt], separators=(",", ":")).encode()
        assert dice.commitment(seat, code, salt) == hashlib.sha256(canonical).hexdigest()
    # the fast path and the general one agree where the fast one does not apply
    odd = dice.commitment(2, 'a"b', "xyz")
    assert odd == hashlib.sha256(b'[2,"a\\"b","xyz"]').hexdigest()


def test_a_salt_is_the_first_16_hex_digits_of_an_hmac_keyed_by_the_seed():
    expected = hmac.new(b"seed", b"verbotenestadt:dial:2:5", hashlib.sha256).hexdigest()[:16]
    assert dice.salt("seed", 2, 5) == expected
    assert len({dice.salt("seed", s, n) for s in range(4) for n in range(1, 4)}) == 12
    assert dice.salt("other", 2, 5) != expected


def test_the_officials_stand_on_the_start_squares_in_an_order_drawn_by_lot():
    orders = set()
    for seed in "abcd":
        state = setup(config(3), seed)
        squares = [state.square_of(code) for code in OFFICIALS]
        assert sorted(squares) == sorted(state.board.start)
        orders.add(tuple(squares))
    assert len(orders) == 4  # a different order for each seed
    assert setup(config(3), "a").squares == setup(config(3), "a").squares


def test_each_pavilion_holds_its_own_three_cards_shuffled_on_their_own():
    tops = Counter()
    for seed in map(str, range(30)):
        state = setup(config(2), seed)
        assert sorted(c for pile in state.piles for c in pile) == sorted(CARDS)
        for colour, pile in zip(GARMENT_COLOURS, state.piles, strict=True):
            assert sorted(pile) == sorted((colour, p) for p in PIECES)
            tops[pile[0][1]] += 1
    assert set(tops) == set(PIECES)  # every piece comes on top now and then


def test_a_fate_die_shows_only_its_own_faces_each_about_as_often_as_it_is_printed():
    state = setup(config(2), "fate")
    for die, faces in FATE_DICE.items():
        seen: Counter[str] = Counter()
        for _ in range(600):
            face, state = dice.fate(state, die)
            seen[face] += 1
        assert set(seen) == set(faces)
        for face in set(faces):
            expected = 600 * faces.count(face) / len(faces)
            assert abs(seen[face] - expected) < expected * 0.35, (die, face, seen)


def test_the_pavilion_die_shows_1_to_8():
    state = setup(config(2), "blue")
    seen: Counter[int] = Counter()
    for _ in range(400):
        number, state = dice.pavilion(state)
        seen[number] += 1
    assert set(seen) == set(range(1, 9))


def test_every_draw_advances_the_counter_and_the_same_counter_draws_the_same():
    state = setup(config(2), "same")
    face, after = dice.fate(state, "large")
    assert after.draws > state.draws
    assert dice.fate(state, "large")[0] == face
    number, later = dice.pavilion(after)
    assert later.draws > after.draws and dice.pavilion(after)[0] == number


def test_a_lot_for_a_default_is_keyed_and_does_not_touch_the_dice():
    assert dice.lot("s", 1, "x") == dice.lot("s", 1, "x")
    assert dice.lot("s", 1, "x") != dice.lot("s", 1, "y") != dice.lot("t", 1, "y")
    expected = hmac.new(b"s", b"verbotenestadt:lot:1:x", hashlib.sha256).digest()[:8]
    assert dice.lot("s", 1, "x") == int.from_bytes(expected, "big")


def test_a_game_set_up_from_written_down_chance_is_the_game_its_seed_deals():
    seeded = setup(config(3), "written")
    written = setup(config(3), "", seeded.drawn)
    assert written.squares == seeded.squares and written.piles == seeded.piles


@pytest.mark.parametrize(
    "bad",
    [("red", "hat", "hat", "coat"), ("orange", "hat", "coat", "trousers"), ("red", "hat", "coat")],
    ids=["a piece twice", "another colour", "a piece missing"],
)
def test_a_written_down_pile_must_be_its_pavilions_three_pieces(bad):
    drawn = list(setup(config(3), "written").drawn)
    at = next(i for i, c in enumerate(drawn) if c.kind == "pile" and c.value[0] == "red")
    drawn[at] = Chance("pile", bad)
    with pytest.raises(ChanceError):
        setup(config(3), "", drawn)


def _given(*outcomes: Chance, seed: str = ""):
    """A game's state whose next draw takes ``outcomes`` (no seed: as a record gives them)."""
    return evolve(setup(config(3), "given"), seed=seed, given=outcomes)


def _refused(draw, state) -> ChanceError:
    with pytest.raises(ChanceError) as refused:
        draw(state)
    return refused.value


def test_written_down_officials_must_name_each_once_and_the_refusal_names_the_missing():
    twice = (*OFFICIALS[:-1], OFFICIALS[0])
    error = _refused(dice.officials, _given(Chance("officials", twice)))
    assert f"(missing: {OFFICIALS[-1]})" in str(error)
    assert error.legal == ("chance: officials " + " ".join(OFFICIALS),)
    codes, _ = dice.officials(_given(Chance("officials", tuple(reversed(OFFICIALS)))))
    assert codes == tuple(reversed(OFFICIALS))


def test_a_written_down_pile_is_refused_with_what_a_pile_holds():
    assert "The red pile is dealt here." in str(
        _refused(lambda s: dice.pile(s, "red"), _given(Chance("pile", ("blue", "hat", "coat", "trousers"))))
    )
    assert "A pile holds a hat, a coat and trousers" in str(
        _refused(lambda s: dice.pile(s, "red"), _given(Chance("pile", ("red", "hat", "hat", "coat"))))
    )
    pieces, _ = dice.pile(_given(Chance("pile", ("red", "trousers", "hat", "coat"))), "red")
    assert pieces == ("trousers", "hat", "coat")


@pytest.mark.parametrize("seat", [0, 2])
def test_a_written_down_first_seat_is_any_seat_of_the_game(seat):
    assert dice.first(_given(Chance("first", (seat,))))[0] == seat


@pytest.mark.parametrize("value", [(3,), (-1,), ("north",), (), (0, 1)])
def test_a_written_down_first_seat_outside_the_game_is_refused_with_its_seats(value):
    error = _refused(dice.first, _given(Chance("first", value)))
    assert "That is not a seat of this game." in str(error)
    assert error.legal == ("chance: first north", "chance: first east", "chance: first south")


def test_a_written_down_fate_die_must_be_that_die_showing_one_of_its_faces():
    error = _refused(lambda s: dice.fate(s, "small"), _given(Chance("roll", ("large", "red"))))
    assert "The small fate die is rolled here." in str(error)
    error = _refused(lambda s: dice.fate(s, "small"), _given(Chance("roll", ("small", "white"))))
    assert "The small fate die has no face white." in str(error)
    assert error.legal == tuple(f"chance: roll small {f}" for f in sorted(set(FATE_DICE["small"])))
    face = FATE_DICE["small"][0]
    assert dice.fate(_given(Chance("roll", ("small", face))), "small")[0] == face


@pytest.mark.parametrize(("number", "ok"), [(0, False), (1, True), (8, True), (9, False)])
def test_a_written_down_blue_die_shows_1_to_8(number, ok):
    state = _given(Chance("pavilion", (number,)))
    if ok:
        assert dice.pavilion(state)[0] == number
    else:
        assert "The blue die shows 1 to 8." in str(_refused(dice.pavilion, state))


def test_an_outcome_given_beside_a_seed_must_be_what_the_seed_draws():
    drawn, _ = dice.pavilion(evolve(setup(config(3), "given"), given=()))
    same = _given(Chance("pavilion", (drawn,)), seed=setup(config(3), "given").seed)
    assert dice.pavilion(same)[0] == drawn
    other = 1 + drawn % 8
    error = _refused(dice.pavilion, _given(Chance("pavilion", (other,)), seed=setup(config(3), "given").seed))
    assert f"This game's seed draws '{drawn}' here, not this." in str(error)


def test_a_missing_outcome_asks_for_one_with_every_possible_line():
    error = _refused(dice.pavilion, _given())
    assert error.needed and error.legal == tuple(f"chance: pavilion {n}" for n in range(1, 9))


def test_what_the_seed_rolls_is_written_down_as_rolled():
    """A game played here writes each roll down (a record can be replayed without its seed)."""
    state = setup(config(3), "written")
    number, after = dice.pavilion(state)
    assert after.drawn[-1] == Chance("pavilion", (number,))
    face, after = dice.fate(after, "large")
    assert after.drawn[-1] == Chance("roll", ("large", face))
    seat, after = dice.first(after)
    assert after.drawn[-1] == Chance("first", (seat,))
