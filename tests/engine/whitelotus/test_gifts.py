"""The negotiation variant's gifts (001 "Variante für eifrige Verhandler" l.475-484, 004 4;
games/rules/whitelotus/RULES.md D12): points given to another player at any time, openly; points
sealed in a bid or an army commitment that is not yet paid cannot be given away."""

from __future__ import annotations

import pytest

from games.rules.base import IllegalCommand
from games.rules.whitelotus import apply
from games.rules.whitelotus.commands import Give
from tests.engine.whitelotus.helpers import begin, blank, entries, hands, holds, markers, play, tiles

RED, BLUE, GREEN, YELLOW = range(4)


def _table(negotiation: bool = True):
    """Four players, blue and yellow about to bid for Hangzhou (red and green are asked
    nothing); everyone holds 6 influence, red and blue 5 army."""
    s = blank(4, "kosmos", emperor="red", negotiation=negotiation)
    s = hands(s, influence={"red": 6, "blue": 6, "green": 6, "yellow": 6}, army={"red": 5, "blue": 5})
    s = tiles(s, Hangzhou="village")
    s = holds(s, "green", Yidu="village")
    s = markers(s, Hangzhou=("blue", "yellow"))
    s, _ = begin(s, "resolution")
    assert s.phase.name == "bidding"
    return s


def test_a_gift_moves_points_openly_from_giver_to_receiver_at_any_time():
    s, log = apply(_table(), GREEN, Give(RED, 2, army=False))  # nothing is asked of green now
    assert s.influence[GREEN] == 4 and s.influence[RED] == 8
    assert entries(log, "gift") == [{"seat": GREEN, "to": RED, "amount": 2, "kind": "influence"}]
    s, log = apply(s, BLUE, Give(RED, 5, army=True))
    assert s.army[BLUE] == 0 and s.army[RED] == 10
    assert entries(log, "gift")[0]["kind"] == "army"


def test_gifts_are_only_for_games_with_the_negotiation_variant():
    s = _table(negotiation=False)
    with pytest.raises(IllegalCommand, match="only allowed in games with the negotiation variant"):
        apply(s, RED, Give(BLUE, 1, army=False))


@pytest.mark.parametrize("to", [RED, 4, -1])
def test_a_gift_goes_to_another_player_of_this_game(to):
    with pytest.raises(IllegalCommand, match="Give to another player of this game"):
        apply(_table(), RED, Give(to, 1, army=False))


def test_a_gift_is_at_least_one_point_and_at_most_the_points_held():
    with pytest.raises(IllegalCommand, match="Give at least 1 point"):
        apply(_table(), RED, Give(BLUE, 0, army=False))
    with pytest.raises(IllegalCommand, match="You cannot give 7 influence points: you have 6"):
        apply(_table(), RED, Give(BLUE, 7, army=False))
    s, _ = apply(_table(), RED, Give(BLUE, 6, army=False))
    assert s.influence[RED] == 0


def test_a_sealed_bid_cannot_be_given_away_and_a_seat_without_a_bid_gives_freely():
    s, _ = play(_table(), "blue", "bid yellow 4")
    with pytest.raises(IllegalCommand, match="You cannot give 3 influence points: you have 2"):
        apply(s, BLUE, Give(RED, 3, army=False))
    s2, _ = apply(s, YELLOW, Give(RED, 6, army=False))  # yellow has not bid yet
    assert s2.influence[YELLOW] == 0
    s3, _ = apply(s, BLUE, Give(RED, 2, army=True))  # army points are not in the bid
    assert s3.army[BLUE] == 3


def test_army_sealed_in_a_rebellion_cannot_be_given_away_but_influence_can():
    s = blank(4, "kosmos", emperor="red", negotiation=True)
    s = hands(s, influence={"blue": 6}, army={"blue": 5})
    s = holds(s, "red", Hangzhou="palace")
    s = holds(s, "blue", Fuzhou="village", Quanzhou="village")
    s, _ = begin(s, "rebellion")
    s, _ = play(s, "blue", "lead")
    s, _ = play(s, "green", "side rebels")
    s, _ = play(s, "yellow", "side emperor")
    s, _ = play(s, "blue", "army 3")
    with pytest.raises(IllegalCommand, match="You cannot give 3 army points: you have 2"):
        apply(s, BLUE, Give(GREEN, 3, army=True))
    s, _ = apply(s, BLUE, Give(GREEN, 2, army=True))
    s, _ = apply(s, BLUE, Give(GREEN, 6, army=False))
    assert (s.army[BLUE], s.influence[BLUE]) == (3, 0)
