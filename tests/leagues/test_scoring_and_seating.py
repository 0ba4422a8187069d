"""League points, table sizes and the rotation of seat order: pure functions."""

from __future__ import annotations

import pytest

from leagues.seating import SeatingError, plan_round, share, table_sizes
from leagues.standings import league_points


def test_place_p_of_n_gives_n_minus_p_points():
    assert [league_points(r, 1, 4) for r in (1, 2, 3, 4)] == [3, 2, 1, 0]
    assert league_points(1, 1, 6) == 5


def test_tied_players_share_the_average_of_the_places_they_span():
    assert league_points(4, 2, 5) == 0.5  # places 4 and 5: (1 + 0) / 2
    assert league_points(1, 2, 3) == 1.5  # places 1 and 2: (2 + 1) / 2
    assert league_points(1, 3, 3) == 1.0


@pytest.mark.parametrize(
    ("n", "sizes"),
    [
        (3, [3]),
        (5, [5]),
        (6, [3, 3]),
        (7, [4, 3]),
        (8, [4, 4]),
        (10, [4, 3, 3]),
        (12, [4, 4, 4]),
        (13, [5, 4, 4]),
    ],
)
def test_tables_are_as_even_as_possible_around_four(n, sizes):
    assert table_sizes(n) == sizes


def test_every_table_has_three_to_six_players():
    for n in range(3, 60):
        sizes = table_sizes(n)
        assert sum(sizes) == n and all(3 <= s <= 6 for s in sizes) and max(sizes) - min(sizes) <= 1


def test_fewer_than_three_cannot_be_seated():
    with pytest.raises(SeatingError):
        table_sizes(2)


def run_rounds(players, rounds, rotate=True):
    shares: dict[int, list[float]] = {}
    for number in range(1, rounds + 1):
        tables = plan_round(players, shares if rotate else {}, f"s:{number}")
        assert sorted(p for t in tables for p in t) == sorted(players)
        for table in tables:
            for position, p in enumerate(table):
                shares.setdefault(p, []).append(share(position, len(table)))
    return {p: sum(s) / len(s) for p, s in shares.items()}


def test_seat_order_rotates_so_every_players_mean_position_evens_out():
    players = list(range(1, 9))
    four, six = run_rounds(players, 4), run_rounds(players, 6)
    assert max(four.values()) - min(four.values()) <= 0.2
    assert max(six.values()) - min(six.values()) <= 0.15
    assert all(0.4 <= m <= 0.6 for m in six.values()), six


def test_without_the_rotation_seat_order_would_be_left_to_chance():
    """The check above can fail: the same deal without the rotation spreads far wider."""
    players = list(range(1, 9))
    fair = run_rounds(players, 6)
    blind = run_rounds(players, 6, rotate=False)
    assert max(blind.values()) - min(blind.values()) > max(fair.values()) - min(fair.values())


def test_the_deal_changes_from_round_to_round():
    players = list(range(1, 9))
    first = {frozenset(t) for t in plan_round(players, {}, "s:1")}
    second = {frozenset(t) for t in plan_round(players, {}, "s:2")}
    assert first != second
