"""The reconstructed Forbidden City (games/rules/verbotenestadt/BOARD.md) and the board's sliding
geometry: every pavilion can be reached from the start area, nothing in the start area is a trap."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from games.rules.verbotenestadt.board import DIRECTIONS, Board, BoardError, load_board

ROOT = Path(__file__).parents[3]
BOARD_FILE = ROOT / "games/rules/verbotenestadt/boards/forbidden_city.json"
COLOURS = ["red", "orange", "yellow", "white", "blue", "purple", "green", "black"]
PAVILION_SQUARES = [(0, 0), (0, 7), (0, 14), (7, 14), (14, 14), (14, 7), (14, 0), (7, 0)]


@pytest.fixture(scope="module")
def board() -> Board:
    return load_board("forbidden_city")


def test_the_file_loads_and_says_it_is_reconstructed(board: Board):
    assert board.name == "forbidden_city"
    assert board.size == 15
    assert "reconstructed" in board.reconstructed.lower()
    assert "BOARD.md" in board.reconstructed
    assert load_board(BOARD_FILE).digest == board.digest


def test_the_generator_writes_the_file_as_it_is():
    """The JSON is the data; the script that built it must still build exactly it."""
    out = subprocess.run(
        [sys.executable, "-m", "games.rules.verbotenestadt.buildboard"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert json.loads(out) == json.loads(BOARD_FILE.read_text(encoding="utf-8"))


def test_25_yellow_start_squares_and_4_grey_yellow_ones_sticking_out(board: Board):
    assert sorted(board.start) == [(r, c) for r in range(5, 10) for c in range(5, 10)]
    assert sorted(board.extra_start) == sorted([(4, 7), (7, 10), (10, 7), (7, 4)])
    assert not (set(board.start) | set(board.extra_start)) & board.blocked


def test_8_pavilions_numbered_clockwise_with_their_colours(board: Board):
    assert [p.number for p in board.pavilions] == list(range(1, 9))
    assert [p.colour for p in board.pavilions] == COLOURS
    assert [p.square for p in board.pavilions] == PAVILION_SQUARES
    assert board.pavilion(7).colour == "green"  # seed 003: "den grünen Pavillon Nr. 7"


@pytest.mark.parametrize("number", range(1, 9))
def test_every_pavilion_has_exactly_one_door_toward_the_inside(board: Board, number: int):
    square = board.pavilion(number).square
    doors = [d for d in DIRECTIONS if board.open_between(square, board.step(square, d))]
    assert len(doors) == 1
    inside = board.step(square, doors[0])
    assert inside not in board.blocked and board.pavilion_at(inside) is None


@pytest.mark.parametrize("number", range(1, 9))
def test_every_pavilion_can_be_reached_from_the_start_area(board: Board, number: int):
    """With the other pavilions as obstacles and the other officials ignored."""
    square = board.pavilion(number).square
    starts = [*board.start, *board.extra_start]
    assert square in board.reachable(starts, target=number)
    # ... and from every single start square on its own
    for start in starts:
        assert square in board.reachable([start], target=number)


@pytest.mark.parametrize("number", range(1, 9))
def test_every_pavilion_can_be_reached_when_the_officials_stand_on_the_start_squares(
    board: Board, number: int
):
    """The set-up: 25 officials on the yellow squares.  Every official on the rim of the start
    area that can slide out can still reach every pavilion, the others standing where they are."""
    officials = frozenset(board.start)
    movable = [s for s in board.start if any(board.slide(s, d, occupied=officials) for d in DIRECTIONS)]
    rim = {s for s in board.start if 5 in s or 9 in s}
    assert set(movable) <= rim
    assert {(5, 7), (7, 9), (9, 7), (7, 5)} <= set(movable)  # out through the grey-yellow squares
    square = board.pavilion(number).square
    for official in movable:
        assert square in board.reachable([official], occupied=officials, target=number)


def test_no_pavilion_is_reachable_when_it_is_not_the_target(board: Board):
    starts = [*board.start, *board.extra_start]
    reach = board.reachable(starts)
    assert not reach & {p.square for p in board.pavilions}


def test_no_start_square_is_a_trap(board: Board):
    """Alone on the board (officials ignored), every start square has a slide of at least one
    square, and its slides lead out of the start area, not round in a loop inside it."""
    inside = set(board.start) | set(board.extra_start)
    for start in inside:
        slides = [board.slide(start, d) for d in DIRECTIONS]
        assert any(slides), start
        assert board.reachable([start]) - inside, start
        assert set(board.stops(start)) - inside, start


def test_slides_stop_before_obstacles_and_enter_the_target(board: Board):
    # the gate north of the start area: up column 7 to the screen roof at (2, 7)
    assert board.slide((5, 7), "n") == ((4, 7), (3, 7))
    # along row 1 from the east: the lane stops at pavilion 2's door; then north enters it
    assert board.slide((1, 9), "w")[-1] == (1, 7)
    assert board.slide((1, 7), "n", target=2) == ((0, 7),)
    # the same pavilion when it is not the target is an obstacle
    assert board.slide((1, 7), "n", target=1) == ()
    assert board.slide((1, 7), "n") == ()
    # an official in the way stops the slide in front of it
    assert board.slide((5, 7), "n", occupied=[(3, 7)]) == ((4, 7),)
    # a 0-length slide is no slide: the edge of the board
    assert board.slide((14, 3), "s") == ()


def test_stops_are_single_moves_with_turns(board: Board):
    stops = board.stops((5, 7), occupied=board.start, target=2)
    assert stops[(3, 7)] == "n"
    assert (0, 7) in stops  # north, west along row 3 ... then into pavilion 2's lane
    assert (5, 7) not in stops


def test_a_board_file_with_a_wall_between_distant_squares_is_refused():
    data = json.loads(BOARD_FILE.read_text(encoding="utf-8"))
    data["walls"].append([[0, 0], [2, 0]])
    with pytest.raises(BoardError):
        Board.from_dict(data)


# -- the text board (textboard.py) ----------------------------------------------------------

HATS = {"r": "red", "y": "yellow", "b": "blue", "g": "green", "k": "black"}


def hand_view(*, dial: str | None = "rg", finished: bool = False) -> dict[str, Any]:
    """A mid-game view for seat 0 (north) of 3, written by hand in the format the coordinator
    fixed: 12 officials on the terrace, one slid from the start area toward pavilion 7."""
    codes = [h + r for h in HATS for r in HATS]
    terrace = codes[:12]
    free = [s for s in [(r, c) for r in range(5, 10) for c in range(5, 10)] if s != (5, 7)]
    squares: dict[str, list[int] | None] = {code: None for code in terrace}
    for code, square in zip(codes[12:], free, strict=False):
        squares[code] = list(square)
    squares["kk"] = [3, 7]
    officials = [{"code": c, "hat": HATS[c[0]], "robe": HATS[c[1]], "square": squares[c]} for c in codes]
    return {
        "game": "verbotenestadt",
        "board": "forbidden_city",
        "phase": "move",
        "finished": finished,
        "active": 1,
        "target": 7,
        "officials": officials,
        "terrace": terrace,
        "pavilions": [{"number": i + 1, "colour": c, "cards_left": 3 - i % 3} for i, c in enumerate(COLOURS)],
        "players": [
            {
                "seat": 0,
                "colour": "north",
                "cards": [
                    {"colour": "red", "piece": "hat"},
                    {"colour": "red", "piece": "trousers"},
                    {"colour": "white", "piece": "coat"},
                ],
                "score": {"total": 5},
                "partner": None,
            },
            {"seat": 1, "colour": "east", "cards": [], "score": {"total": 0}, "partner": None},
            {
                "seat": 2,
                "colour": "south",
                "cards": [{"colour": "black", "piece": "hat"}],
                "score": {"total": 1},
                "partner": None,
            },
        ],
        "dial": {"code": dial} if dial else None,
        "fate": {"moves": 2, "last": {"die": "middle", "face": "red-dragon"}},
        "last_move": {"code": "kk", "path": [[5, 7], [4, 7], [3, 7]]},
        "pending": [{"seat": 1, "colour": "east", "kind": "move"}],
    }


NAMES = {"north": "Anna", "east": "Bertrand", "south": "Chiara"}


def unwrap(lines: list[str]) -> list[str]:
    """The lines as written before wrapping: a continuation (indented 4) joins its line."""
    out: list[str] = []
    for line in lines:
        if line.startswith("    ") and line.strip() and out and out[-1].strip():
            out[-1] += " " + line.strip()
        else:
            out.append(line)
    return out


def test_the_text_board_fits_80_columns_and_draws_the_grid():
    from games.rules.verbotenestadt.textboard import text_board

    lines = text_board(hand_view(), NAMES, lambda s: s)
    text = "\n".join(unwrap(lines[30:]))
    assert max(len(line) for line in lines) <= 76
    assert lines[0].split() == [str(c) for c in range(15)]
    rows = {int(line[:2]): line for line in lines[1:30] if line[:2].strip().isdigit()}
    assert len(rows) == 15
    assert rows[0].startswith(" 0  P1|")  # pavilion 1, walled on its east
    assert "*7" in rows[14] and "P6" in rows[14]  # the target is marked, the others not
    assert rows[3][4 + 3 * 7 : 6 + 3 * 7] == "kk"  # the official the last move slid north
    assert rows[2][4 + 3 * 7 : 6 + 3 * 7] == "##"  # the screen roof before pavilion 2
    assert rows[4][4 + 3 * 7 : 6 + 3 * 7] == " :"  # the grey-yellow square it left, empty
    assert "Target: pavilion 7 (green)." in text
    assert "Terrace of banishment (12 of 15): rr ry rb rg rk yr" in text
    assert "Last move: kk 5,7 > 3,7" in text
    assert "Moves this turn: 2; last fate die: middle die, red face with the dragon." in text
    assert "North Anna: red: hat, trousers / white: coat; score 5" in text
    assert "East Bertrand: no cards; score 0" in text
    assert "To move: East Bertrand" in text


def test_the_text_board_names_partners_and_who_else_must_answer():
    from games.rules.verbotenestadt.textboard import text_board

    view = hand_view()
    view["players"].append({"seat": 3, "colour": "west", "cards": [], "score": {"total": 0}, "partner": 1})
    view["players"][1]["partner"] = 3
    view["pending"].append({"seat": 2, "colour": "south", "kind": "challenge"})
    text = "\n".join(unwrap(text_board(view, {**NAMES, "west": "Dmitri"}, lambda s: s)))
    assert "East Bertrand: no cards; score 0 (partner: West)" in text
    assert "West Dmitri: no cards; score 0 (partner: East)" in text
    assert "Waiting for: South Chiara" in text


def test_a_sealed_window_says_who_still_owes_an_answer_and_nobody_is_to_move():
    """In the dial windows and the challenge every seat answers at once: "To move: north" and
    "Waiting for" would tell a player the others wait for north."""
    from games.rules.verbotenestadt.textboard import text_board

    view = hand_view()
    view["active"] = 0
    view["pending"] = [
        {"seat": 0, "colour": "north", "kind": "rebribe", "sealed": True},
        {"seat": 2, "colour": "south", "kind": "rebribe", "sealed": True},
    ]
    text = "\n".join(unwrap(text_board(view, NAMES, lambda s: s)))
    assert "To move" not in text and "Waiting for" not in text
    assert "Still to answer (sealed, all at once): North Anna, South Chiara" in text
    view["pending"] = [{"seat": 2, "colour": "south", "kind": "challenge", "sealed": True}]
    text = "\n".join(unwrap(text_board(view, NAMES, lambda s: s)))
    assert "To move" not in text
    assert "Still to answer (sealed, all at once): South Chiara" in text


def test_the_text_board_shows_only_the_viewers_own_dial():
    from games.rules.verbotenestadt.textboard import text_board

    mine = "\n".join(text_board(hand_view(dial="gb"), NAMES, lambda s: s))
    assert "Your dial (secret): gb (green/blue)" in mine  # the colours, as the narration says
    spectator = "\n".join(text_board(hand_view(dial=None), NAMES, lambda s: s))
    assert "dial" not in spectator.lower()


def test_the_text_board_translates_every_phrase():
    """Every English phrase goes through translate: a marker translation marks them all."""
    from games.rules.verbotenestadt.textboard import text_board

    lines = text_board(hand_view(), NAMES, lambda s: "«" + s + "»")
    prose = [line for line in unwrap(lines[30:]) if line.strip()]
    assert prose and all("«" in line for line in prose), prose


@pytest.mark.parametrize("language", ["de", "fr"])
def test_the_text_board_has_every_phrase_in_german_and_french(language: str):
    from django.utils import translation

    from games.rules.verbotenestadt import textboard
    from games.rules.verbotenestadt.textboard import text_board

    phrases = [
        value
        for name, value in vars(textboard).items()
        if name.isupper() and isinstance(value, str) and name not in {"WIDTH", "HANG", "NBSP"}
    ]
    words = [
        *textboard.COLOUR_WORDS,
        *textboard.SEAT_WORDS,
        *textboard.PIECE_WORDS,
        *textboard.DIE_WORDS.values(),
        *textboard.FACE_WORDS.values(),
    ]
    po = "".join(
        (ROOT / where / f"locale/{language}/LC_MESSAGES/django.po").read_text(encoding="utf-8")
        for where in ("notifications", "games/rules/verbotenestadt")  # the shared words and its own
    )
    msgids = set(re.findall(r'^msgid "(.+)"$', po, flags=re.MULTILINE))
    assert not [p for p in [*phrases, *words] if p.replace('"', '\\"') not in msgids]
    with translation.override(language):
        lines = text_board(hand_view(), NAMES, translation.gettext)
        assert translation.gettext("north") != "north"
    assert max(len(line) for line in lines) <= 76
