"""The move made for a seat whose deadline passed (games.rules.whitelotus.default).

The seeds do not know deadlines (RULES-DIGEST "Open points": the default move is ours to
decide); each test cites defaults.py and the seed line of the decision it answers.
Seeds: 001 = German Kosmos rules, 002 = designer rules (line numbers).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import replace

import pytest

from games.rules.base import IllegalCommand
from games.rules.whitelotus import apply, default, legal, pending
from games.rules.whitelotus.commands import (
    Army,
    Bid,
    Command,
    Decline,
    First,
    Out,
    PalaceChoice,
    Pass,
    Place,
    Resolve,
    Side,
    Take,
    Tile,
)
from games.rules.whitelotus.defaults import _worth
from games.rules.whitelotus.state import Finished, Spoils, State
from tests.engine.whitelotus.helpers import area, begin, blank, holds, markers, new_game, play, seat, tiles


def _default(s: State, colour: str):
    """The default of ``colour``, checked to be one of its legal moves."""
    who = seat(s, colour)
    command = default(s, who)
    assert command in legal(s, who)
    return command


# --- phase 1 ----------------------------------------------------------------------------------


def _designer_placement(**where: tuple[str, ...]) -> State:
    """Designer turn 2, red to place: red holds Dadu, blue Shangdu; the neutral tiles next
    to them are Zhending (temple, by red), Taiyuan (village, by both), Ningxia (village)
    and Yanan (fort, both by blue)."""
    s = blank(3, edition="designer", emperor="red")
    s = holds(s, "red", Dadu="village")
    s = holds(s, "blue", Shangdu="village")
    s = tiles(s, Zhending="temple", Taiyuan="village", Ningxia="village", Yanan="fort")
    s = markers(s, **where)
    s, _ = begin(s, "placement")
    assert s.phase.name == "placement" and pending(s)[0].seat == seat(s, "red")
    return s


def test_designer_placement_default_claims_the_most_valuable_free_area():
    """defaults.py; 002 l.61-73, l.107-111: a lone marker takes an area without a bid, so the
    default claims where nobody has a marker yet: the temple next to red's own area."""
    assert _default(_designer_placement(), "red") == Place(area("Zhending"))


def test_designer_placement_default_prefers_an_area_next_to_its_own():
    """defaults.py: of two villages, the one that grows red's territory."""
    s = _designer_placement(Zhending=("blue",))
    assert _default(s, "red") == Place(area("Taiyuan"))


def test_designer_placement_default_does_not_join_a_claim():
    """defaults.py: joining another's marker would start a fight (and spend influence)."""
    s = _designer_placement(Zhending=("blue",), Taiyuan=("green",), Ningxia=("blue", "green"))
    assert _default(s, "red") == Place(area("Yanan"))


def test_designer_placement_default_passes_when_every_legal_area_is_claimed():
    """defaults.py; 002 l.71-72: a player can choose to pass."""
    s = _designer_placement(Zhending=("blue",), Taiyuan=("green",), Ningxia=("blue",), Yanan=("green",))
    assert _default(s, "red") == Pass()


def test_kosmos_placement_default_picks_the_area_with_fewest_markers():
    """defaults.py: no passing in kosmos (001 l.125-131), so the least contested legal area."""
    s = blank(3, edition="kosmos", emperor="red")
    s = tiles(s, Ningxia="palace", Shangdu="village", Dadu="temple", Jinan="fort")
    s = markers(s, Ningxia=("blue",), Shangdu=("blue", "green"), Dadu=("green",))
    s, _ = begin(s, "placement")
    assert _default(s, "red") == Place(area("Jinan"))


def test_kosmos_placement_default_breaks_ties_by_lowest_number():
    """defaults.py: among equally empty legal areas the lowest province number."""
    s = blank(3, edition="kosmos", emperor="red")
    s = tiles(s, Ningxia="village", Shangdu="village", Dadu="temple", Jinan="fort")
    s = markers(s, Ningxia=("blue",), Shangdu=("green",), Jinan=("blue",))
    s, _ = begin(s, "placement")
    assert _default(s, "red") == Place(area("Dadu"))
    s = markers(s, Dadu=("red",))  # red already there: not legal any more
    assert _default(s, "red") == Place(area("Ningxia"))


# --- phase 2 ----------------------------------------------------------------------------------


def _contest(edition: str = "kosmos", players: int = 3, emperor: str = "red", **options) -> State:
    """Year 2: Jinan contested by red, blue and green; provisional scores green 3, red 1."""
    s = blank(players, edition=edition, emperor=emperor, **options)
    s = tiles(s, Jinan="village")
    s = holds(s, "green", Chengdu="palace")
    s = holds(s, "red", Haizhou="village")
    s = markers(s, Jinan=("red", "blue", "green"))
    s, _ = begin(s, "resolution")
    return s


def test_resolve_default_names_the_lowest_numbered_contested_area():
    """defaults.py; 001 l.165-167: the emperor names the order of the contested areas."""
    s = blank(3, emperor="blue")
    s = tiles(s, Jinan="village", Shangdu="fort", Kunming="temple")
    s = markers(s, Jinan=("red", "blue"), Shangdu=("red", "green"), Kunming=("blue", "green"))
    s, _ = begin(s, "resolution")
    assert s.phase.name == "choose_contest"
    assert _default(s, "blue") == Resolve(area("Shangdu"))


def test_bid_default_is_the_least_against_the_strongest_other_contender():
    """defaults.py; 001 l.180-187: a dragon card against another contender plus influence."""
    s = _contest()
    assert s.phase.name == "bidding"
    assert _default(s, "blue") == Bid(seat(s, "green"), 0)
    assert _default(s, "green") == Bid(seat(s, "red"), 0)


def test_bid_default_ignores_the_bidders_own_score():
    """defaults.py: the strongest *other* contender."""
    s = holds(_contest(), "blue", Kunming="palace", Fuzhou="temple")
    assert _default(s, "blue") == Bid(seat(s, "green"), 0)


def _by_seed(s: State, colour: str, seeds: int = 40) -> Counter[Command]:
    """How often each command is the default of ``colour`` over the same position in
    ``seeds`` games (only the seed differs)."""
    return Counter(_default(replace(s, seed=f"lot-{i}"), colour) for i in range(seeds))


def test_bid_default_tie_is_drawn_by_lot():
    """defaults.py: equal provisional scores: the target is drawn by the game's lot, so
    over many games each tied contender is aimed at, not always the next one clockwise."""
    s = holds(_contest(), "red", Kunming="village", Xuzhou="village")  # red 3 = green 3
    assert set(_by_seed(s, "blue")) == {Bid(seat(s, "green"), 0), Bid(seat(s, "red"), 0)}


def test_bid_default_by_lot_is_the_same_on_every_call():
    s = holds(_contest(), "red", Kunming="village", Xuzhou="village")
    assert len({_default(s, "blue") for _ in range(5)}) == 1


def test_designer_bid_default_is_zero_card_plus_one():
    """defaults.py; 002 l.87-88: exactly 2 influence cards, so with the 0 card the least is 1."""
    s = _contest(edition="designer")
    assert _default(s, "blue") == Bid(seat(s, "green"), 1)


def test_designer_bid_default_without_zero_card_is_two():
    """defaults.py; 002 l.87-88 without the 0 card (004 l.91): two cards of 1 are the least."""
    s = _contest(edition="designer", zero_card=False)
    assert _default(s, "blue") == Bid(seat(s, "green"), 2)


def _tie(emperor: str, bids: dict[str, str], contenders: tuple[str, ...], players: int = 3) -> State:
    s = blank(players, emperor=emperor)
    s = tiles(s, Jinan="village")
    s = markers(s, Jinan=contenders)
    s, _ = begin(s, "resolution")
    for colour, text in bids.items():
        s, _ = play(s, colour, text)
    assert s.phase.name == "tie_break"
    return s


def test_tie_break_default_draws_the_seat_out_by_lot_the_emperor_included():
    """defaults.py; 001 l.241-245: the emperor decides a tie (and may favour himself); his
    default draws by lot among all the tied, himself too, so no seat loses every defaulted
    tie (issue 14)."""
    s = _tie(
        "blue", {"red": "bid blue 2", "blue": "bid green 2", "green": "bid red 2"}, ("red", "blue", "green")
    )
    drawn = _by_seed(s, "blue")
    assert set(drawn) == {Out(seat(s, c)) for c in ("red", "blue", "green")}


def test_tie_break_default_puts_out_only_a_tied_seat():
    """defaults.py: a contender who is not tied is never drawn (green drew only 1)."""
    s = _tie(
        "blue",
        {"red": "bid green 2", "yellow": "bid red 2", "green": "bid yellow 1"},
        ("red", "green", "yellow"),
        players=4,
    )
    assert set(_by_seed(s, "blue")) == {Out(seat(s, "red")), Out(seat(s, "green"))}


def test_tie_break_default_is_the_same_on_every_call():
    """The lot is a function of the seed and the decision: asking again gives the same."""
    s = _tie("red", {"red": "bid blue 2", "blue": "bid red 2"}, ("red", "blue"))
    assert len({_default(s, "red") for _ in range(5)}) == 1


# --- phase 4 ----------------------------------------------------------------------------------


def _kosmos_rebellion() -> State:
    s = blank(3, edition="kosmos", emperor="red")
    s = holds(s, "red", Ningxia="palace")
    s = holds(s, "blue", Jinan="village")
    s = holds(s, "green", Chengdu="village")
    s, _ = begin(s, "rebellion")
    return s


def test_rebellion_offer_default_declines():
    """defaults.py: defaults never start a fight (001 l.268-276: leading is optional)."""
    s = _kosmos_rebellion()
    assert s.phase.name == "rebellion_offer"
    assert _default(s, "blue") == Decline()


def test_kosmos_rebellion_default_sides_with_the_emperor_then_commits_no_army():
    """defaults.py; 001 l.288-297: pick a side, then commit army points."""
    s, _ = play(_kosmos_rebellion(), "blue", "lead")
    assert _default(s, "green") == Side(rebels=False)
    with pytest.raises(IllegalCommand):
        default(s, seat(s, "red"))  # nothing to choose yet: the emperor leads his side
    s, _ = play(s, "green", "side rebels")
    for colour in ("red", "blue", "green"):
        assert _default(s, colour) == Army(0)


def test_designer_rebellion_default_side_first_then_army():
    """defaults.py; 002 l.143-149: side and army are chosen in the same sealed step."""
    s = blank(3, edition="designer", emperor="red")
    s = holds(s, "blue", Jinan="village")
    s, _ = begin(s, "rebellion")
    assert _default(s, "green") == Side(rebels=False)
    assert _default(s, "red") == Army(0)
    s, _ = play(s, "green", "side rebels")
    assert _default(s, "green") == Army(0)


def _spoils(s: State, winner: str = "red", losers: tuple[str, ...] = ("blue",)) -> State:
    mask = 0
    for colour in losers:
        mask |= 1 << seat(s, colour)
    return replace(s, phase=Spoils(((seat(s, winner),),), mask, 0, s.emperor, ()))


def test_spoils_default_takes_the_most_valuable_area():
    """defaults.py; 001 l.323-341: a winner takes one area of a loser; +2 for a dragon counts."""
    s = blank(3, emperor="red")
    s = holds(s, "red", Pingjiang="village")
    s = holds(s, "blue", Xuzhou="fort", Hangzhou="village", Jiqing="temple")
    assert _default(_spoils(s), "red") == Take(area("Hangzhou"))  # 1 + 2 beats 2 and 1
    s = holds(s, "green", Fuzhou="temple")
    assert _default(_spoils(s, losers=("blue", "green")), "red") == Take(area("Fuzhou"))


def test_spoils_default_ties_go_to_the_lowest_number():
    """defaults.py: equal worth: the lowest province number."""
    s = blank(3, emperor="red")
    s = holds(s, "red", Pingjiang="village")
    s = holds(s, "blue", Yangzhou="palace", Hangzhou="village", Quanzhou="village")
    assert _default(_spoils(s), "red") == Take(area("Yangzhou"))  # palace 3 = dragon village 3


def test_designer_first_default_orders_tied_winners_by_lot():
    """defaults.py; 002 l.165-166: in a tie the Emperor decides who will pick first; his
    default draws by lot, so each tied winner is sometimes first."""
    s = blank(3, edition="designer", emperor="blue")
    s = replace(s, phase=Spoils(((seat(s, "red"), seat(s, "green")),), 0, 0, s.emperor, ()))
    assert set(_by_seed(s, "blue")) == {First(seat(s, "red")), First(seat(s, "green"))}


# --- phases 5 and 6 ---------------------------------------------------------------------------


def test_palace_default_takes_influence():
    """defaults.py; 001 l.418-420: 2 influence or 1 army per palace; the default is influence."""
    s = blank(3, edition="designer")
    s = holds(s, "red", Ningxia="palace", Dadu="palace")
    s, _ = begin(s, "income")
    assert _default(s, "red") == PalaceChoice(0)


def test_tile_default_goes_on_the_lowest_numbered_legal_area():
    """defaults.py; 001 l.437-441: a tile next to an area holding a tile."""
    s = blank(3, edition="kosmos", emperor="green")
    s = tiles(s, Hangzhou="fort")
    s = holds(s, "red", Taiyuan="village")
    s, _ = begin(s, "new_areas")
    assert s.phase.name == "new_areas"
    assert _default(s, "green") == Tile(area("Shangdu"))


# --- no decision ------------------------------------------------------------------------------


def test_default_for_a_seat_with_nothing_pending_is_refused():
    """defaults.py: only a seat that owes a decision has a default."""
    s = new_game(3, "kosmos")
    with pytest.raises(IllegalCommand):
        default(s, seat(s, "blue"))  # red places first


def test_default_after_a_sealed_choice_is_refused():
    """defaults.py: a seat that has submitted its sealed bid owes nothing."""
    s = _contest()
    s, _ = play(s, "blue", "bid red 1")
    with pytest.raises(IllegalCommand):
        default(s, seat(s, "blue"))


@pytest.mark.parametrize("edition", ["kosmos", "designer"])
@pytest.mark.parametrize("players", [3, 6])
def test_defaults_alone_play_a_whole_game(edition, players):
    """defaults.py: every default is a legal move, so a game of absent players still ends."""
    s = new_game(players, edition, seed="absent")
    moves = 0
    while decisions := pending(s):
        who = decisions[0].seat
        s, _ = apply(s, who, _default(s, s.config.colours[who]))
        moves += 1
        assert moves < 5000
    assert isinstance(s.phase, Finished)
    with pytest.raises(IllegalCommand):
        default(s, 0)


def test_designer_placement_default_counts_a_dragon_two_points():
    """defaults.py: an area is worth its building, 2 more for a dragon (it scores one), 1
    more next to the seat's own: a fort on the dragon of Hangzhou (3) over a temple (2)."""
    s = blank(3, edition="designer", emperor="red")
    s = holds(s, "red", Pingjiang="village")
    s = holds(s, "blue", Yangzhou="village")
    s = tiles(s, Hangzhou="fort", Haizhou="temple", Chengdu="fort")
    red = seat(s, "red")
    assert _worth(s, red, area("Hangzhou")) == 1 + 2 + 1  # fort, dragon, next to Pingjiang
    assert _worth(s, red, area("Haizhou")) == 2  # temple
    assert _worth(s, red, area("Chengdu")) == 1  # fort, not next to red's
    s, _ = begin(s, "placement")
    assert _default(s, "red") == Place(area("Hangzhou"))
