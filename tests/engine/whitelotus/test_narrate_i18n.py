"""The German and French narration of White Lotus (games/rules/whitelotus/locale_src/narration.*.tsv).

They are the source of the gettext catalogue; here they are checked against
:data:`narrate.MESSAGES` and used directly, as a dict, to narrate random games."""

from __future__ import annotations

import re
from pathlib import Path
from string import Formatter

import pytest

from games.rules.base import LANGUAGE_CODE, LogEntry, Message, Spelled
from games.rules.whitelotus.narrate import MESSAGES, narrate
from tests.engine.whitelotus.helpers import new_game
from tests.engine.whitelotus.randomgames import random_logs

SOURCES = Path(__file__).resolve().parents[3] / "games" / "rules" / "whitelotus" / "locale_src"
LANGUAGES = ("de", "fr")


def load(language: str) -> dict[str, str]:
    table: dict[str, str] = {}
    lines = (SOURCES / f"narration.{language}.tsv").read_text(encoding="utf-8").splitlines()
    for number, line in enumerate(lines, 1):
        english, sep, translation = line.partition("\t")
        assert sep and "\t" not in translation, f"line {number}: not english<TAB>translation"
        assert english not in table, f"line {number}: {english!r} twice"
        assert translation.strip(), f"line {number}: {english!r} has no translation"
        table[english] = translation
    return table


def placeholders(text: str) -> set[str]:
    return {name for _, name, _, _ in Formatter().parse(text) if name is not None}


@pytest.fixture(scope="module", params=LANGUAGES)
def table(request: pytest.FixtureRequest) -> dict[str, str]:
    return load(request.param)


def test_every_message_has_one_translation_with_the_same_placeholders(table):
    assert set(MESSAGES) - set(table) == set(), "missing"
    assert set(table) - set(MESSAGES) == set(), "no longer used"
    for english, translation in table.items():
        assert placeholders(translation) == placeholders(english), english


def _english_left(table: dict[str, str]) -> re.Pattern[str]:
    """The English text of every message, outside placeholders, unless the translation keeps it
    (``temple``, ``Orange``), as a pattern of whole words."""
    pieces = set()
    for english in MESSAGES:
        for literal, _, _, _ in Formatter().parse(english):
            piece = literal.strip(" .,:;()-")
            if re.search("[A-Za-z]", piece) and not any(piece in t for t in table.values()):
                pieces.add(piece)
    alternatives = "|".join(re.escape(p) for p in sorted(pieces, key=len, reverse=True))
    return re.compile(rf"(?<![^\W\d_])(?:{alternatives})(?![^\W\d_])")


def test_random_games_narrate_with_no_english_left(table):
    english = _english_left(table)
    for state, entry in random_logs():
        text = narrate(state, entry, table.__getitem__)
        assert not english.search(text), (entry.kind, text)


@pytest.mark.parametrize(
    ("language", "kind", "data", "expected"),
    [
        (
            "de",
            "claimed",
            {"seat": 0, "area": 1, "building": 3, "how": "alone"},
            "Rot nimmt Guazhou (2) (Tempel) kampflos.",
        ),
        (
            "de",
            "battle",
            {
                "sides": [1, 0, 0],
                "army": [2, 1, 0],
                "leader": 0,
                "emperor_strength": 3,
                "rebel_strength": 4,
                "winner": "rebels",
            },
            "Kampf: Kaiserseite Blau/Grün 3 gegen Rebellen Rot 4 (Armee: Rot 2, Blau 1, Grün 0). "
            "Die Rebellen gewinnen.",
        ),
        (
            "fr",
            "bids",
            {
                "area": 1,
                "bids": [{"seat": 1, "target": 2, "amount": 1}, {"seat": 2, "target": 1, "amount": 1}],
                "tied": [1, 2],
            },
            "Enchères pour Guazhou (2) : Bleu 1 contre vert; Vert 1 contre bleu; égalité entre Bleu et Vert.",
        ),
        ("fr", "sealed", {"seat": 0, "side": "emperor"}, "(Choix secret : camp empereur.)"),
        (
            "fr",
            "gift",
            {"seat": 0, "to": 2, "amount": 2, "kind": "army"},
            "Rouge donne 2 en armée à Vert.",
        ),
    ],
)
def test_sentences_read_like_this(language, kind, data, expected):
    state = new_game(3)
    assert narrate(state, LogEntry(kind, data), load(language).__getitem__) == expected


def test_a_spelled_argument_is_said_in_the_readers_notation_and_kept_as_json():
    """A default's command is told as the reader writes commands: the reader's translate
    names its language through LANGUAGE_CODE; a language without a spelling gets English."""
    message = Message("played: {command}", command=Spelled((("en", "decline"), ("de", "ablehnen"))))
    german = {LANGUAGE_CODE: "de", "played: {command}": "gespielt: {command}"}
    assert message.render(lambda text: german.get(text, text)) == "gespielt: ablehnen"
    assert message.render(lambda text: {LANGUAGE_CODE: "fr"}.get(text, text)) == "played: decline"
    assert message.render() == "played: decline"
    again = Message.from_data(message.to_data())
    assert again == message and LANGUAGE_CODE in message.templates()
