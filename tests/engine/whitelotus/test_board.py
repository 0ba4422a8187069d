"""The reconstructed board (games/rules/whitelotus/RULES.md "The board") and loading other board files."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from games.rules.whitelotus.board import Board, BoardError, geometric_adjacency, load_board
from tests.engine.whitelotus.helpers import BOARD

BOARD_FILE = Path(__file__).parents[3] / "games/rules/whitelotus/boards/china.json"


def _connected(board: Board, areas: frozenset[int]) -> bool:
    start = next(iter(areas))
    seen, stack = {start}, [start]
    while stack:
        for b in board.provinces[stack.pop()].adjacent:
            if b in areas and b not in seen:
                seen.add(b)
                stack.append(b)
    return seen == set(areas)


def test_board_has_39_provinces_31_light_and_8_brown():
    """001/002 imply 39 areas, one per neutral tile; 6 players add the brown areas."""
    assert BOARD.size == 39
    assert sum(p.brown for p in BOARD.provinces) == 8
    assert len(BOARD.in_play(5)) == 31
    assert len(BOARD.in_play(6)) == 39


def test_start_areas_are_seven_light_and_one_brown_all_inland():
    """001 l.84-98: 7 light lotus areas, an 8th (brown) with 6 players."""
    lotus = [p for p in BOARD.provinces if p.lotus]
    assert sum(not p.brown for p in lotus) == 7
    assert sum(p.brown for p in lotus) == 1
    assert not any(p.coastal for p in lotus)


def test_start_areas_lie_in_the_west_and_dragons_in_the_south_east():
    def centre(p):
        return (sum(x for x, _ in p.cells) / len(p.cells), sum(y for _, y in p.cells) / len(p.cells))

    mid_x = BOARD.width / 2
    for p in BOARD.provinces:
        x, y = centre(p)
        if p.lotus:
            assert x < mid_x, p.name
        if p.dragon:
            assert x > mid_x and y > BOARD.height / 2, p.name
    assert sum(p.dragon for p in BOARD.provinces) == 3


def test_brown_areas_are_in_the_north_west():
    for p in BOARD.provinces:
        if p.brown:
            assert all(x < BOARD.width / 2 and y < BOARD.height / 2 for x, y in p.cells), p.name


def test_sea_lies_to_the_east_and_south():
    land_right = max(x for p in BOARD.provinces for x, _ in p.cells)
    land_bottom = max(y for p in BOARD.provinces for _, y in p.cells)
    assert any(x > land_right - 4 for x, _ in BOARD.sea)
    assert any(y > land_bottom for _, y in BOARD.sea)
    assert all(x >= BOARD.width / 2 or y > land_bottom for x, y in BOARD.sea)


def test_adjacency_is_symmetric_and_never_reflexive():
    for p in BOARD.provinces:
        assert p.index not in p.adjacent
        for q in p.adjacent:
            assert p.index in BOARD.provinces[q].adjacent


def test_adjacency_matches_the_geometry():
    derived = geometric_adjacency(BOARD)
    for p in BOARD.provinces:
        assert derived[p.index] == p.adjacent, p.name


def test_board_is_connected_for_every_player_count():
    for players in (3, 6):
        assert _connected(BOARD, BOARD.in_play(players))


def test_cells_do_not_overlap_and_lie_on_the_grid():
    cells = [c for p in BOARD.provinces for c in p.cells]
    assert len(cells) == len(set(cells))
    assert not set(cells) & set(BOARD.sea)
    assert all(0 <= x < BOARD.width and 0 <= y < BOARD.height for x, y in cells)


def test_every_province_has_a_short_typeable_unique_name_and_a_number():
    names = [p.name for p in BOARD.provinces]
    assert len({n.lower() for n in names}) == 39
    assert all(n.isascii() and n.isalpha() and len(n) <= 10 for n in names)
    assert [p.number for p in BOARD.provinces] == list(range(1, 40))


def test_lookup_by_name_number_case_and_accents():
    assert BOARD.lookup("hangzhou") is BOARD.lookup("HANGZHOU") is BOARD.lookup("34")
    assert BOARD.lookup("Hángzhōu") is BOARD.lookup("Hangzhou")
    assert BOARD.lookup("Atlantis") is None
    assert BOARD.lookup("99") is None


def test_a_league_can_load_another_board_file(tmp_path):
    data = json.loads(BOARD_FILE.read_text())
    data["name"] = "league-china"
    for p in data["provinces"]:
        if p["name"] == "Dadu":
            p["name"] = "Khanbaliq"
    path = tmp_path / "league.json"
    path.write_text(json.dumps(data))
    board = load_board(path)
    assert board.name == "league-china"
    assert board.lookup("Khanbaliq") is not None
    assert board.digest != BOARD.digest


def test_an_asymmetric_board_file_is_refused(tmp_path):
    data = json.loads(BOARD_FILE.read_text())
    data["provinces"][0]["adjacent"].append(39)
    with pytest.raises(BoardError, match="not symmetric"):
        Board.from_dict(data)


def test_duplicate_or_numeric_names_are_refused():
    data = json.loads(BOARD_FILE.read_text())
    data["provinces"][1]["name"] = data["provinces"][0]["name"].upper()
    with pytest.raises(BoardError, match="distinct"):
        Board.from_dict(data)


def test_the_areas_in_play_as_a_mask_are_the_areas_in_play_for_every_player_count():
    """Brown areas only with six players (001 "Spielvorbereitung"): the masks the engine
    reads (a bit per area) name exactly the areas in play."""
    for players in (3, 4, 5, 6):
        mask = BOARD.play_mask(players)
        assert {i for i in range(BOARD.size) if mask >> i & 1} == set(BOARD.in_play(players))
    assert BOARD.play_mask(6) == (1 << 39) - 1


@pytest.mark.parametrize(
    ("change", "said"),
    [
        (lambda d: d.update(format=2), "unknown board format"),
        (lambda d: d.pop("format"), "unknown board format"),
        (lambda d: d["provinces"][-1].update(number=41), "numbered 1..N without gaps"),
        (lambda d: d["provinces"][0]["adjacent"].append(40), "bad neighbour 40"),
        (lambda d: d["provinces"][0]["adjacent"].append(0), "bad neighbour 0"),
        (lambda d: d["provinces"][0]["adjacent"].append(1), "bad neighbour 1"),
        (lambda d: d["provinces"][2].update(name="12"), "distinct, non-numeric"),
    ],
    ids=["format 2", "no format", "a gap", "no such neighbour", "neighbour 0", "itself", "a number"],
)
def test_a_board_file_that_is_no_board_is_refused_saying_why(change, said):
    data = json.loads(BOARD_FILE.read_text())
    change(data)
    with pytest.raises(BoardError, match=said):
        Board.from_dict(data)
