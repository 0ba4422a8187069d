"""What a German or French reader must not meet in the golden mails (tests/notifications/golden/):
English leading the examples, two names for one game, four words for a mail, English quotes."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

GOLDEN = Path(__file__).parent / "golden"


def _mails(language: str) -> dict[str, str]:
    return {p.name: p.read_text(encoding="utf-8") for p in sorted((GOLDEN / language).glob("*.txt"))}


@pytest.mark.parametrize(("language", "english_first"), [("de", "(oder"), ("fr", "(ou")])
def test_examples_and_other_commands_are_in_the_readers_words_only(language, english_first):
    for name, text in _mails(language).items():
        assert english_first not in text, name
        for english in ("bid green 0", "help (", "status (", "log ("):
            assert english not in text, (name, english)


@pytest.mark.parametrize(
    ("language", "name", "others"),
    [("de", "Der weiße Lotus", ("White Lotus",)), ("fr", "Le Lotus blanc", ("White Lotus", "Lotus Blanc"))],
)
def test_the_game_has_one_name_per_language(language, name, others):
    texts = _mails(language)
    assert any(name in text for text in texts.values())
    for file, text in texts.items():
        for other in others:
            assert other not in text, (file, other)


def test_french_calls_a_mail_courriel_and_keeps_message_for_table_talk():
    for name, text in _mails("fr").items():
        prose = re.sub(r"«\s*(mail|courrier) [^»]*»", "", text)  # the mail commands themselves
        for word in ("e-mail", " mail ", " mails ", "message"):
            assert word not in prose.replace("\u00a0", " "), (name, word)


def test_german_quotes_with_german_quotation_marks_and_says_startwert():
    for name, text in _mails("de").items():
        assert not re.search(r"'[^'\s][^']*'", text), name
        assert "Seed" not in text, name
