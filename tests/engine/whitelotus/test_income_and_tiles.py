"""Phase 5 (new cards), kosmos phase 6 (new areas), the designer's one-time fill, and the end.

Seeds: 001 = German Kosmos rules, 004 = French Kosmos rules, 002 = designer rules (line numbers).
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from games.rules.base import IllegalCommand, LogEntry
from games.rules.whitelotus import apply, default, legal, pending
from games.rules.whitelotus.commands import PalaceChoice, Tile
from games.rules.whitelotus.constants import NEUTRAL, Building
from games.rules.whitelotus.state import Finished, NewAreas, PalaceChoices, Placement, State
from tests.engine.whitelotus.helpers import (
    BOARD,
    area,
    begin,
    blank,
    entries,
    hands,
    holds,
    kinds,
    markers,
    new_game,
    play,
    seat,
    tiles,
)


def _broke(s: State) -> State:
    """Empty hands, so a hand after income is exactly the income."""
    return hands(s, influence=dict.fromkeys(s.config.colours, 0), army=dict.fromkeys(s.config.colours, 0))


def _income(log, colour_seat: int) -> tuple[int, int]:
    row = next(e for e in entries(log, "income") if e["seat"] == colour_seat)
    return row["influence"], row["army"]


# --- phase 5: new cards ---------------------------------------------------------------------


def test_income_is_ten_influence_and_two_army():
    """001 l.412-415: every player takes 10 influence and 2 army points."""
    s = _broke(blank(players=3, edition="designer"))
    s, log = begin(s, "income")
    assert s.influence == (10, 10, 10)
    assert s.army == (2, 2, 2)
    assert len(entries(log, "income")) == 3


def test_village_gives_nothing():
    """002 l.189: Village - player gains nothing."""
    s = _broke(blank(players=3, edition="designer"))
    s = holds(s, "blue", Ningxia="village", Dadu="village", Jinan="village")
    s, _ = begin(s, "income")
    assert (s.influence[1], s.army[1]) == (10, 2)


def test_temple_gives_three_influence():
    """001 l.421: Gebiet mit Tempel: 3 Einflusspunkte (004 l.249: two temples give 6)."""
    s = _broke(blank(players=3, edition="designer"))
    s = holds(s, "blue", Ningxia="temple")
    s = holds(s, "green", Dadu="temple", Jinan="temple")
    s, _ = begin(s, "income")
    assert (s.influence[1], s.army[1]) == (13, 2)
    assert (s.influence[2], s.army[2]) == (16, 2)


def test_ricefield_gives_one_influence_and_one_army():
    """001 l.422-424: Gebiet mit Reisfeld: 1 Einflusspunkt und 1 Kampfpunkt."""
    s = _broke(blank(players=3, edition="designer"))
    s = holds(s, "blue", Ningxia="ricefield")
    s, _ = begin(s, "income")
    assert (s.influence[1], s.army[1]) == (11, 3)


def test_fort_gives_two_army():
    """001 l.425: Gebiet mit Festung: 2 Kampfpunkte."""
    s = _broke(blank(players=3, edition="designer"))
    s = holds(s, "blue", Ningxia="fort")
    s, _ = begin(s, "income")
    assert (s.influence[1], s.army[1]) == (10, 4)


def test_income_adds_to_the_hand():
    """001 l.413: new cards are taken in addition to the cards in hand."""
    s = hands(blank(players=3, edition="designer"), influence={"red": 5}, army={"red": 1})
    s, _ = begin(s, "income")
    assert (s.influence[0], s.army[0]) == (15, 3)


def test_palace_owners_choose_sealed_and_others_are_not_asked():
    """001 l.418-420: palace: 2 influence or 1 army by choice; only palace owners choose."""
    s = blank(players=4, edition="kosmos")
    s = holds(s, "blue", Ningxia="palace")
    s = holds(s, "yellow", Dadu="palace", Jinan="temple")
    s = holds(s, "green", Chengdu="temple")
    s, log = begin(s, "income")
    assert isinstance(s.phase, PalaceChoices)
    assert [(d.seat, d.kind, d.sealed) for d in pending(s)] == [(1, "palace", True), (3, "palace", True)]
    assert legal(s, seat(s, "red")) == ()
    assert legal(s, seat(s, "green")) == ()
    assert "income" not in kinds(log)


def test_income_without_palaces_is_paid_at_once():
    """001 l.412-425: nobody has a palace to choose for, so the cards are simply taken."""
    s = _broke(blank(players=3, edition="designer"))
    s = holds(s, "red", Ningxia="temple")
    s, log = begin(s, "income")
    assert not isinstance(s.phase, PalaceChoices)
    assert [e["seat"] for e in entries(log, "income")] == [0, 1, 2]
    assert s.influence == (13, 10, 10)


def test_palace_influence_gives_two_influence_per_palace():
    """001 l.418: Gebiet mit Palast: nach Wahl 2 Einflusspunkte."""
    s = _broke(blank(players=3, edition="designer"))
    s = holds(s, "red", Ningxia="palace", Dadu="palace")
    s, _ = begin(s, "income")
    s, log = play(s, "red", "palace influence")
    assert _income(log, 0) == (14, 2)
    assert (s.influence[0], s.army[0]) == (14, 2)


def test_palace_army_gives_one_army_per_palace():
    """001 l.418-420: ... oder 1 Kampfpunkt."""
    s = _broke(blank(players=3, edition="designer"))
    s = holds(s, "red", Ningxia="palace", Dadu="palace")
    s, _ = begin(s, "income")
    s, log = play(s, "red", "palace army")
    assert _income(log, 0) == (10, 4)
    assert (s.influence[0], s.army[0]) == (10, 4)


def test_palace_n_army_chooses_per_palace():
    """004 l.241, l.249: the choice is per building, so two palaces may give 2 influence + 1 army."""
    s = _broke(blank(players=3, edition="designer"))
    s = holds(s, "red", Ningxia="palace", Dadu="palace")
    s, _ = begin(s, "income")
    s, log = play(s, "red", "palace 1 army")
    assert _income(log, 0) == (12, 3)


def test_palace_choice_for_more_palaces_than_held_is_refused():
    """001 l.418: one choice per palace owned; 3 army palaces with 2 palaces is not a choice."""
    s = blank(players=3, edition="designer")
    s = holds(s, "red", Ningxia="palace", Dadu="palace")
    s, _ = begin(s, "income")
    with pytest.raises(IllegalCommand):
        play(s, "red", "palace 3 army")
    assert isinstance(s.phase, PalaceChoices)


def test_palace_choices_are_paid_only_when_all_are_in():
    """001 l.418-420 with D9: the choices are sealed and taken together."""
    s = _broke(blank(players=3, edition="designer"))
    s = holds(s, "red", Ningxia="palace")
    s = holds(s, "blue", Dadu="palace")
    s, _ = begin(s, "income")
    s, log = play(s, "red", "palace army")
    assert "income" not in kinds(log)
    sealed = [e for e in log if e.kind == "sealed"]
    assert [e.private_to for e in sealed] == [0]
    assert [d.seat for d in pending(s)] == [1]
    s, log = play(s, "blue", "palace influence")
    assert _income(log, 0) == (10, 3)
    assert _income(log, 1) == (12, 2)


def test_income_counts_every_building():
    """001 l.412-425: 10+2, plus palace, temple, ricefield and fort, each per building."""
    s = _broke(blank(players=3, edition="designer"))
    s = holds(s, "red", Ningxia="palace", Dadu="temple", Jinan="ricefield", Chengdu="fort", Kunming="village")
    s, _ = begin(s, "income")
    s, log = play(s, "red", "palace army")
    assert _income(log, 0) == (10 + 3 + 1, 2 + 1 + 1 + 2)


# --- kosmos phase 6: new areas --------------------------------------------------------------


def _year_end(players: int = 3, emperor: str = "blue") -> State:
    """Kosmos, year 2, after income: red holds Ningxia, a neutral tile lies on Hangzhou."""
    s = blank(players=players, edition="kosmos", emperor=emperor)
    s = holds(s, "red", Ningxia="village")
    return tiles(s, Hangzhou="fort")


def test_new_areas_begin_with_the_emperor_and_go_clockwise():
    """001 l.437: Reihum, der Kaiser beginnt, deckt jeder Spieler einen Chip auf."""
    s, _ = begin(_year_end(emperor="blue"), "new_areas")
    assert isinstance(s.phase, NewAreas)
    assert s.phase.queue == (1, 2, 0)
    assert [(d.seat, d.kind) for d in pending(s)] == [(1, "tile")]


def test_drawn_tile_is_seen_only_by_the_drawer():
    """001 l.437-438: a hidden tile is drawn and looked at by its drawer."""
    before = _year_end()
    s, log = begin(before, "new_areas")
    drew = [e for e in log if e.kind == "drew"]
    assert len(drew) == 1
    assert drew[0].private_to == 1
    assert drew[0].data == {"seat": 1, "building": s.phase.drawn}
    kind = s.phase.drawn
    assert s.bag[kind - 1] == before.bag[kind - 1] - 1
    assert sum(s.bag) == sum(before.bag) - 1


def test_tile_goes_face_up_next_to_an_owned_area():
    """001 l.438-441: placed face up next to an area holding a tile owned by a player."""
    s, _ = begin(_year_end(), "new_areas")
    drawn = s.phase.drawn
    s, log = play(s, "blue", "tile Shangdu")
    assert s.building[area("Shangdu")] == drawn
    assert s.owner[area("Shangdu")] == NEUTRAL
    placed = [e for e in log if e.kind == "tile"]
    assert placed[0].private_to is None
    assert placed[0].data == {"seat": 1, "area": area("Shangdu"), "building": drawn}
    assert isinstance(s.phase, NewAreas)
    assert s.phase.queue == (2, 0)


def test_tile_goes_next_to_a_neutral_tile():
    """001 l.440-441: adjacent to an area with a tile, egal ob neutral oder im Besitz."""
    s, _ = begin(_year_end(), "new_areas")
    s, log = play(s, "blue", "tile Haizhou")  # next to neutral Hangzhou only
    assert s.building[area("Haizhou")] != 0
    assert [e["area"] for e in entries(log, "tile")] == [area("Haizhou")]


def test_tile_not_next_to_a_tile_is_refused():
    """001 l.439-440: nur Gebiete, die an ein Gebiet mit Gebäudechip angrenzen."""
    s, _ = begin(_year_end(), "new_areas")
    with pytest.raises(IllegalCommand, match="next to an area"):
        play(s, "blue", "tile Jinan")
    assert Tile(area("Jinan")) not in legal(s, 1)


def test_tile_on_an_area_holding_a_tile_is_refused():
    """004 l.253: the tile goes on an empty area (province libre)."""
    s, _ = begin(_year_end(), "new_areas")
    for name in ("Ningxia", "Hangzhou"):
        with pytest.raises(IllegalCommand):
            play(s, "blue", f"tile {name}")


def test_tile_on_a_brown_area_needs_six_players():
    """001 l.84-85, l.94-95: with fewer than 6 players only the light areas are used."""
    s, _ = begin(_year_end(players=3), "new_areas")
    with pytest.raises(IllegalCommand):
        play(s, "blue", "tile Zhangye")  # brown, next to Ningxia
    s6, _ = begin(_year_end(players=6), "new_areas")
    assert Tile(area("Zhangye")) in legal(s6, 1)


def test_only_the_drawer_places():
    """001 l.443-444: one tile at a time, in turn."""
    s, _ = begin(_year_end(), "new_areas")
    with pytest.raises(IllegalCommand):
        play(s, "green", "tile Shangdu")


def test_each_temple_gives_one_more_draw_in_further_rounds():
    """001 l.442-444: Für jeden Tempel einen weiteren Chip, wieder reihum, einer auf einmal."""
    s = _year_end(emperor="blue")
    s = holds(s, "red", Chengdu="temple", Kunming="temple")
    s = holds(s, "green", Jinan="temple")
    s, log = begin(s, "new_areas")
    assert s.phase.queue == (1, 2, 0, 2, 0, 0)
    drawers = [e["seat"] for e in entries(log, "drew")]
    while isinstance(s.phase, NewAreas):
        who = s.phase.queue[0]
        s, log = apply(s, who, legal(s, who)[0])
        drawers += [e["seat"] for e in entries(log, "drew")]
    assert drawers == [1, 2, 0, 2, 0, 0]
    assert isinstance(s.phase, Placement)
    assert s.year == 3


def test_new_areas_stop_when_the_bag_is_empty():
    """tiles.py docstring: the phase stops early when the bag is used up (001 l.437-438)."""
    s = replace(_year_end(emperor="red"), bag=(0, 0, 0, 2, 0))
    s, _ = begin(s, "new_areas")
    s, _ = play(s, "red", "tile Shangdu")
    s, log3 = play(s, "blue", "tile Haizhou")
    assert kinds(log3).count("drew") == 0
    assert sum(s.bag) == 0
    assert s.year == 3 and isinstance(s.phase, Placement)
    assert s.building[area("Shangdu")] == s.building[area("Haizhou")] == Building.FORT


def test_new_areas_stop_when_no_empty_area_is_left():
    """tiles.py docstring: the phase stops early when the board is full (001 l.439-441)."""
    s = blank(players=3, edition="kosmos", emperor="red")
    spare = area("Jinan")
    building = tuple(
        int(Building.VILLAGE) if a in s.in_play() and a != spare else 0 for a in range(BOARD.size)
    )
    s = replace(s, building=building)
    s, log = begin(s, "new_areas")  # red's only choice, Jinan, is played for him (forced)
    assert [e["seat"] for e in entries(log, "drew")] == [0]
    assert [e["area"] for e in entries(log, "tile")] == [spare]
    assert s.year == 3 and isinstance(s.phase, Placement)


def test_new_areas_draw_nothing_on_a_full_board():
    """tiles.py docstring: no empty area in play, so no tile is drawn at all."""
    s = blank(players=3, edition="kosmos", emperor="red")
    building = tuple(int(Building.VILLAGE) if a in s.in_play() else 0 for a in range(BOARD.size))
    bag = s.bag
    s, log = begin(replace(s, building=building), "new_areas")
    assert "drew" not in kinds(log)
    assert s.bag == bag
    assert s.year == 3


def _draws(seed: str) -> tuple[int, ...]:
    s, _ = begin(replace(_year_end(), seed=seed), "new_areas")
    drawn = []
    while isinstance(s.phase, NewAreas):
        drawn.append(s.phase.drawn)
        who = s.phase.queue[0]
        s, _ = apply(s, who, legal(s, who)[0])
    return tuple(drawn)


def test_tile_draws_are_deterministic_for_a_seed():
    """The draws come from the game's seed (rng.py): the same seed draws the same tiles."""
    first, _ = begin(_year_end(), "new_areas")
    again, _ = begin(_year_end(), "new_areas")
    assert first.to_json() == again.to_json()
    assert first.draws == _year_end().draws + 1
    assert _draws("alpha") == _draws("alpha")
    assert len({_draws(f"seed-{k}") for k in range(12)}) > 1


# --- designer: the one-time fill ------------------------------------------------------------


MOVE_CAP = 5000


def _play_defaults(s: State, until=lambda s, log: False):
    """Play deadline defaults until ``until`` holds or the game ends; return state and log."""
    full: list[LogEntry] = []
    for _ in range(MOVE_CAP):
        decisions = pending(s)
        if not decisions or until(s, full):
            break
        who = decisions[0].seat
        s, log = apply(s, who, default(s, who))
        full += log
    return s, full


def _turn_one(players: int) -> tuple[State, State, list[LogEntry]]:
    s = new_game(players, "designer", seed="fill")
    before = s
    s, log = _play_defaults(s, until=lambda s, log: "filled" in kinds(log))
    return before, s, log


@pytest.mark.parametrize(("players", "placed", "boxed"), [(3, 24, 8), (5, 24, 8), (6, 31, 0)])
def test_designer_fills_every_empty_area_after_turn_one(players, placed, boxed):
    """002 l.120-123: after turn-1 resolution the remaining tiles go one per area; unused to the box."""
    before, s, log = _turn_one(players)
    filled = entries(log, "filled")
    assert len(filled) == 1
    assert len(filled[0]["tiles"]) == placed
    assert filled[0]["boxed"] == boxed
    assert s.boxed == boxed
    assert sum(s.bag) == 0
    in_play = s.in_play()
    assert all(s.building[a] for a in in_play)
    assert not any(s.building[a] for a in range(BOARD.size) if a not in in_play)
    empty_before = {a for a in in_play if not before.building[a]}
    assert {t["area"] for t in filled[0]["tiles"]} == empty_before
    assert all(s.owner[t["area"]] == NEUTRAL for t in filled[0]["tiles"])
    for kind in Building:
        used = sum(1 for t in filled[0]["tiles"] if t["building"] == kind)
        assert used <= before.bag[kind - 1]


def test_designer_fill_comes_after_resolution_and_before_the_emperors_vp():
    """002 l.120: 'After control has been resolved in the 1st turn', then 3. EMPEROR'S VICTORY POINT."""
    _, s, log = _turn_one(3)
    k = kinds(log)
    assert k.index("filled") < k.index("emperor_vp")
    assert s.year == 1


def test_designer_fill_happens_once_and_there_is_no_phase_six():
    """002 l.52-58, l.120-123: five steps a turn; the fill happens only after turn 1."""
    s, log = _play_defaults(new_game(3, "designer", seed="fill"))
    assert isinstance(s.phase, Finished)
    k = kinds(log)
    assert k.count("filled") == 1
    assert "drew" not in k and "tile" not in k
    assert k.count("income") == 3 * 3  # turns 1-3 only


# --- the end --------------------------------------------------------------------------------


def _nearly_settled(edition: str = "kosmos") -> State:
    """Every in-play area held except Jinan, a neutral village with only red's marker."""
    s = blank(players=3, edition=edition, year=5, emperor="red")
    owners = {}
    for i, a in enumerate(sorted(s.in_play())):
        owners[a] = i % 3
    building = tuple(int(Building.VILLAGE) if a in owners else 0 for a in range(BOARD.size))
    owner = tuple(owners.get(a, NEUTRAL) for a in range(BOARD.size))
    s = replace(s, building=building, owner=owner)
    s = tiles(s, Jinan="village")
    return markers(s, Jinan=("red",))


def test_kosmos_ends_after_rebellion_of_the_year_the_board_is_settled():
    """001 l.449-452: all areas hold players' chips: play to phase 4 inclusive, then score."""
    s, log = begin(_nearly_settled(), "resolution")
    k = kinds(log)
    assert "final_year" in k
    assert k.index("final_year") < k.index("emperor_vp")
    assert s.vp[0] == 1
    assert s.phase.name == "rebellion_offer"
    full = list(log)
    for _ in range(2):  # blue and green, who hold villages, are asked
        who = pending(s)[0].seat
        s, log = play(s, s.config.colours[who], "decline")
        full += log
    assert isinstance(s.phase, Finished)
    k = kinds(full)
    assert "game_over" in k
    assert "income" not in k and "drew" not in k
    assert s.year == 5


def test_kosmos_year_with_a_neutral_tile_left_goes_on_to_income():
    """001 l.427-429 (RULES-DIGEST reading): while a neutral tile lies on the board, full years go on."""
    s = tiles(_nearly_settled(), Chengdu="fort")  # nobody claims it this year
    s, log = begin(s, "resolution")
    assert "final_year" not in kinds(log)
    full = list(log)
    for _ in range(2):
        who = pending(s)[0].seat
        s, log = play(s, s.config.colours[who], "decline")
        full += log
    assert "income" in kinds(full)
    assert not isinstance(s.phase, Finished)


def test_designer_ends_after_the_rebellion_of_turn_four():
    """002 l.191-193: the game ends at the end of the Rebellion of the 4th turn."""
    s = blank(players=3, edition="designer", year=4, emperor="red")
    s = holds(s, "red", Ningxia="palace")
    s = holds(s, "blue", Fuzhou="village")
    s = holds(s, "green", Chengdu="village")
    s, log = begin(s, "rebellion")
    assert s.rebel == seat(s, "blue")
    full = list(log)
    for colour, text in (
        ("red", "army 0"),
        ("blue", "army 0"),
        ("green", "side emperor"),
        ("green", "army 0"),
    ):
        s, log = play(s, colour, text)
        full += log
    assert isinstance(s.phase, Finished)
    k = kinds(full)
    assert "battle" in k and "game_over" in k
    assert "income" not in k
    assert s.year == 4


def test_designer_turn_three_goes_on_to_new_cards():
    """002 l.48: the game lasts 4 turns, so turn 3 ends with new cards and turn 4 follows."""
    s = blank(players=3, edition="designer", year=3, emperor="red")
    s = holds(s, "red", Ningxia="palace")
    s = holds(s, "blue", Fuzhou="village")
    s = holds(s, "green", Chengdu="village")
    s, log = begin(s, "rebellion")
    full = list(log)
    for colour, text in (
        ("red", "army 0"),
        ("blue", "army 0"),
        ("green", "side emperor"),
        ("green", "army 0"),
        ("red", "palace influence"),
    ):
        s, log = play(s, colour, text)
        full += log
    assert "income" in kinds(full)
    assert s.year == 4
    assert not isinstance(s.phase, Finished)


def test_palace_owner_may_choose_influence_or_army():
    """002 l.184-185: the palace choice is the only decision of phase 5."""
    s = blank(players=3, edition="designer")
    s = holds(s, "red", Ningxia="palace")
    s, _ = begin(s, "income")
    assert set(legal(s, 0)) == {PalaceChoice(0), PalaceChoice(1)}
