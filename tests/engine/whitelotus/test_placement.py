"""Phase 1: placing control markers (001 "1. Gebietsanspruch anmelden", 004 2.1, 002 "1. PLACE
CONTROL MARKERS")."""

from __future__ import annotations

import pytest

from games.rules.base import Decision, IllegalCommand
from games.rules.whitelotus.commands import Pass, Place
from games.rules.whitelotus.decisions import legal, pending
from games.rules.whitelotus.state import Bidding, Placement
from tests.engine.whitelotus.helpers import (
    BOARD,
    area,
    begin,
    blank,
    entries,
    holds,
    kinds,
    new_game,
    play,
    seat,
    tiles,
)


def _placing(state):
    s, _ = begin(state, "placement")
    assert isinstance(s.phase, Placement)
    return s


def _places(state, colour):
    """The areas (by name) the menu of ``colour`` offers for a marker."""
    return sorted(BOARD.label(c.area) for c in legal(state, seat(state, colour)) if isinstance(c, Place))


# --- kosmos -------------------------------------------------------------------------------


def test_kosmos_three_rounds_clockwise_from_the_emperor():
    """001 l.124-134: three rounds, the emperor first, then clockwise."""
    s = blank(players=4, year=1, emperor="green")
    s = _placing(tiles(s, Yanan="village", Taiyuan="temple", Luoyang="fort", Kaifeng="village"))
    green, yellow, red, blue = (seat(s, c) for c in ("green", "yellow", "red", "blue"))
    assert s.phase.queue == (green, yellow, red, blue) * 3
    assert pending(s) == (Decision(green, "place"),)
    s, log = play(s, "green", "place Yanan")
    assert entries(log, "placed") == [{"seat": green, "area": area("Yanan")}]
    assert s.markers[area("Yanan")] == 1 << green
    assert pending(s) == (Decision(yellow, "place"),)


def test_kosmos_ricefield_extras_from_year_two_in_further_rounds():
    """001 l.140-148: +1 marker per ricefield held, at most +2, placed one at a time in order."""
    s = blank(players=3, year=2, emperor="blue")
    s = tiles(s, Yanan="village", Taiyuan="temple", Luoyang="fort", Kaifeng="village")
    s = holds(s, "red", Chengdu="ricefield")
    s = holds(s, "green", Songpan="ricefield", Hanzhong="ricefield", Chongqing="ricefield")
    s = _placing(s)
    red, blue, green = (seat(s, c) for c in ("red", "blue", "green"))
    assert s.phase.queue == (blue, green, red) * 3 + (green, red) + (green,)


def test_kosmos_no_ricefield_extras_in_year_one():
    """001 l.140: the extra markers start "ab dem zweiten Jahr"."""
    s = blank(players=3, year=1, emperor="red")
    s = tiles(s, Yanan="village", Taiyuan="temple")
    s = _placing(holds(s, "blue", Chengdu="ricefield", Songpan="ricefield"))
    assert s.phase.queue == (0, 1, 2) * 3


def test_kosmos_player_may_not_pass():
    """001 l.124-134: every player sets a marker in each of the three rounds."""
    s = _placing(tiles(blank(players=3, year=2), Yanan="village", Taiyuan="temple"))
    assert Pass() not in legal(s, seat(s, "red"))
    with pytest.raises(
        IllegalCommand,
        match="You cannot pass: in the Kosmos rules the three markers of every year must be placed",
    ):
        play(s, "red", "pass")


def test_never_two_markers_of_one_colour_in_an_area():
    """001 l.136-139: never two markers of one colour; different colours may share an area."""
    s = _placing(tiles(blank(players=3, year=2), Yanan="village", Taiyuan="temple", Luoyang="fort"))
    for colour in ("red", "blue", "green"):
        s, _ = play(s, colour, "place Yanan")
    assert s.markers[area("Yanan")] == 0b111
    assert _places(s, "red") == ["Luoyang", "Taiyuan"]
    with pytest.raises(IllegalCommand, match="You cannot place in Yanan: you already have a marker there"):
        play(s, "red", "place Yanan")


def test_markers_go_only_on_areas_holding_a_neutral_tile():
    """001 l.126-128: "auf ein Gebiet ..., auf dem ein neutraler Gebäudechip liegt"."""
    s = blank(players=3, year=2)
    s = holds(tiles(s, Yanan="village", Luoyang="fort"), "blue", Taiyuan="temple")
    s = _placing(s)
    assert _places(s, "red") == ["Luoyang", "Yanan"]
    with pytest.raises(IllegalCommand, match="You cannot place in Dadu: no tile lies there yet"):
        play(s, "red", "place Dadu")
    with pytest.raises(IllegalCommand, match="You cannot place in Taiyuan: blue already holds it"):
        play(s, "red", "place Taiyuan")


def test_brown_areas_are_used_only_with_six_players():
    """001 l.84-96: with fewer than 6 players only the light areas are played."""
    five = _placing(tiles(blank(players=5, year=2), Yanan="village", Taiyuan="fort", Lanzhou="temple"))
    assert _places(five, "red") == ["Taiyuan", "Yanan"]
    with pytest.raises(IllegalCommand, match="Lanzhou: it is not in play"):
        play(five, "red", "place Lanzhou")
    six = _placing(tiles(blank(players=6, year=2), Yanan="village", Taiyuan="fort", Lanzhou="temple"))
    assert _places(six, "red") == ["Lanzhou", "Taiyuan", "Yanan"]
    six, _ = play(six, "red", "place Lanzhou")
    assert six.markers[area("Lanzhou")] == 1 << seat(six, "red")


def test_kosmos_seat_with_no_legal_area_loses_the_marker():
    """001 l.124-139 (no passing) with digest open point: a seat with no legal area is skipped."""
    s = blank(players=3, year=2, emperor="red")
    s = holds(s, "red", Dadu="palace", Shangdu="palace", Jinan="palace")
    s, log = begin(tiles(s, Yanan="palace", Ningxia="palace"), "placement")
    assert entries(log, "no_area") == [{"seat": seat(s, "red")}]
    assert s.phase.queue == (1, 2) + (0, 1, 2) * 2
    assert pending(s) == (Decision(seat(s, "blue"), "place"),)


def test_kosmos_markers_that_find_no_area_are_lost_and_the_phase_ends():
    """001 l.132-139: one tile, one marker per colour there; the later markers are lost."""
    s, log = begin(tiles(blank(players=3, year=2), Yanan="village"), "placement")
    yanan = area("Yanan")
    assert entries(log, "placed") == [
        {"seat": 0, "area": yanan},
        {"seat": 1, "area": yanan},
        {"seat": 2, "area": yanan},
    ]
    assert [e["seat"] for e in entries(log, "forced") if e["kind"] == "place"] == [0, 1, 2]
    assert entries(log, "no_area") == [{"seat": 0}, {"seat": 1}, {"seat": 2}] * 2
    assert kinds(log).index("contest") > max(i for i, k in enumerate(kinds(log)) if k == "no_area")
    assert isinstance(s.phase, Bidding)
    assert s.phase.area == area("Yanan")
    assert s.phase.contenders == 0b111


def test_placing_out_of_turn_is_refused():
    """001 l.129-130: the emperor begins, then clockwise; nobody else may place meanwhile."""
    s = _placing(tiles(blank(players=3, year=2, emperor="red"), Yanan="village", Taiyuan="fort"))
    with pytest.raises(IllegalCommand, match="Nothing is yours to decide now: waiting for Red"):
        play(s, "blue", "place Yanan")
    assert s.markers[area("Yanan")] == 0


def test_wrong_command_during_placement_is_refused():
    """001 l.123-134: phase 1 only takes control markers."""
    s = _placing(tiles(blank(players=3, year=2, emperor="red"), Yanan="village", Taiyuan="fort"))
    with pytest.raises(IllegalCommand, match="'bid' is not a move now: control markers are being placed"):
        play(s, "red", "bid blue 3")


# --- chip limits (D1) ---------------------------------------------------------------------


def test_seat_holding_three_palaces_cannot_place_on_a_neutral_palace():
    """001 l.25-28: 3 palace chips per colour, so no 4th palace can be claimed."""
    s = blank(players=3, year=2, emperor="red")
    s = holds(s, "red", Dadu="palace", Shangdu="palace", Jinan="palace")
    s = _placing(tiles(s, Yanan="palace", Taiyuan="village", Luoyang="fort"))
    assert _places(s, "red") == ["Luoyang", "Taiyuan"]
    with pytest.raises(IllegalCommand, match="You cannot place in Yanan: you have no palace chip left"):
        play(s, "red", "place Yanan")


def test_markers_on_neutral_areas_of_the_same_building_count_against_the_chips():
    """001 l.25-28: with 2 palaces held and a marker on a neutral palace, no 2nd palace marker."""
    s = blank(players=3, year=2, emperor="red")
    s = holds(s, "red", Dadu="palace", Shangdu="palace")
    s = _placing(tiles(s, Yanan="palace", Taiyuan="palace", Luoyang="village", Kaifeng="fort"))
    s, _ = play(s, "red", "place Yanan")
    s, _ = play(s, "blue", "place Taiyuan")
    s, _ = play(s, "green", "place Taiyuan")
    assert _places(s, "red") == ["Kaifeng", "Luoyang"]
    with pytest.raises(IllegalCommand, match="counting your markers on other palace areas"):
        play(s, "red", "place Taiyuan")


def test_one_palace_held_and_one_palace_marker_still_leave_a_palace_chip():
    """001 l.25-28: the 3rd palace chip is still free, so a 2nd palace marker is allowed."""
    s = blank(players=3, year=2, emperor="red")
    s = holds(s, "red", Dadu="palace")
    s = _placing(tiles(s, Yanan="palace", Taiyuan="palace", Luoyang="village", Kaifeng="fort"))
    s, _ = play(s, "red", "place Yanan")
    s, _ = play(s, "blue", "place Taiyuan")
    s, _ = play(s, "green", "place Taiyuan")
    assert _places(s, "red") == ["Kaifeng", "Luoyang", "Taiyuan"]
    s, _ = play(s, "red", "place Taiyuan")
    assert s.markers[area("Taiyuan")] == 0b111


# --- designer -----------------------------------------------------------------------------


def test_designer_five_rounds_clockwise_from_the_emperor():
    """002 l.61-64, l.73: up to 5 blocks, one at a time clockwise from the emperor."""
    s = _placing(tiles(blank(players=3, edition="designer", year=1, emperor="blue"), Yanan="village"))
    assert s.phase.queue == (1, 2, 0) * 5


def test_designer_player_may_pass_and_loses_that_block_for_the_turn():
    """002 l.71-73: a player can pass, discarding a block for this turn."""
    s = blank(players=3, edition="designer", year=1, emperor="red")
    s = _placing(tiles(s, Yanan="village", Ningxia="temple"))
    assert Pass() in legal(s, seat(s, "red"))
    s, log = play(s, "red", "pass")
    assert kinds(log) == ["passed"]
    assert entries(log, "passed") == [{"seat": 0}]
    assert s.phase.queue == (1, 2) + (0, 1, 2) * 4
    assert s.markers[area("Yanan")] == s.markers[area("Ningxia")] == 0


def test_designer_first_turn_only_start_areas():
    """002 l.64-65: in the first turn players can place in any of the 7 starting areas."""
    s = new_game(players=3, edition="designer")
    assert isinstance(s.phase, Placement)
    lotus = sorted(p.name for p in BOARD.provinces if p.lotus and not p.brown)
    assert len(lotus) == 7
    assert _places(s, s.config.colours[s.phase.queue[0]]) == lotus


def test_designer_later_turns_only_next_to_an_area_holding_any_players_chip():
    """002 l.65-68: "adjacent to an area containing a player-controlled chip"."""
    s = blank(players=3, edition="designer", year=2, emperor="blue")
    s = holds(s, "red", Yanan="village")
    s = _placing(tiles(s, Taiyuan="temple", Luoyang="village", Jinan="fort"))
    assert _places(s, "blue") == ["Luoyang", "Taiyuan"]  # blue holds no chip: red's chip counts
    with pytest.raises(IllegalCommand, match="Jinan: it is not next to an area holding a player's chip"):
        play(s, "blue", "place Jinan")
    s, _ = play(s, "blue", "place Taiyuan")
    assert s.markers[area("Taiyuan")] == 1 << seat(s, "blue")


def test_designer_own_adjacency_option_needs_the_seats_own_chip():
    """002 l.65-68 read as the seat's own chips (option adjacency="own")."""
    s = blank(players=3, edition="designer", year=2, emperor="blue", adjacency="own")
    s = holds(s, "red", Yanan="village")
    s = holds(s, "blue", Jinan="village")
    s = _placing(tiles(s, Taiyuan="temple", Yidu="fort"))
    assert _places(s, "blue") == ["Yidu"]
    with pytest.raises(IllegalCommand, match="Taiyuan: it is not next to an area holding your chip"):
        play(s, "blue", "place Taiyuan")


@pytest.mark.parametrize(("year", "full", "free"), [(1, "Chengdu", "Yanan"), (2, "Zhending", "Taiyuan")])
def test_designer_refusal_for_want_of_a_chip_names_the_chip_limit_not_adjacency(year, full, free):
    """002 l.64-68: in the first turn adjacency is not asked, and later Zhending lies next to
    red's chips; either way a palace refused for want of a chip says so (not that it lies far)."""
    s = blank(players=3, edition="designer", year=year, emperor="red")
    s = holds(s, "red", Dadu="palace", Shangdu="palace", Jinan="palace")
    s = _placing(tiles(s, **{full: "palace", free: "village"}))
    assert _places(s, "red") == [free]
    with pytest.raises(IllegalCommand, match=f"{full}: you have no palace chip left for it"):
        play(s, "red", f"place {full}")


@pytest.mark.parametrize("far", ["Jinan", "Chengdu", "Kunming", "Fuzhou"])
def test_designer_later_turns_refuse_any_area_away_from_every_chip(far):
    """002 l.65-68: wherever the far area lies, it is refused for being far."""
    s = blank(players=3, edition="designer", year=2, emperor="blue")
    s = holds(s, "red", Yanan="village")
    s = _placing(tiles(s, Taiyuan="temple", **{far: "fort"}))
    with pytest.raises(IllegalCommand, match=f"{far}: it is not next to an area holding a player's chip"):
        play(s, "blue", f"place {far}")


def test_designer_area_next_to_a_chip_refused_for_want_of_a_chip_says_so():
    """Blue holds all four of its temples: Taiyuan's temple, next to red's Yanan, is refused
    for the chip, not for where it lies."""
    s = blank(players=3, edition="designer", year=2, emperor="blue")
    s = holds(s, "red", Yanan="village")
    s = holds(s, "blue", Chengdu="temple", Kunming="temple", Fuzhou="temple", Jinan="temple")
    s = _placing(tiles(s, Taiyuan="temple", Ningxia="village"))
    with pytest.raises(IllegalCommand, match="Taiyuan: you have no temple chip left for it"):
        play(s, "blue", "place Taiyuan")
