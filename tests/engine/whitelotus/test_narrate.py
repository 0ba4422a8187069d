"""The English narration of log entries, and what it hands to a translator."""

from __future__ import annotations

import re
from typing import Any

import pytest

from games.rules.base import LogEntry
from games.rules.whitelotus.constants import Building
from games.rules.whitelotus.narrate import MESSAGES, TEXTS, narrate
from games.rules.whitelotus.state import State
from tests.engine.whitelotus.helpers import new_game
from tests.engine.whitelotus.randomgames import random_logs

# One entry of every kind, as the engine writes it, and its English sentence (red, blue,
# green, yellow at seats 0-3; area 0 is Shazhou (1), area 1 Guazhou (2)).
P, T, F, R, V = (int(b) for b in (Building.PALACE, Building.TEMPLE, Building.FORT, Building.RICEFIELD, 1))
CASES: list[tuple[str, dict[str, Any], str]] = [
    ("year", {"year": 3, "emperor": 1}, "--- Year 3 (emperor: Blue) ---"),
    ("placed", {"seat": 0, "area": 0}, "Red places a marker in Shazhou (1)."),
    ("passed", {"seat": 2}, "Green passes."),
    ("no_area", {"seat": 3}, "Yellow has no area left for a marker."),
    (
        "claimed",
        {"seat": 0, "area": 1, "building": T, "how": "alone"},
        "Red takes Guazhou (2) (temple) unopposed.",
    ),
    ("claimed", {"seat": 0, "area": 1, "building": V, "how": "contest"}, "Red takes Guazhou (2) (village)."),
    (
        "contest",
        {"area": 0, "contenders": [0, 2], "chosen_by": 1},
        "Contest for Shazhou (1) between Red and Green.",
    ),
    ("sealed", {"seat": 0, "target": 2, "amount": 5}, "(You sealed: bid 5 against green.)"),
    ("sealed", {"seat": 0, "palaces_as_army": 1}, "(You sealed: 1 palace as army.)"),
    ("sealed", {"seat": 0, "side": "rebels"}, "(You sealed: side rebels.)"),
    ("sealed", {"seat": 0, "side": "emperor"}, "(You sealed: side emperor.)"),
    ("sealed", {"seat": 0, "army": 0}, "(You sealed: army 0.)"),
    ("submitted", {"seat": 1, "what": "bid"}, "Blue has sealed a choice."),
    (
        "bids",
        {
            "area": 0,
            "bids": [{"seat": 0, "target": 1, "amount": 4}, {"seat": 1, "target": 0, "amount": 2}],
            "against": {0: 2, 1: 4},
            "tied": [],
        },
        "Bids for Shazhou (1): Red 4 against blue; Blue 2 against red.",
    ),
    (
        "bids",
        {
            "area": 1,
            "bids": [{"seat": 2, "target": 3, "amount": 1}, {"seat": 3, "target": 2, "amount": 1}],
            "against": {2: 1, 3: 1},
            "tied": [2, 3],
        },
        "Bids for Guazhou (2): Green 1 against yellow; Yellow 1 against green; tie between Green and Yellow.",
    ),
    ("tie_broken", {"seat": 1, "out": 2}, "The emperor sends Green out."),
    ("out", {"seat": 3, "area": 0, "kept": 2}, "Yellow is out of Shazhou (1) and keeps 2 influence."),
    ("emperor", {"seat": 2, "previous": 0, "palaces": 2}, "Green becomes emperor with 2 palaces."),
    ("emperor_vp", {"seat": 1}, "The emperor, Blue, takes a victory point chip."),
    ("final_year", {"year": 7}, "Every area is held: this is the last year."),
    ("no_rebellion", {"reason": "declined"}, "There is no rebellion this year."),
    ("declined", {"seat": 0}, "Red declines to lead a rebellion."),
    ("rebellion", {"leader": 0, "emperor": 1}, "Red leads a rebellion against Blue."),
    (
        "sides",
        {"sides": [1, 0, 1, 0], "leader": 0},
        "Sides: Red rebels, Blue emperor, Green rebels, Yellow emperor.",
    ),
    (
        "battle",
        {
            "sides": [1, 0, 1, 0],
            "army": [2, 0, 1, 3],
            "leader": 0,
            "emperor_strength": 7,
            "rebel_strength": 5,
            "winner": "emperor",
        },
        "Battle: emperor's side Blue/Yellow 7 against rebels Red/Green 5 (army: Red 2, Blue 0, Green 1, "
        "Yellow 3). The emperor wins.",
    ),
    (
        "battle",
        {
            "sides": [1, 0, 0, 0],
            "army": [4, 0, 0, 0],
            "leader": 0,
            "emperor_strength": 2,
            "rebel_strength": 6,
            "winner": "rebels",
        },
        "Battle: emperor's side Blue/Green/Yellow 2 against rebels Red 6 (army: Red 4, Blue 0, Green 0, "
        "Yellow 0). The rebels win.",
    ),
    ("pick_order", {"seat": 1, "first": 3}, "The emperor lets Yellow pick first."),
    (
        "took",
        {"seat": 0, "area": 0, "from": 1, "building": F},
        "Red takes Shazhou (1) (fort) from Blue.",
    ),
    ("consolation", {"seat": 2}, "Green can take no area and takes a VP chip."),
    (
        "income",
        {"seat": 1, "influence": 12, "army": 3, "palaces_as_army": 0, "palaces": 1},
        "Blue receives 12 influence and 3 army.",
    ),
    ("no_draw", {"seat": 1}, "Blue draws no extra tile."),
    ("drew", {"seat": 0, "building": R}, "(You drew a ricefield.)"),
    ("tile", {"seat": 0, "area": 1, "building": P}, "Red puts a palace on Guazhou (2)."),
    ("filled", {"tiles": [4, 5, 6], "boxed": 2}, "The other tiles are placed at random on 3 areas."),
    ("gift", {"seat": 0, "to": 1, "amount": 2, "kind": "army"}, "Red gives 2 army to Blue."),
    ("gift", {"seat": 1, "to": 0, "amount": 1, "kind": "influence"}, "Blue gives 1 influence to Red."),
    ("forced", {"seat": 3, "kind": "place"}, "(Yellow had a single choice; it is played.)"),
    (
        "game_over",
        {"scores": [20, 31, 18, 9], "rank": [2, 1, 3, 4], "seed": "x"},
        "The game is over. Red 20, Blue 31, Green 18, Yellow 9.",
    ),
]


@pytest.fixture(scope="module")
def state() -> State:
    return new_game(4)


@pytest.mark.parametrize(("kind", "data", "english"), CASES)
def test_every_kind_of_entry_reads_as_this_english_sentence(state, kind, data, english):
    assert narrate(state, LogEntry(kind, data)) == english


def test_the_cases_cover_every_kind():
    assert {kind for kind, _, _ in CASES} == set(TEXTS)


def test_an_unknown_kind_is_shown_as_data():
    assert narrate(new_game(3), LogEntry("mystery", {"a": 1})) == "mystery: {'a': 1}"


def test_narrate_only_asks_to_translate_the_messages() -> None:
    allowed = set(MESSAGES)
    asked: set[str] = set()

    def translate(text: str) -> str:
        assert text in allowed, text
        asked.add(text)
        return text

    kinds = set()
    for state, entry in random_logs():
        kinds.add(entry.kind)
        assert narrate(state, entry, translate) == narrate(state, entry)
    assert kinds == set(TEXTS)
    assert {fmt for fmt, _ in TEXTS.values()} <= asked


def _masked(message: str) -> str:
    """``message`` with every letter outside its ``{placeholders}`` replaced by ``_``."""
    parts = re.split(r"(\{[a-z_]+\})", message)
    return "".join(p if i % 2 else re.sub("[A-Za-z]", "_", p) for i, p in enumerate(parts))


def test_every_english_letter_comes_from_a_message_or_a_province_name(state):
    assert len(MESSAGES) == len(set(MESSAGES))
    for kind, data, _ in CASES:
        text = narrate(state, LogEntry(kind, data), _masked)
        for name in ("Shazhou", "Guazhou"):
            text = text.replace(name, "")
        assert not re.search("[A-Za-z]", text), (kind, text)
