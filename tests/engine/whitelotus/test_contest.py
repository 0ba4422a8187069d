"""Phase 2: resolving claims (001 "2. Gebietsanspruch klären", 004 2.2, 002 "2. RESOLVE CONTROL
OF AREAS")."""

from __future__ import annotations

import pytest

from games.rules.base import Decision, IllegalCommand
from games.rules.whitelotus.commands import Bid
from games.rules.whitelotus.constants import Building
from games.rules.whitelotus.decisions import legal, pending
from games.rules.whitelotus.state import Bidding, ChooseContest, Rebellion, RebellionOffer, TieBreak
from tests.engine.whitelotus.helpers import (
    area,
    begin,
    blank,
    entries,
    hands,
    holds,
    kinds,
    markers,
    one_contest,
    play,
    resolution,
    seat,
    tiles,
)


def _amounts(state, colour):
    return sorted({c.amount for c in legal(state, seat(state, colour)) if isinstance(c, Bid)})


# --- 2a: uncontested ----------------------------------------------------------------------


def test_lone_marker_takes_the_area_free_without_spending_cards():
    """001 l.151-157, l.236-239: a lone marker takes the area free; the tile becomes his chip."""
    s = blank(players=3, year=2, emperor="red")
    s = holds(tiles(s, Yanan="temple"), "green", Jinan="village")
    s = markers(s, Yanan=("blue",))
    s, log = resolution(s)
    blue = seat(s, "blue")
    assert s.owner[area("Yanan")] == blue
    assert s.building[area("Yanan")] == Building.TEMPLE
    assert s.markers[area("Yanan")] == 0
    assert s.influence == (12, 12, 12)
    assert entries(log, "claimed") == [
        {"seat": blue, "area": area("Yanan"), "building": Building.TEMPLE, "how": "alone"}
    ]
    assert "contest" not in kinds(log) and "bids" not in kinds(log)
    assert isinstance(s.phase, RebellionOffer)


# --- the first year's palace and the order of contests ------------------------------------


def test_first_year_contested_palace_is_resolved_first_and_its_winner_becomes_emperor():
    """001 l.160-163, 002 l.80-81: year 1, the palace area goes first; its winner is emperor at once."""
    s = blank(players=3, year=1, emperor="red")
    s = tiles(s, Ningxia="temple", Yanan="village", Fengxiang="palace")
    s = markers(s, Ningxia=("red", "green"), Yanan=("red", "blue"), Fengxiang=("blue", "green"))
    s, log = resolution(s)
    red, blue, green = 0, 1, 2
    assert isinstance(s.phase, Bidding)
    assert s.phase.area == area("Fengxiang")
    assert entries(log, "contest") == [
        {"area": area("Fengxiang"), "contenders": [blue, green], "chosen_by": None}
    ]
    s, _ = play(s, "blue", "bid green 2")
    s, log = play(s, "green", "bid blue 4")
    assert s.owner[area("Fengxiang")] == green
    assert entries(log, "emperor") == [{"seat": green, "previous": red, "palaces": 1}]
    assert s.emperor == green
    assert isinstance(s.phase, ChooseContest)
    assert pending(s) == (Decision(green, "resolve"),)


def test_uncontested_first_year_palace_makes_its_claimant_emperor_before_any_contest():
    """001 l.160-167 with D4: the lone palace claim comes first and its claimant orders the contests."""
    s = blank(players=3, year=1, emperor="red")
    s = tiles(s, Ningxia="temple", Yanan="village", Fengxiang="palace")
    s = markers(s, Ningxia=("red", "green"), Yanan=("red", "green"), Fengxiang=("blue",))
    s, log = resolution(s)
    blue = seat(s, "blue")
    assert s.owner[area("Fengxiang")] == blue
    assert s.emperor == blue
    assert kinds(log) == ["claimed", "emperor"]
    assert isinstance(s.phase, ChooseContest)
    assert pending(s) == (Decision(blue, "resolve"),)


def test_emperor_chooses_the_next_contested_area():
    """001 l.165-178, 004 2.2.2.1: the emperor names the area that is fought over."""
    s = blank(players=3, year=2, emperor="red")
    s = tiles(s, Yanan="village", Ningxia="temple")
    s = markers(s, Yanan=("blue", "green"), Ningxia=("red", "blue"))
    s, _ = resolution(s)
    assert isinstance(s.phase, ChooseContest)
    assert pending(s) == (Decision(0, "resolve"),)
    with pytest.raises(IllegalCommand, match="Nothing is yours to decide now: waiting for Red"):
        play(s, "blue", "resolve Yanan")
    s, log = play(s, "red", "resolve Yanan")
    assert entries(log, "contest") == [{"area": area("Yanan"), "contenders": [1, 2], "chosen_by": 0}]
    assert isinstance(s.phase, Bidding)
    assert (s.phase.area, s.phase.contenders) == (area("Yanan"), 0b110)


def test_emperor_cannot_name_an_area_that_is_not_contested():
    """001 l.165-167: the emperor orders the areas where several players have markers."""
    s = blank(players=3, year=2, emperor="red")
    s = tiles(s, Yanan="village", Ningxia="temple", Taiyuan="fort")
    s = markers(s, Yanan=("blue", "green"), Ningxia=("red", "blue"))
    s, _ = resolution(s)
    with pytest.raises(IllegalCommand, match="Taiyuan is not a contested area waiting to be resolved"):
        play(s, "red", "resolve Taiyuan")


def test_last_remaining_contest_opens_without_the_emperor_naming_it():
    """001 l.231-233: after each area the emperor picks the next; with one left there is no choice."""
    s = blank(players=3, year=2, emperor="red")
    s = tiles(s, Yanan="village", Ningxia="temple")
    s = markers(s, Yanan=("blue", "green"), Ningxia=("red", "blue"))
    s, _ = resolution(s)
    s, _ = play(s, "red", "resolve Yanan")
    s, _ = play(s, "blue", "bid green 1")
    s, log = play(s, "green", "bid blue 2")
    assert entries(log, "forced") == [{"seat": 0, "kind": "resolve"}]
    assert entries(log, "contest") == [{"area": area("Ningxia"), "contenders": [0, 1], "chosen_by": 0}]
    assert isinstance(s.phase, Bidding)
    assert s.phase.area == area("Ningxia")


# --- sealed bids --------------------------------------------------------------------------


def test_kosmos_bid_is_any_amount_from_zero_to_the_whole_hand():
    """001 l.185-187: "eine beliebige Anzahl an Einflusspunkten"."""
    s, _ = one_contest(("blue", "green"), influence={"blue": 5})
    assert _amounts(s, "blue") == [0, 1, 2, 3, 4, 5]
    s, log = play(s, "blue", "bid green 0")
    assert s.phase.bids[seat(s, "blue")] == (seat(s, "green"), 0)
    assert entries(log, "submitted") == [{"seat": 1, "what": "bid"}]


def test_bidding_more_than_the_hand_is_refused():
    """001 l.185-187: influence points are played from the hand."""
    s, _ = one_contest(("blue", "green"), influence={"blue": 5})
    with pytest.raises(IllegalCommand, match="You cannot bid 6: you have 5 influence points"):
        play(s, "blue", "bid green 6")


def test_designer_bid_is_exactly_two_cards_one_to_six_with_the_zero_card():
    """002 l.87-88: exactly 2 influence cards; with the single 0 card the totals run 1..6."""
    s, _ = one_contest(("blue", "green"), edition="designer")
    assert _amounts(s, "blue") == [1, 2, 3, 4, 5, 6]
    with pytest.raises(IllegalCommand, match="exactly two influence cards, so your bid can be 1 to 6"):
        play(s, "blue", "bid green 7")
    with pytest.raises(IllegalCommand, match="You cannot bid 0"):
        play(s, "blue", "bid green 0")
    s, _ = play(s, "blue", "bid green 1")
    assert s.phase.bids[seat(s, "blue")] == (seat(s, "green"), 1)


def test_designer_bid_without_the_zero_card_is_two_to_six():
    """002 l.87-88 with 004 l.91 (no 0 card): two cards of 1-3 make 2..6."""
    s, _ = one_contest(("blue", "green"), edition="designer", zero_card=False)
    assert _amounts(s, "blue") == [2, 3, 4, 5, 6]
    with pytest.raises(IllegalCommand, match="so your bid can be 2 to 6"):
        play(s, "blue", "bid green 1")


def test_designer_hand_too_small_for_two_cards_bids_all_it_has():
    """002 l.87-88 with D5: a hand that cannot make two cards plays what it has."""
    s, _ = one_contest(("blue", "green"), edition="designer", zero_card=False, influence={"blue": 1})
    assert _amounts(s, "blue") == [1]
    s, _ = play(s, "blue", "bid green 1")
    assert s.phase.bids[seat(s, "blue")] == (seat(s, "green"), 1)


def test_designer_hand_of_seven_bidding_all_of_it_is_told_the_two_card_rule():
    """002 l.87-88: a bid of the whole hand is refused for the two cards, not for the hand."""
    s, _ = one_contest(("blue", "green"), edition="designer", influence={"blue": 7})
    with pytest.raises(IllegalCommand, match="exactly two influence cards, so your bid can be 1 to 6"):
        play(s, "blue", "bid green 7")


def test_designer_small_hand_caps_the_two_card_total():
    """002 l.87-88: two cards from a 4-point hand (0 card included) total 1..4."""
    s, _ = one_contest(("blue", "green"), edition="designer", influence={"blue": 4})
    assert _amounts(s, "blue") == [1, 2, 3, 4]
    with pytest.raises(IllegalCommand, match="You cannot bid 5: you have 4 influence points"):
        play(s, "blue", "bid green 5")


def test_dragon_card_must_name_another_contender():
    """001 l.180-183, 004 2.2.2.2: the dragon card shows a player to remove from this area."""
    s, _ = one_contest(("blue", "green"))
    with pytest.raises(IllegalCommand, match="Your dragon card must name another player in Yanan: green"):
        play(s, "blue", "bid blue 3")
    with pytest.raises(IllegalCommand, match="Your dragon card must name another player in Yanan: green"):
        play(s, "blue", "bid red 3")


def test_non_contender_cannot_bid():
    """001 l.168-171: only players with a marker in the area take part."""
    s, _ = one_contest(("blue", "green"))
    with pytest.raises(IllegalCommand, match="Nothing is yours to decide now: waiting for Blue, Green"):
        play(s, "red", "bid blue 3")
    assert s.phase.bids == (None, None, None)


def test_sealed_bid_can_be_changed_before_the_last_bid_arrives():
    """001 l.180-190: bids are secret until all are revealed together, so one may still change."""
    s, _ = one_contest(("blue", "green"))
    s, _ = play(s, "blue", "bid green 1")
    assert pending(s) == (Decision(seat(s, "green"), "bid", sealed=True),)
    s, _ = play(s, "blue", "bid green 4")
    assert isinstance(s.phase, Bidding)
    assert s.phase.bids[seat(s, "blue")] == (seat(s, "green"), 4)
    s, log = play(s, "green", "bid blue 2")
    assert entries(log, "bids")[0]["bids"] == [
        {"seat": 1, "target": 2, "amount": 4},
        {"seat": 2, "target": 1, "amount": 2},
    ]
    assert entries(log, "out") == [{"seat": 2, "area": area("Yanan"), "kept": 1}]
    assert s.owner[area("Yanan")] == seat(s, "blue")
    assert s.influence[seat(s, "blue")] == 8


# --- reveal and result --------------------------------------------------------------------


def test_seed_example_blue_is_out_with_five_against_him():
    """001 l.195-201, 004 l.159: 2 against red, 5 against blue (two players), none against green."""
    s, _ = one_contest(("red", "blue", "green"), emperor="yellow", players=4)
    s, _ = play(s, "blue", "bid red 2")
    s, _ = play(s, "red", "bid blue 3")
    s, log = play(s, "green", "bid blue 2")
    red, blue, green = 0, 1, 2
    assert entries(log, "bids")[0]["against"] == {red: 2, blue: 5, green: 0}
    assert entries(log, "bids")[0]["tied"] == []
    assert entries(log, "out") == [{"seat": blue, "area": area("Yanan"), "kept": 1}]
    assert s.markers[area("Yanan")] == 1 << red | 1 << green
    assert isinstance(s.phase, Bidding)
    assert s.phase.contenders == 1 << red | 1 << green
    assert s.phase.bids == (None,) * 4


def test_loser_keeps_half_of_own_bid_rounded_up_and_the_others_pay_all():
    """001 l.205-221, 004 l.155, 002 l.93-96: the loser keeps half rounded up; the rest is spent."""
    s, _ = one_contest(("red", "blue", "green"), emperor="yellow", players=4)
    s, _ = play(s, "blue", "bid red 5")
    s, _ = play(s, "red", "bid blue 3")
    s, log = play(s, "green", "bid blue 4")
    assert entries(log, "out") == [{"seat": 1, "area": area("Yanan"), "kept": 3}]
    assert s.influence == (12 - 3, 12 - 2, 12 - 4, 12)


def test_loser_who_bid_one_point_discards_nothing():
    """002 l.95-99: "kicked out ... after playing just 1 point of Influence he will not discard"."""
    s, _ = one_contest(("blue", "green"), edition="designer")
    s, _ = play(s, "blue", "bid green 1")
    s, log = play(s, "green", "bid blue 3")
    assert entries(log, "out") == [{"seat": 1, "area": area("Yanan"), "kept": 1}]
    assert s.influence == (12, 12, 9)
    assert s.owner[area("Yanan")] == seat(s, "green")
    assert isinstance(s.phase, Rebellion)


def test_zero_bid_costs_nothing():
    """001 l.219-221: 0 cards are for bluffing and always return to the hand."""
    s, _ = one_contest(("blue", "green"))
    s, _ = play(s, "blue", "bid green 0")
    s, _ = play(s, "green", "bid blue 2")
    assert s.influence == (12, 12, 10)
    assert s.owner[area("Yanan")] == seat(s, "green")


def test_rounds_repeat_until_one_contender_remains_who_takes_the_area():
    """001 l.223-229, 002 l.101-105: repeat with the remaining players; the last one takes it."""
    s, _ = one_contest(("red", "blue", "green"), emperor="yellow", players=4)
    s, _ = play(s, "blue", "bid red 2")
    s, _ = play(s, "red", "bid blue 3")
    s, _ = play(s, "green", "bid blue 2")
    assert s.owner[area("Yanan")] == -1
    s, _ = play(s, "red", "bid green 3")
    s, log = play(s, "green", "bid red 4")
    assert entries(log, "out") == [{"seat": 0, "area": area("Yanan"), "kept": 2}]
    assert entries(log, "claimed") == [
        {"seat": 2, "area": area("Yanan"), "building": Building.VILLAGE, "how": "contest"}
    ]
    assert s.owner[area("Yanan")] == 2
    assert s.markers[area("Yanan")] == 0
    assert s.influence == (12 - 3 - 1, 12 - 1, 12 - 2 - 4, 12)
    assert isinstance(s.phase, RebellionOffer)


# --- ties ---------------------------------------------------------------------------------


def test_tie_is_broken_by_the_emperor_who_may_send_the_other_out_while_tied_himself():
    """001 l.241-245, 004 2.2.2.10: on a tie the emperor decides, and may decide in his favour."""
    s, _ = one_contest(("red", "blue"), emperor="red")
    s, _ = play(s, "red", "bid blue 3")
    s, log = play(s, "blue", "bid red 3")
    assert entries(log, "bids")[0]["tied"] == [0, 1]
    assert isinstance(s.phase, TieBreak)
    assert pending(s) == (Decision(0, "out"),)
    s, log = play(s, "red", "out blue")
    assert entries(log, "tie_broken") == [{"seat": 0, "out": 1}]
    assert entries(log, "out") == [{"seat": 1, "area": area("Yanan"), "kept": 2}]
    assert s.owner[area("Yanan")] == 0
    assert s.influence == (9, 11, 12)


def test_tie_break_must_name_one_of_the_tied_players_and_only_the_emperor_decides():
    """002 l.91-93: "the Emperor decides which of the tied players will be kicked out"."""
    s, _ = one_contest(("blue", "green", "yellow"), emperor="red", players=4)
    s, _ = play(s, "blue", "bid green 2")
    s, _ = play(s, "green", "bid blue 2")
    s, _ = play(s, "yellow", "bid blue 0")
    assert isinstance(s.phase, TieBreak)
    with pytest.raises(IllegalCommand, match="yellow is not one of the tied players"):
        play(s, "red", "out yellow")
    with pytest.raises(IllegalCommand, match="Nothing is yours to decide now: waiting for Red"):
        play(s, "blue", "out green")
    s, _ = play(s, "red", "out green")
    assert s.markers[area("Yanan")] == 1 << 1 | 1 << 3
    assert s.influence == (12, 10, 11, 12)


# --- the emperor during the phase ---------------------------------------------------------


def _palace_fight(winner_bid_for):
    """Year 2: red (emperor) and blue hold a palace each; blue and green fight for Taiyuan's
    palace, two more contested areas wait."""
    s = blank(players=3, year=2, emperor="red")
    s = holds(s, "red", Dadu="palace")
    s = holds(s, "blue", Jinan="palace")
    s = tiles(s, Taiyuan="palace", Yanan="village", Ningxia="temple")
    s = markers(s, Taiyuan=("blue", "green"), Yanan=("red", "green"), Ningxia=("red", "blue"))
    s, _ = resolution(s)
    s, _ = play(s, "red", "resolve Taiyuan")
    loser = "green" if winner_bid_for == "blue" else "blue"
    s, _ = play(s, winner_bid_for, f"bid {loser} 3")
    return play(s, loser, f"bid {winner_bid_for} 1")


def test_emperor_changes_at_once_when_someone_gets_more_palaces():
    """001 l.253-256, 004 2.2.2.10, 002 l.113-118: more palaces than the emperor: new emperor."""
    s, log = _palace_fight("blue")
    assert s.owner[area("Taiyuan")] == 1
    assert entries(log, "emperor") == [{"seat": 1, "previous": 0, "palaces": 2}]
    assert s.emperor == 1
    assert isinstance(s.phase, ChooseContest)
    assert pending(s) == (Decision(1, "resolve"),)
    with pytest.raises(IllegalCommand, match="Nothing is yours to decide now: waiting for Blue"):
        play(s, "red", "resolve Yanan")
    s, log = play(s, "blue", "resolve Yanan")
    assert entries(log, "contest") == [{"area": area("Yanan"), "contenders": [0, 2], "chosen_by": 1}]


def test_equal_palace_count_does_not_change_the_emperor():
    """001 l.258-259, 002 l.116-118: matching the emperor's palaces changes nothing."""
    s, log = _palace_fight("green")
    assert s.owner[area("Taiyuan")] == 2
    assert "emperor" not in kinds(log)
    assert s.emperor == 0
    assert pending(s) == (Decision(0, "resolve"),)


# --- wrong commands -----------------------------------------------------------------------


def test_wrong_command_while_bids_are_due_is_refused():
    """001 l.180-187: a contest takes dragon cards and influence, nothing else."""
    s, _ = one_contest(("blue", "green"))
    with pytest.raises(IllegalCommand, match="'place' is not a move now: sealed bids are due for Yanan"):
        play(s, "blue", "place Yanan")


def test_wrong_command_while_the_emperor_names_an_area_is_refused():
    """001 l.173-178: the emperor first names the area."""
    s = blank(players=3, year=2, emperor="red")
    s = tiles(s, Yanan="village", Ningxia="temple")
    s = markers(s, Yanan=("blue", "green"), Ningxia=("red", "blue"))
    s, _ = resolution(s)
    with pytest.raises(IllegalCommand, match="'bid' is not a move now: the emperor names the next contested"):
        play(s, "red", "bid blue 3")


def test_points_bid_cannot_be_given_away_while_the_emperor_breaks_a_tie():
    """001 l.475-484 (gifts, D12): bids revealed in a tie are still owed until someone is out."""
    s = blank(4, "kosmos", emperor="red", negotiation=True)
    s = tiles(s, Hangzhou="village", Fuzhou="village")
    s = holds(s, "green", Yidu="village")
    s = markers(s, Hangzhou=("blue", "yellow"), Fuzhou=("red", "green"))
    s = hands(s, influence={"blue": 5, "yellow": 5})
    s, _ = begin(s, "resolution")
    s, _ = play(s, "red", "resolve Hangzhou")
    s, _ = play(s, "blue", "bid yellow 4")
    s, _ = play(s, "yellow", "bid blue 4")
    assert s.phase.name == "tie_break"
    with pytest.raises(IllegalCommand, match="You cannot give 2 influence points: you have 1"):
        play(s, "blue", "give red 2 influence")
    s, _ = play(s, "blue", "give red 1 influence")
    s, _ = play(s, "red", "out blue")
    assert s.influence[seat(s, "blue")] == 2  # 5, 1 given away, out: pays half of his 4
