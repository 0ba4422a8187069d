"""Scoring (seed 003, "Ende des Spiels"): each card once, the best grouping, partners."""

from __future__ import annotations

import time

from games.rules.verbotenestadt.constants import CARDS
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
