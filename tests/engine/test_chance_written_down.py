"""Chance written down (issue 17): records of games played elsewhere give the outcomes of
chance instead of a seed, and the engine takes them as given while checking each is possible.

One test per rule, from small records, then random whole games of every edition: written out,
each replays without its seed to the same game and scores, and its text reads back as it was."""

from __future__ import annotations

import re
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.rules import records, registry
from games.rules.base import IllegalCommand
from games.rules.chance import Chance, ChanceError
from games.rules.entry import Reader, parse_record

WL = registry.get("whitelotus")
VS = registry.get("verbotenestadt")


def boards(rules: str, name: str) -> Any:
    return registry.get(rules).serial.load_board(name)


# The start of a three-player kosmos game played at a table: the first emperor by lot, the
# seven start tiles as they fell on the lotus areas.
HEADER = """# White Lotus game record
edition: kosmos
board: china
colours: red blue green
options: zero_card=yes negotiation=no open_hands=no adjacency=any ricefield_extra=may temple_draw=may
first_emperor: lot
"""
SETUP = """chance: first blue
chance: fill Ningxia palace
chance: fill Yanan fort
chance: fill Fengxiang temple
chance: fill Songpan ricefield
chance: fill Hanzhong village
chance: fill Chengdu village
chance: fill Chongqing village
"""


def record(body: str = "") -> str:
    return HEADER + "\n" + SETUP + body


def test_a_record_without_a_seed_takes_the_outcomes_it_gives():
    _, state = parse_record(record(), boards)
    assert state.emperor == 1
    ningxia = state.board.lookup("Ningxia")
    assert ningxia is not None and state.building[ningxia.index] == 2  # a palace
    assert state.seed == "" and state.draws == 0


def test_a_missing_outcome_is_asked_for_with_what_would_be_legal():
    text = HEADER + "\nchance: first blue\n"
    with pytest.raises(IllegalCommand) as caught:
        parse_record(text, boards)
    assert "start tiles are shuffled onto the lotus areas" in caught.value.message
    assert "chance: fill Ningxia village" in caught.value.legal


def test_the_first_move_waits_for_the_setup_to_have_its_chance():
    reader = Reader.from_header(dict(line.split(": ", 1) for line in HEADER.splitlines()[1:]), boards)
    answer = reader.feed("blue: place Ningxia", 9)
    assert not answer.ok
    assert "the setup still needs chance first" in answer.text
    assert "chance: first red" in answer.legal


def test_a_tile_can_only_be_filled_from_the_start_tiles():
    text = record().replace("Chongqing village", "Chongqing palace")
    with pytest.raises(
        IllegalCommand, match=r"line 15 \(chance: fill Chongqing palace\).*not that many palace"
    ):
        parse_record(text, boards)


def test_an_area_is_filled_once():
    text = record().replace("fill Chongqing village", "fill Chengdu village")
    with pytest.raises(IllegalCommand, match="Chengdu is filled twice"):
        parse_record(text, boards)


def test_only_lotus_areas_are_filled_at_the_start():
    text = record().replace("fill Chongqing village", "fill Dadu village")
    with pytest.raises(IllegalCommand, match="Dadu is not an area filled here"):
        parse_record(text, boards)


def test_an_outcome_where_the_game_draws_nothing_is_refused():
    text = record("blue: place Ningxia\nchance: draw village\n")
    with pytest.raises(
        IllegalCommand, match=r"line 17 \(chance: draw village\): The game draws nothing more here"
    ):
        parse_record(text, boards)


def test_outcomes_read_in_german_and_french_and_by_their_own_keyword():
    english, _ = parse_record(record(), boards)
    german = SETUP.replace("chance: first blue", "zufall: erster blau").replace(
        "chance: fill Yanan fort", "fülle: Yanan Festung"
    )
    french = SETUP.replace("chance: fill Ningxia palace", "hasard: remplis Ningxia palais")
    for body in (german, french):
        parsed, _ = parse_record(HEADER + "\n" + body, boards)
        assert parsed.chance[0] == english.chance[0]
    written = records.format_record(parse_record(HEADER + "\n" + german, boards)[0])
    assert "chance: first blue" in written and "chance: fill Yanan fort" in written


def test_with_a_seed_each_outcome_written_must_be_the_seeds():
    text = record().replace("first_emperor: lot\n", "first_emperor: lot\nseed: 7\n")
    with pytest.raises(IllegalCommand, match="This game's seed draws"):
        parse_record(text, boards)


def test_a_record_with_a_seed_and_no_outcomes_reads_as_it_always_did():
    text = HEADER.replace("first_emperor: lot\n", "first_emperor: red\nseed: 7\n") + "\nred: place Ningxia\n"
    parsed, state = parse_record(text, boards)
    assert parsed.chance == () and state.seed == "7"
    assert records.format_record(parsed) == text


def test_a_drawn_tile_must_be_in_the_bag():
    state = WL.setup(
        WL.serial.make_config(WL.serial.load_board("china"), 3, "kosmos", dict(WL.about.OPTIONS), 0), "7"
    )
    from games.rules.whitelotus.rng_draws import draw_tile
    from games.rules.whitelotus.state import evolve

    empty = evolve(state, seed="", bag=(4, 0, 3, 3, 3), given=(Chance("draw", (2,)),))
    with pytest.raises(ChanceError, match="no palace tile left in the bag"):
        draw_tile(empty)
    kind, after = draw_tile(evolve(empty, given=(Chance("draw", (3,)),)))
    assert kind == 3 and after.bag == (4, 0, 2, 3, 3) and after.given == ()


def test_a_fate_die_shows_only_its_faces():
    config = VS.serial.make_config(
        VS.serial.load_board("forbidden_city"), 3, VS.about.editions[0], dict(VS.about.OPTIONS), 0
    )
    from games.rules.verbotenestadt.dice import fate
    from games.rules.verbotenestadt.state import evolve

    state = evolve(VS.setup(config, "7"), seed="", given=(Chance("roll", ("small", "black")),))
    assert fate(state, "small")[0] == "black"
    with pytest.raises(ChanceError, match="The large fate die is rolled here"):
        fate(state, "large")


def test_the_officials_are_each_placed_once():
    config = VS.serial.make_config(
        VS.serial.load_board("forbidden_city"), 3, VS.about.editions[0], dict(VS.about.OPTIONS), 0
    )
    from games.rules.verbotenestadt.constants import OFFICIALS

    codes = list(OFFICIALS)
    with pytest.raises(ChanceError, match="Name each of the 25 officials once"):
        VS.setup(config, "", [Chance("officials", tuple([codes[0], *codes[:-1]]))])


def test_comments_stay_where_they_were_written():
    body = (
        "# The year begins\nblue: place Ningxia  # a bold opening\n\n"
        "# green answers\ngreen: place Songpan\n# the end\n"
    )
    text = record(body)
    parsed, _ = parse_record(text, boards)
    assert [n.texts for n in parsed.notes] == [["The year begins", "a bold opening"], ["green answers"]]
    assert parsed.end_notes == ("# the end",)
    assert records.format_record(parsed) == text


# -- random whole games ----------------------------------------------------------------------------


def _played(rules_name: str, edition: str, seed: str, players: int) -> tuple[records.Record, Any]:
    rules = registry.get(rules_name)
    board = rules.serial.load_board(rules.about.default_board)
    config = rules.serial.make_config(board, players, edition, dict(rules.about.OPTIONS), None)
    state = rules.setup(config, seed)
    bots = [rules.about.Bot(f"{seed}:{s}") for s in range(players)]
    moves = []
    while rules.outcome(state) is None:
        seat = rules.pending(state)[0].seat
        command = bots[seat].choose(state, seat)
        state, _ = rules.apply(state, seat, command)
        moves.append((seat, command))
    return (
        records.Record(
            rules=rules_name,
            edition=edition,
            board=board,
            colours=tuple(rules.seat_colours[:players]),
            options=rules.serial.config_to_data(config)["options"],
            first_seat=None,
            seed=seed,
            moves=tuple(moves),
        ),
        state,
    )


GAMES = st.sampled_from(
    [
        ("whitelotus", "kosmos", 3),
        ("whitelotus", "designer", 4),
        ("whitelotus", "kosmos", 6),
        ("verbotenestadt", "", 3),
    ]
)


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(game=GAMES, seed=st.text("abcdef0123456789", min_size=1, max_size=8))
def test_every_game_written_out_replays_without_its_seed(game, seed):
    name, edition, players = game
    rules = registry.get(name)
    played, final = _played(name, edition or rules.about.editions[0], seed, players)
    written = records.chance_written_out(played)
    text = records.format_record(written)
    assert "chance: " in text
    _, state = parse_record(text, boards)  # with the seed: every outcome checked against it
    assert rules.serial.state_to_dict(state) == rules.serial.state_to_dict(final)
    seedless = re.sub(r"^seed: .*\n", "", text, flags=re.M)
    alone, state = parse_record(seedless, boards)
    assert records.same_game(rules, state, final)
    assert rules.outcome(state) == rules.outcome(final)
    assert records.format_record(alone) == seedless


def test_die_verbotene_stadt_reads_its_outcomes_in_german_and_french():
    config = VS.serial.make_config(
        VS.serial.load_board("forbidden_city"), 3, VS.about.editions[0], dict(VS.about.OPTIONS), 0
    )
    state = VS.setup(config, "7")
    assert VS.chance.parse(state, "wurf groß rot-drache") == Chance("roll", ("large", "red-dragon"))
    assert VS.chance.parse(state, "lancer petit noir") == Chance("roll", ("small", "black"))
    assert VS.chance.parse(state, "stapel rot hose hut mantel") == Chance(
        "pile", ("red", "trousers", "hat", "coat")
    )
    assert VS.chance.parse(state, "premier est") == Chance("first", (1,))
    assert VS.chance.format(state, Chance("first", (1,))) == "first east"
    with pytest.raises(IllegalCommand, match="Name the pavilion the blue die shows"):
        VS.chance.parse(state, "pavilion 9")


def test_entering_a_line_answers_with_what_the_engine_made_of_it():
    reader = Reader.from_header(dict(line.split(": ", 1) for line in HEADER.splitlines()[1:]), boards)
    assert reader.feed("zufall: erster blau").text.startswith("Taken: first blue; The start tiles")
    for line in SETUP.splitlines()[1:]:
        answer = reader.feed(line)
    assert answer.text == "Taken: fill Chongqing village."
    assert reader.feed("blue: place Ningxia").text == "Blue places a marker in Ningxia (4)."


def _drawing() -> tuple[str, ...]:
    return (*(n for n in registry.names() if registry.get(n).draws_chance), "dealersdraw")


@pytest.mark.parametrize("name", dict.fromkeys(_drawing()))
def test_a_game_that_draws_written_out_replays_without_its_seed(name):
    """Every game that draws, Dealer's Draw (tests/contract/dealersdraw) among them: its record
    with each outcome written out replays without the seed to the same game."""
    from contextlib import ExitStack

    from tests.contract import dealersdraw

    with ExitStack() as stack:
        if name not in registry.PACKAGES:
            stack.enter_context(registry.register(name, dealersdraw))
        rules = registry.get(name)
        played, final = _played(name, rules.about.editions[0], "written", min(rules.player_counts))
        text = records.format_record(records.chance_written_out(played))
        assert "chance: " in text
        seedless = re.sub(r"^seed: .*\n", "", text, flags=re.M)
        _, state = parse_record(seedless, boards)
        assert records.same_game(rules, state, final)
        assert rules.outcome(state) == rules.outcome(final)


def test_a_setup_given_some_of_its_fills_asks_for_the_areas_and_tiles_still_left():
    given = "\n".join(SETUP.splitlines()[:4]) + "\n"  # first blue, then Ningxia, Yanan, Fengxiang
    with pytest.raises(IllegalCommand) as caught:
        parse_record(HEADER + "\n" + given, boards)
    message = caught.value.message
    assert "for each of 7 areas, from Songpan, Hanzhong, Chengdu, Chongqing" in message
    assert "(the tiles: village 3, ricefield 1)" in message
    assert "chance: fill Songpan village" in caught.value.legal
    assert not any("Ningxia" in line or "palace" in line for line in caught.value.legal)


def test_a_fill_with_no_building_names_the_word_cut_to_thirty_letters():
    text = record().replace("fill Chongqing village", "fill Chongqing " + "v" * 40)
    with pytest.raises(IllegalCommand, match=f"'{'v' * 30}' is not a building \\(village, palace"):
        parse_record(text, boards)
