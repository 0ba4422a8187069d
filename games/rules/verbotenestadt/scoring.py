"""The final scoring (seed 003, "Ende des Spiels"): each card counts once, in the best grouping.

A group is a single card (1), two cards of one colour (4), three cards of one colour (10) or
a hat, a coat and trousers of three different colours (6).  The best grouping is found
exactly by a search over the cards per colour; colours are interchangeable for the score, so
the search is memoised on the sorted multiset of per-colour piece sets (small even for all
24 cards).
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import cache
from itertools import combinations

from ..base import Outcome
from .constants import PAIR, PIECES, SINGLE, SUIT, TRIPLE, Card

Groups = tuple[int, int, int, int]  # singles, pairs, triples, suits


def _masks(cards: Iterable[Card]) -> tuple[int, ...]:
    by_colour: dict[str, int] = {}
    for colour, piece in cards:
        by_colour[colour] = by_colour.get(colour, 0) | (1 << PIECES.index(piece))
    return tuple(sorted(m for m in by_colour.values() if m))


def _points(groups: Groups) -> int:
    singles, pairs, triples, suits = groups
    return singles * SINGLE + pairs * PAIR + triples * TRIPLE + suits * SUIT


@cache
def _best(masks: tuple[int, ...]) -> Groups:
    """The best groups for per-colour piece masks (sorted, no zeros)."""
    if not masks:
        return (0, 0, 0, 0)
    first, rest = masks[0], list(masks[1:])
    options: list[Groups] = []

    def add(groups: Groups, extra: Groups) -> Groups:
        return (groups[0] + extra[0], groups[1] + extra[1], groups[2] + extra[2], groups[3] + extra[3])

    def norm(items: list[int]) -> tuple[int, ...]:
        return tuple(sorted(m for m in items if m))

    bits = [b for b in range(3) if first >> b & 1]
    n = len(bits)
    # the first colour's cards as singles, a pair or a triple (leaving none for suits) ...
    own = {1: (1, 0, 0, 0), 2: (0, 1, 0, 0), 3: (0, 0, 1, 0)}[n]
    options.append(add(_best(norm(rest)), own))
    if n == 3:  # ... or a pair plus a single when three
        options.append(add(_best(norm(rest)), (1, 1, 0, 0)))
    # ... or one of its cards goes into a suit with two other colours' cards of the other pieces
    for b in bits:
        left = first & ~(1 << b)
        others = [p for p in range(3) if p != b]
        for i, j in combinations(range(len(rest)), 2):
            for p, q in ((others[0], others[1]), (others[1], others[0])):
                if rest[i] >> p & 1 and rest[j] >> q & 1:
                    new = list(rest)
                    new[i] &= ~(1 << p)
                    new[j] &= ~(1 << q)
                    options.append(add(_best(norm([left, *new])), (0, 0, 0, 1)))
    # (taking one of two or three cards out as a single, the rest searched again, never beats
    # these: checked over every multiset of colour masks, the whole deck's 6,435)
    return max(options, key=lambda g: (_points(g), g))


def score(cards: Iterable[Card]) -> dict[str, int]:
    """The best grouping of a player's cards: points and how many groups of each kind."""
    cards = list(cards)
    singles, pairs, triples, suits = _best(_masks(cards))
    return {
        "total": _points((singles, pairs, triples, suits)),
        "cards": len(cards),
        "singles": singles,
        "pairs": pairs,
        "triples": triples,
        "suits": suits,
    }


def outcome_of(hands: tuple[tuple[Card, ...], ...], partners: bool) -> Outcome:
    """Scores and ranks: partners (4 players, opposite seats) add their points and share a
    rank; equal scores share a rank (no tie-break: the seed gives none)."""
    own = [score(h) for h in hands]
    n = len(hands)
    totals = []
    breakdown = []
    for s in range(n):
        b = dict(own[s])
        b["own"] = b["total"]
        if partners:
            b["total"] = own[s]["total"] + own[(s + 2) % n]["total"]
            b["partner"] = (s + 2) % n
        totals.append(b["total"])
        breakdown.append(b)
    rank = tuple(1 + sum(1 for t in totals if t > totals[s]) for s in range(n))
    return Outcome(scores=tuple(totals), breakdown=tuple(breakdown), rank=rank)
