"""Final scoring and ranking (scoring.breakdown / scoring.outcome) on hand-made boards.

Seeds: 001 = German Kosmos rules, 004 = French Kosmos rules, 002 = designer rules (line numbers).
"""

from __future__ import annotations

from dataclasses import replace

from games.rules.whitelotus.scoring import breakdown, largest_territory, outcome
from games.rules.whitelotus.state import State
from tests.engine.whitelotus.helpers import blank, holds


def _vp(s: State, **chips: int) -> State:
    vp = list(s.vp)
    for colour, n in chips.items():
        vp[s.config.colours.index(colour)] = n
    return replace(s, vp=tuple(vp))


def test_palace_scores_three():
    """004 l.263: Chaque palais rapporte 3 points (002 l.199)."""
    s = holds(blank(3), "red", Ningxia="palace")
    assert breakdown(s)[0]["buildings"] == 3


def test_temple_scores_two():
    """004 l.263: chaque temple 2 points (002 l.200)."""
    s = holds(blank(3), "red", Ningxia="temple")
    assert breakdown(s)[0]["buildings"] == 2


def test_fort_ricefield_and_village_score_one_each():
    """004 l.263: chaque autre bâtiment 1 point (002 l.201)."""
    s = holds(blank(3), "blue", Ningxia="fort", Jinan="ricefield", Chengdu="village")
    row = breakdown(s)[1]
    assert row["buildings"] == 3
    assert row["territory_size"] == 1


def test_dragon_area_gives_two_more():
    """001 l.459-462: drei Drachengebiete, jeweils 2 Extra-Siegpunkte zum Wert des Gebietes."""
    s = holds(blank(3), "red", Hangzhou="village", Quanzhou="temple", Jinan="village")
    row = breakdown(s)[0]
    assert row["buildings"] == 1 + 2 + 1
    assert row["dragons"] == 4


def test_vp_chips_score_one_each():
    """001 l.464-467: dazu kommen die Siegpunktchips (002 l.203: 1 VP for each VP chip)."""
    s = _vp(holds(blank(3), "red", Ningxia="village"), red=3, green=2)
    rows = breakdown(s)
    assert (rows[0]["chips"], rows[1]["chips"], rows[2]["chips"]) == (3, 0, 2)
    assert rows[2]["total"] == 2


def test_largest_territory_gives_three_to_its_sole_holder():
    """001 l.455-456: wer alleine das größte zusammenhängende Gebiet hat, erhält 3 Punkte."""
    s = blank(3)
    s = holds(s, "red", Ningxia="village", Shangdu="village", Dadu="village")
    s = holds(s, "blue", Chengdu="village", Chongqing="village")
    s = holds(s, "green", Jinan="village")
    rows = breakdown(s)
    assert [r["territory_size"] for r in rows] == [3, 2, 1]
    assert [r["territory"] for r in rows] == [3, 0, 0]
    assert [r["total"] for r in rows] == [6, 2, 1]


def test_largest_territory_counts_connected_areas_not_all_areas():
    """001 l.455: das größte *zusammenhängende* Gebiet, not the most areas."""
    s = blank(3)
    s = holds(s, "red", Ningxia="village", Shangdu="village", Chengdu="village", Chongqing="village")
    s = holds(s, "blue", Xuzhou="village", Yangzhou="village", Haizhou="village")
    assert largest_territory(s, 0) == 2
    assert largest_territory(s, 1) == 3
    rows = breakdown(s)
    assert [r["territory"] for r in rows] == [0, 3, 0]


def test_kosmos_territory_tie_gives_nobody_the_bonus():
    """001 l.456-457: haben zwei oder mehr Spieler die größten Gebiete, entfällt die Prämie."""
    s = blank(3, edition="kosmos")
    s = holds(s, "red", Ningxia="village", Shangdu="village")
    s = holds(s, "blue", Chengdu="village", Chongqing="village")
    s = holds(s, "green", Jinan="village")
    assert [r["territory"] for r in breakdown(s)] == [0, 0, 0]


def test_designer_territory_tie_gives_each_tied_player_one():
    """002 l.208-209: if there is a tie then each tied player gains 1VP."""
    s = blank(3, edition="designer")
    s = holds(s, "red", Ningxia="village", Shangdu="village")
    s = holds(s, "blue", Chengdu="village", Chongqing="village")
    s = holds(s, "green", Jinan="village")
    rows = breakdown(s)
    assert [r["territory"] for r in rows] == [1, 1, 0]
    assert [r["total"] for r in rows] == [3, 3, 1]


def test_designer_sole_largest_territory_gives_three():
    """002 l.208-209: the largest contiguous group gains an extra 3 VPs."""
    s = blank(3, edition="designer")
    s = holds(s, "red", Ningxia="village", Shangdu="village")
    s = holds(s, "blue", Chengdu="village")
    assert [r["territory"] for r in breakdown(s)] == [3, 0, 0]


def test_nobody_holding_an_area_gets_no_territory_bonus():
    """001 l.455: the bonus is for holding a territory; with no areas there is none."""
    s = blank(3, edition="designer")
    assert [r["territory"] for r in breakdown(s)] == [0, 0, 0]
    assert outcome(s).rank == (1, 1, 1)


def test_total_is_buildings_dragons_territory_and_chips():
    """001 l.430-467: Gebäude + Drachen + größtes Gebiet + Siegpunktchips."""
    s = blank(3)
    s = holds(s, "red", Pingjiang="palace", Hangzhou="temple", Fuzhou="village", Jinan="fort")
    s = _vp(s, red=2)
    assert breakdown(s)[0] == {
        "buildings": 3 + 2 + 1 + 1,
        "dragons": 4,
        "territory": 3,
        "territory_size": 3,
        "chips": 2,
        "total": 7 + 4 + 3 + 2,
    }
    assert outcome(s).scores == (16, 0, 0)


def test_most_points_wins():
    """001 l.469: der Spieler mit den meisten Siegpunkten gewinnt."""
    s = blank(3, emperor="red")
    s = holds(s, "red", Ningxia="village")
    s = holds(s, "blue", Jinan="palace")
    s = holds(s, "green", Chengdu="temple")
    result = outcome(s)
    assert result.rank == (3, 1, 2)
    assert result.winners == (1,)


def test_kosmos_emperor_wins_a_tie_he_is_in():
    """001 l.469-471: einen Gleichstand, an dem der Kaiser beteiligt ist, gewinnt dieser."""
    s = blank(3, edition="kosmos", emperor="blue")
    s = holds(s, "red", Ningxia="palace", Jinan="village")
    s = holds(s, "blue", Chengdu="palace", Haizhou="village")
    s = holds(s, "green", Kunming="village")
    result = outcome(s)
    assert result.scores == (4, 4, 1)
    assert result.rank == (2, 1, 3)
    assert result.winners == (1,)


def test_kosmos_tie_without_the_emperor_goes_to_most_palaces():
    """001 l.471-472: ist der Kaiser nicht beteiligt, gewinnt, wer die meisten Paläste hat."""
    s = blank(3, edition="kosmos", emperor="red")
    s = holds(s, "red", Ningxia="palace", Dadu="palace", Xuzhou="palace")
    s = holds(s, "blue", Chengdu="temple", Jinan="village")
    s = holds(s, "green", Haizhou="palace")
    result = outcome(s)
    assert result.scores == (9, 3, 3)
    assert result.rank == (1, 3, 2)


def test_kosmos_tie_with_equal_palaces_is_shared():
    """001 l.472-473: gibt es dann noch immer Gleichstand, gibt es mehrere Sieger."""
    s = blank(3, edition="kosmos", emperor="red")
    s = holds(s, "red", Ningxia="village")
    s = holds(s, "blue", Chengdu="temple", Jinan="village")
    s = holds(s, "green", Haizhou="temple", Kunming="village")
    result = outcome(s)
    assert result.scores == (1, 3, 3)
    assert result.rank == (3, 1, 1)
    assert result.winners == (1, 2)


def test_designer_tie_goes_to_most_chips_on_the_board():
    """002 l.211-212: in a tie the tied player with the most chips on the board wins."""
    s = blank(3, edition="designer", emperor="blue")
    s = holds(s, "red", Ningxia="village", Shangdu="village")  # sole largest territory
    s = holds(s, "blue", Chengdu="palace")
    s = holds(s, "green", Jinan="village", Haizhou="village", Kunming="village")
    result = outcome(s)
    assert result.scores == (5, 3, 3)
    assert result.rank == (1, 3, 2)  # green's 3 chips beat blue's 1, though blue is emperor


def test_designer_tie_with_equal_chips_is_shared():
    """002 l.212-213: if there is still a tie then it remains a tie."""
    s = blank(3, edition="designer", emperor="green")
    s = holds(s, "red", Ningxia="village", Shangdu="village", Dadu="village")
    s = holds(s, "blue", Chengdu="palace")
    s = holds(s, "green", Haizhou="palace")
    result = outcome(s)
    assert result.scores == (6, 3, 3)
    assert result.rank == (1, 2, 2)


def test_tie_rules_order_every_place_not_only_the_first():
    """Scoring.py docstring (D11): the tie rules rank lower places too (001 l.469-473)."""
    s = blank(4, edition="kosmos", emperor="red")
    s = holds(s, "red", Ningxia="palace", Shangdu="palace", Dadu="palace")
    s = holds(s, "blue", Chengdu="temple", Jinan="village")
    s = holds(s, "green", Haizhou="palace")
    s = holds(s, "yellow", Kunming="temple", Xuzhou="village")
    result = outcome(s)
    assert result.scores == (12, 3, 3, 3)
    assert result.rank == (1, 3, 2, 3)
