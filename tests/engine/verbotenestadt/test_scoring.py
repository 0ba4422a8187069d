"""Scoring (seed 003, "Ende des Spiels"): each card once, the best grouping, partners."""

from __future__ import annotations

import random
import time
from itertools import combinations

from games.rules.verbotenestadt.constants import CARDS, PAIR, SINGLE, SUIT, TRIPLE, Card
from games.rules.verbotenestadt.scoring import outcome_of, score


def cards(*names: str):
    return [tuple(n.split("-")) for n in names]


def test_a_single_card_scores_one():
    assert score(cards("red-hat"))["total"] == 1


def test_two_cards_of_one_colour_score_four():
    assert score(cards("red-hat", "red-coat"))["total"] == 4


def test_three_cards_of_one_colour_score_ten():
    assert score(cards("red-hat", "red-coat", "red-trousers"))["total"] == 10


def test_hat_coat_and_trousers_of_three_colours_score_six():
    assert score(cards("red-hat", "blue-coat", "green-trousers"))["total"] == 6


def test_each_card_counts_once_in_the_best_grouping():
    # two pairs (8) beat a suit plus a single (7): red hat+coat, blue hat+trousers
    assert score(cards("red-hat", "red-coat", "blue-hat", "blue-trousers"))["total"] == 8
    # a pair and a suit: red hat+coat, then blue hat, green coat, white trousers -> 4 + 6
    best = score(cards("red-hat", "red-coat", "blue-hat", "green-coat", "white-trousers"))
    assert best["total"] == 10 and best["suits"] == 1 and best["pairs"] == 1
    # a suit needs three different colours
    assert score(cards("red-hat", "red-coat", "red-trousers", "blue-hat"))["total"] == 11


def test_all_24_cards_score_eighty_quickly():
    start = time.thread_time()  # CPU time: the bound holds on a busy machine
    assert score(CARDS)["total"] == 80
    assert time.thread_time() - start < 1


def test_equal_scores_share_a_rank():
    result = outcome_of((tuple(cards("red-hat")), tuple(cards("blue-hat")), ()), partners=False)
    assert result.rank == (1, 1, 3)


def test_partners_add_their_points_and_share_a_rank():
    hands = (tuple(cards("red-hat")), tuple(cards("blue-hat", "blue-coat")), tuple(cards("green-hat")), ())
    result = outcome_of(hands, partners=True)
    assert result.scores == (2, 4, 2, 4)
    assert result.rank == (3, 1, 3, 1)
    assert result.breakdown[0]["own"] == 1


def _brute_force(hand: tuple[Card, ...]) -> int:
    """The best grouping by trying every group the first card can be in."""
    if not hand:
        return 0
    first, rest = hand[0], hand[1:]
    best = SINGLE + _brute_force(rest)
    for i, j in combinations(range(len(rest)), 2):
        a, b = rest[i], rest[j]
        left = tuple(c for k, c in enumerate(rest) if k not in (i, j))
        if first[0] == a[0] == b[0]:
            best = max(best, TRIPLE + _brute_force(left))
        if len({first[0], a[0], b[0]}) == 3 and len({first[1], a[1], b[1]}) == 3:
            best = max(best, SUIT + _brute_force(left))
    for i, a in enumerate(rest):
        if a[0] == first[0]:
            best = max(best, PAIR + _brute_force(rest[:i] + rest[i + 1 :]))
    return best


def test_the_search_finds_the_best_grouping_of_any_hand_of_up_to_eight_cards():
    lot = random.Random(3)
    for _ in range(300):
        hand = tuple(lot.sample(CARDS, lot.randint(0, 8)))
        result = score(hand)
        assert result["total"] == _brute_force(hand), hand
        groups = result["singles"] + 2 * result["pairs"] + 3 * result["triples"] + 3 * result["suits"]
        assert groups == result["cards"] == len(hand)
