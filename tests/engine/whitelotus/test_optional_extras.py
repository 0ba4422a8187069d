"""The ricefields' extra markers and the temples' extra draws are optional (issue 14), and
games created before that read as they always played.

Seed 001 (Kosmos, German): "darf ... einen weiteren Marker setzen" (l.140-142, may) and
"Für jeden Tempel dürfen ihre Besitzer einen weiteren Chip aufdecken und legen" (l.442-443,
may); seed 004 (French): "peut placer un pion supplémentaire" (may) but "place un jeton carré
de plus par temple" (shall).  Options ``ricefield_extra`` and ``temple_draw``: "may" (the
default of a new game) or "must"; a stored config that does not name them means "must".
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from games.rules import whitelotus as wl
from games.rules.base import IllegalCommand
from games.rules.whitelotus import apply, default, legal, parse_command, pending
from games.rules.whitelotus.commands import Draw, Pass, Place, Tile
from games.rules.whitelotus.record import parse_record
from games.rules.whitelotus.state import LEGACY, NewAreas, Options, Placement, State
from tests.engine.whitelotus.helpers import (
    BOARD,
    area,
    begin,
    blank,
    entries,
    holds,
    kinds,
    markers,
    play,
    seat,
    tiles,
)

GOLDEN = Path(__file__).parent / "golden"


# --- ricefields: the extra markers ------------------------------------------------------------


def _extras(rule: str = "may") -> State:
    """Year 2, blue emperor; red holds a ricefield, so red places a fourth marker after the
    three rounds.  Five neutral tiles, so the fourth has a choice of two."""
    s = blank(players=3, year=2, emperor="blue", ricefield_extra=rule)
    s = tiles(s, Yanan="village", Taiyuan="temple", Luoyang="fort", Kaifeng="village", Dadu="village")
    s = holds(s, "red", Chengdu="ricefield")
    s, _ = begin(s, "placement")
    for _round in range(3):
        for colour in ("blue", "green", "red"):
            options = [c for c in legal(s, seat(s, colour)) if isinstance(c, Place)]
            s, _ = apply(s, seat(s, colour), options[0])
    assert isinstance(s.phase, Placement) and s.phase.queue == (seat(s, "red"),)
    return s


def test_a_ricefield_extra_marker_may_be_declined():
    s = _extras()
    assert Pass() in legal(s, seat(s, "red"))
    s, log = play(s, "red", "pass")
    assert "passed" in kinds(log)
    assert not isinstance(s.phase, Placement)


def test_a_ricefield_extra_marker_may_still_be_placed():
    s = _extras()
    s, log = play(s, "red", "place Kaifeng")
    assert entries(log, "placed")[0] == {"seat": seat(s, "red"), "area": area("Kaifeng")}


def test_the_three_markers_of_a_year_may_not_be_declined():
    s = blank(players=3, year=2, emperor="blue")
    s = holds(tiles(s, Yanan="village", Taiyuan="temple"), "red", Chengdu="ricefield")
    s, _ = begin(s, "placement")
    assert Pass() not in legal(s, seat(s, "blue"))
    with pytest.raises(IllegalCommand, match="only a ricefield's extra marker may be declined"):
        play(s, "blue", "pass")


def test_with_ricefield_extra_must_the_extra_marker_is_compulsory():
    s = _extras("must")
    assert Pass() not in legal(s, seat(s, "red"))
    with pytest.raises(IllegalCommand, match="every marker must be placed"):
        play(s, "red", "pass")


def _last_area(rule: str) -> tuple[State, list[str]]:
    """Blue and green have markers everywhere (they have no area left, D3); red places its
    three markers, leaving one legal area for its ricefield's extra marker."""
    s = blank(players=3, year=2, emperor="blue", ricefield_extra=rule)
    s = tiles(s, Yanan="village", Taiyuan="village", Luoyang="village", Kaifeng="village")
    s = holds(s, "red", Chengdu="ricefield")
    s = markers(s, **{name: ("blue", "green") for name in ("Yanan", "Taiyuan", "Luoyang", "Kaifeng")})
    s, _ = begin(s, "placement")
    for name in ("Yanan", "Taiyuan"):
        s, _ = play(s, "red", f"place {name}")
    s, log = play(s, "red", "place Luoyang")
    return s, kinds(log)


def test_an_optional_extra_marker_with_one_legal_area_is_asked_not_forced():
    """A decision with one legal answer is played at once; declining is a second answer."""
    s, logged = _last_area("may")
    assert "forced" not in logged
    assert set(legal(s, seat(s, "red"))) == {Place(area("Kaifeng")), Pass()}
    s, logged = _last_area("must")
    assert "forced" in logged and not isinstance(s.phase, Placement)


def test_extra_marker_default_claims_a_free_area_or_passes():
    """defaults.py: a free area is a claim without a fight; where every legal area is
    marked, the default declines rather than start a fight."""
    s = _extras()
    red = seat(s, "red")
    command = default(s, red)
    assert isinstance(command, Place) and not s.markers[command.area]
    free = [c.area for c in legal(s, red) if isinstance(c, Place) and not s.markers[c.area]]
    s = markers(s, **{BOARD.provinces[a].name: ("blue",) for a in free})
    assert default(s, red) == Pass()


# --- temples: the extra draws -----------------------------------------------------------------


def _drawing(rule: str = "may", holder: str = "red") -> State:
    """Kosmos year 2, new areas; ``holder`` holds a temple, so is offered a second draw."""
    s = blank(players=3, edition="kosmos", emperor="blue", temple_draw=rule)
    s = holds(s, "red", Ningxia="village")
    s = holds(s, holder, Chengdu="temple")
    s = tiles(s, Hangzhou="fort")
    s, _ = begin(s, "new_areas")
    for colour in ("blue", "green", "red"):  # every player's one draw
        who = seat(s, colour)
        s, _ = apply(s, who, legal(s, who)[0])
    return s


def test_a_temple_extra_draw_is_offered_before_it_is_drawn():
    s = _drawing()
    red = seat(s, "red")
    assert isinstance(s.phase, NewAreas) and s.phase.drawn == 0
    assert [(d.seat, d.kind) for d in pending(s)] == [(red, "draw")]
    assert set(legal(s, red)) == {Draw(), Pass()}
    assert "drawn" not in wl.view(s, red)


def test_another_seat_answering_a_temples_extra_draw_is_told_whose_it_is():
    s = _drawing()
    for colour in ("blue", "green"):
        with pytest.raises(IllegalCommand, match="Nothing is yours to decide now: waiting for Red"):
            apply(s, seat(s, colour), Draw())


@pytest.mark.parametrize("holder", ["red", "blue", "green"])
def test_only_the_temples_holder_answers_its_extra_draw_whoever_sits_before_or_after(holder):
    s = _drawing(holder=holder)
    for colour in {"red", "blue", "green"} - {holder}:
        for command in (Draw(), Pass()):
            with pytest.raises(IllegalCommand, match=f"waiting for {holder.capitalize()}"):
                apply(s, seat(s, colour), command)
    s, _ = play(s, holder, "tile")
    spot = legal(s, seat(s, holder))[0]  # a square the tile may go on: only the seat is wrong
    for colour in {"red", "blue", "green"} - {holder}:
        with pytest.raises(IllegalCommand, match=f"waiting for {holder.capitalize()}"):
            apply(s, seat(s, colour), spot)


def test_a_temple_extra_draw_may_be_declined_and_draws_nothing():
    s = _drawing()
    bag, draws = sum(s.bag), s.draws
    s, log = play(s, "red", "pass")
    assert kinds(log)[0] == "no_draw" and "drew" not in kinds(log)
    assert sum(s.bag) == bag and s.draws == draws
    assert isinstance(s.phase, Placement) and s.year == 3


def test_a_temple_extra_draw_once_taken_is_placed():
    s = _drawing()
    s, log = play(s, "red", "tile")
    assert entries(log, "drew")[0]["seat"] == seat(s, "red")
    assert isinstance(s.phase, NewAreas) and s.phase.drawn
    assert all(isinstance(c, Tile) for c in legal(s, seat(s, "red")))


def test_with_temple_draw_must_the_extra_tile_is_drawn_at_once():
    s = _drawing("must")
    assert isinstance(s.phase, NewAreas) and s.phase.drawn
    assert [d.kind for d in pending(s)] == ["tile"]


def test_temple_draw_default_draws():
    """defaults.py: the absent player's extra draw is taken, as the compulsory reading does."""
    s = _drawing()
    assert default(s, seat(s, "red")) == Draw()


@pytest.mark.parametrize("line", ["tile", "TILE", "plättchen", "plaettchen", "tuile"])
def test_the_extra_draw_is_taken_by_writing_tile_in_every_language(line):
    """No keyword of its own: ``tile`` without a province, as the menu writes it."""
    s = _drawing()
    assert parse_command(s, line) == Draw()
    assert [wl.format_command_in(s, Draw(), lang) for lang in ("en", "de", "fr")] == [
        "tile",
        "plättchen",
        "tuile",
    ]
    assert wl.describe(s, seat(s, "red"), "de") == ["plättchen", "passe"]


def test_tile_without_a_province_for_a_drawn_tile_says_what_is_missing():
    s, _ = play(_drawing(), "red", "tile")
    with pytest.raises(IllegalCommand, match="'tile' needs a province"):
        play(s, "red", "tile")


def test_tile_without_a_province_in_another_phase_is_not_a_move():
    s = _extras()
    with pytest.raises(IllegalCommand, match="'tile' is not a move now"):
        play(s, "red", "tile")


# --- old games ---------------------------------------------------------------------------------


def test_a_stored_config_without_the_new_options_reads_as_the_old_rules():
    old = {"zero_card": True, "negotiation": False, "open_hands": False, "adjacency": "any"}
    options = Options.from_data(old)
    assert (options.ricefield_extra, options.temple_draw) == ("must", "must")
    cfg = wl.make_config(BOARD, 4, "kosmos", old, 0)
    assert cfg.options == options


def test_a_new_game_names_every_option_and_may_decline():
    """The service creates a game from every option (OPTIONS merged with the chosen ones)."""
    cfg = wl.make_config(BOARD, 4, "kosmos", dict(wl.About.OPTIONS), 0)
    assert (cfg.options.ricefield_extra, cfg.options.temple_draw) == ("may", "may")
    data = wl.config_to_data(cfg)
    assert data["options"]["ricefield_extra"] == "may"
    assert wl.config_from_data(data, BOARD) == cfg


def test_an_old_state_keeps_its_bytes():
    """The canonical state leaves out options at their old value, so an old game's snapshot
    and golden final state stay byte for byte the same, and read back as the old rules."""
    cfg = wl.make_config(BOARD, 3, "kosmos", {**dict(wl.About.OPTIONS), **LEGACY}, 0)
    state = wl.setup(cfg, "old")
    data = json.loads(state.to_json())
    assert set(data["config"]["options"]) == {"zero_card", "negotiation", "open_hands", "adjacency"}
    assert State.from_dict(data, BOARD).config.options == cfg.options


@pytest.mark.parametrize("name", ["kosmos-5p-seed7", "kosmos-6p-defaults"])
def test_an_old_kosmos_game_replays_to_the_same_state(name):
    """A record made before the options (its header does not name them) replays to its
    recorded final state; read with the new rules instead it would not be the same game."""
    text = (GOLDEN / f"{name}.txt").read_text()
    assert "ricefield_extra" not in text
    record, final = parse_record(text)
    assert (record.config.options.ricefield_extra, record.config.options.temple_draw) == ("must", "must")
    assert json.loads(final.to_json()) == json.loads((GOLDEN / f"{name}.final.json").read_text())
    header, _, _ = text.partition("\n\n")
    header = header.replace("adjacency=any", "adjacency=any ricefield_extra=may temple_draw=may")
    with pytest.raises(IllegalCommand):
        parse_record(text.replace(text.partition("\n\n")[0], header))
