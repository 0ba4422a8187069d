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

from .helpers import config


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
