"""Golden games of Die Verbotene Stadt: whole games of bots (or deadline defaults) on the real
board, checked in as records with the final state they replay to and their public narration in
English, German and French; and the text board and the picture of one position.

A change to the engine, the bots, the dice, the narration or the board's drawing that alters
an old game fails here.  If the change is meant (a rule fixed, a sentence reworded),
regenerate with ``python -m tests.engine.verbotenestadt.test_golden`` and read the diff:
only what was meant may change.
"""

from __future__ import annotations

import json
import sys
from typing import Any

import pytest

from games.rules import records
from games.rules.entry import parse_record
from games.rules.verbotenestadt.narrate import narrate
from games.rules.verbotenestadt.picture import board_svg
from games.rules.verbotenestadt.selfplay import main as selfplay_main
from games.rules.verbotenestadt.selfplay import play
from games.rules.verbotenestadt.state import State
from games.rules.verbotenestadt.textboard import text_board
from games.rules.verbotenestadt.views import view
from tests.engine.selfplaying import self_play
from tests.engine.verbotenestadt.goldengames import HERE, VS, boards, replayed, translate

LANGUAGES = ("en", "de", "fr")
# name: (players, seed, options, first seat (None: the roll-off), every move a default?)
GAMES: dict[str, tuple[int, str, dict[str, Any], int | None, bool]] = {
    "3p-bots": (3, "golden-3", {}, None, False),
    "4p-partners": (4, "golden-4", {"partners": True}, 1, False),
    "3p-defaults": (3, "golden-d", {}, 2, True),
    "2p-many-turns": (2, "golden-2", {"many_turns": True}, None, False),
}
# whose narration is pinned too (a game of defaults is long: a thousand commands)
NARRATED = ("3p-bots", "4p-partners", "2p-many-turns")
# the position the text board and the picture are pinned at: this game after this many commands
POSITION = ("3p-bots", 120)
NAMES = {"north": "Anna", "east": "Bertrand", "south": "Chiara", "west": "Dmitri"}


def _config(players: int, options: dict[str, Any], first: int | None) -> Any:
    board = VS.serial.load_board(VS.about.default_board)
    return VS.serial.make_config(board, players, "ravensburger", options, first)


def _record(name: str, moves: list[tuple[int, Any]]) -> str:
    players, seed, options, first, _ = GAMES[name]
    config = _config(players, options, first)
    record = records.Record(
        rules="verbotenestadt",
        edition="ravensburger",
        board=config.board,
        colours=tuple(config.seats),
        options=VS.serial.config_to_data(config)["options"],
        first_seat=first,
        seed=seed,
        moves=tuple(moves),
    )
    return records.format_record(record, config)


def _narration(states: list[State], logs: list[list[Any]], language: str) -> str:
    t = translate(language)
    lines = [
        narrate(after, entry, t)
        for after, log in zip(states[1:], logs, strict=True)
        for entry in log
        if entry.private_to is None and entry.kind != "submitted"
    ]
    return "\n".join(lines) + "\n"


def _position() -> State:
    name, steps = POSITION
    return replayed(name)[0][steps]


def _text_board(state: State, seat: int | None, language: str) -> str:
    return "\n".join(text_board(view(state, seat), NAMES, translate(language))) + "\n"


def _picture(state: State, seat: int | None, language: str) -> str:
    return board_svg(state.board, view(state, seat), names=NAMES, translate=translate(language)) + "\n"


@pytest.mark.parametrize("name", sorted(GAMES))
def test_golden_game_replays_to_its_recorded_final_state(name):
    _record, final = parse_record((HERE / f"{name}.txt").read_text(), boards)
    expected = json.loads((HERE / f"{name}.final.json").read_text())
    assert VS.serial.state_to_dict(final) == expected
    assert final.phase == "finished" and len(final.terrace) == 15


@pytest.mark.parametrize("name", sorted(GAMES))
def test_golden_game_is_played_again_the_same_by_its_bots_or_defaults(name):
    players, seed, options, first, defaults = GAMES[name]
    _final, moves, _ = play(_config(players, options, first), seed, use_defaults=defaults)
    assert _record(name, moves) == (HERE / f"{name}.txt").read_text()


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("name", NARRATED)
def test_golden_game_is_narrated_as_recorded(name, language):
    states, logs = replayed(name)
    assert _narration(states, logs, language) == (HERE / f"{name}.{language}.log").read_text()


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("seat", [0, None], ids=["north", "spectator"])
def test_the_text_board_of_a_golden_position_is_as_recorded(seat, language):
    who = "spectator" if seat is None else "north"
    expected = (HERE / f"position.{who}.{language}.txt").read_text()
    assert _text_board(_position(), seat, language) == expected


def test_the_text_board_and_picture_at_the_end_of_a_golden_game_show_every_dial():
    final = replayed(POSITION[0])[0][-1]
    assert _text_board(final, None, "en") == (HERE / "end.spectator.en.txt").read_text()
    assert _picture(final, None, "en") == (HERE / "end.spectator.en.svg").read_text()


@pytest.mark.parametrize("language", ["en", "de"])
def test_the_picture_of_a_golden_position_is_as_recorded(language):
    assert _picture(_position(), 0, language) == (HERE / f"position.north.{language}.svg").read_text()


# a position whose last move ended sliding west: its arrowhead points sideways
SIDEWAYS = ("3p-bots", 101)


def test_the_picture_of_a_move_that_ended_sideways_points_its_arrow_sideways():
    name, steps = SIDEWAYS
    state = replayed(name)[0][steps]
    assert _picture(state, None, "en") == (HERE / "sideways.spectator.en.svg").read_text()


def test_the_picture_at_the_end_of_a_partners_game_shows_the_partnerships():
    final = replayed("4p-partners")[0][-1]
    assert _picture(final, 0, "en") == (HERE / "end.partners.north.en.svg").read_text()


# what ``python -m games.rules.verbotenestadt.selfplay <arguments>`` prints, kept whole: the
# bots' every choice (the record) and the final scores
SELFPLAY = {
    "selfplay-3p": ["--players", "3", "--seed", "7"],
    "selfplay-4p-partners": ["--players", "4", "--seed", "golden-4", "--partners"],
    "selfplay-2p-defaults": ["--players", "2", "--seed", "golden-2", "--defaults", "--many-turns"],
}


@pytest.mark.parametrize("name", sorted(SELFPLAY))
def test_self_play_prints_the_same_game_and_scores_for_a_seed(name):
    assert self_play(selfplay_main, SELFPLAY[name]) == (HERE / f"{name}.txt").read_text()


def regenerate() -> None:
    HERE.mkdir(exist_ok=True)
    for name, arguments in SELFPLAY.items():
        (HERE / f"{name}.txt").write_text(self_play(selfplay_main, arguments))
    (HERE / "end.partners.north.en.svg").write_text(_picture(replayed("4p-partners")[0][-1], 0, "en"))
    (HERE / "sideways.spectator.en.svg").write_text(
        _picture(replayed(SIDEWAYS[0])[0][SIDEWAYS[1]], None, "en")
    )
    for name, (players, seed, options, first, defaults) in GAMES.items():
        config = _config(players, options, first)
        final, moves, _ = play(config, seed, use_defaults=defaults)
        (HERE / f"{name}.txt").write_text(_record(name, moves))
        data = VS.serial.state_to_dict(final)
        (HERE / f"{name}.final.json").write_text(json.dumps(data, indent=1, sort_keys=True) + "\n")
        print(f"{name}: {len(moves)} commands, {final.turn} turns", file=sys.stderr)
        if name not in NARRATED:
            continue
        states, logs = replayed(name)
        for language in LANGUAGES:
            (HERE / f"{name}.{language}.log").write_text(_narration(states, logs, language))
    state = _position()
    for seat, who in [(0, "north"), (None, "spectator")]:
        for language in LANGUAGES:
            (HERE / f"position.{who}.{language}.txt").write_text(_text_board(state, seat, language))
    for language in ("en", "de"):
        (HERE / f"position.north.{language}.svg").write_text(_picture(state, 0, language))
    final = replayed(POSITION[0])[0][-1]
    (HERE / "end.spectator.en.txt").write_text(_text_board(final, None, "en"))
    (HERE / "end.spectator.en.svg").write_text(_picture(final, None, "en"))


if __name__ == "__main__":
    regenerate()
