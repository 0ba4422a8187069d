"""No English on a German or French page or mail (issue 27), names and command syntax aside.

The English vocabulary is not a list kept by hand: it is every word of four letters or more
that the English side of the catalogue uses (the templates' and the engines' sentences and
words, ``notifications/locale``) and that no German (French) translation uses; and the words
the games themselves give (each registered game's one-word ``MESSAGES``: its tiles, seats,
directions, pieces) as the engine writes them, where the reader's catalogue says them
otherwise and no translation writes them so: "palace", or "west" in German, which writes
"West" and "nach Westen", caught where a word shared with the reader's language would hide it.  Every page a
player meets (both games running and finished, a seat, the replay, /me/, a league, its
season, the archive, the error pages) and every golden mail (tests/notifications/golden) is
read in German and in French, with the players', leagues' and seasons' names, ``<code>`` and
``<kbd>`` (commands), command lines and "(or: …)" alternatives left out; a word of that
vocabulary in what is left is English a reader should not meet.
"""

from __future__ import annotations

import re

import pytest
from django.test import Client

from tests.catalogues import LANGUAGES
from tests.english import NAMES, ROOT, english_in, english_only, game_words, the_pages

GOLDEN = ROOT / "tests" / "notifications" / "golden"
# the golden mails' league and season (tests/notifications/test_mail_text.py)
GOLDEN_NAMES = (
    *NAMES,
    "Autumn Lotus League",
    "2026 Autumn",
    "(autumn)",
    "The server moves tonight.",
    "left the league",
)
# a line of golden/<language>/subjects.txt: "<kind>.<case>: <subject>"
SUBJECT_LINE = re.compile(r"^[a-z_]+\.[a-z0-9_]+: ", re.MULTILINE)


def test_the_vocabulary_holds_the_words_a_german_or_french_reader_should_not_meet():
    for language in LANGUAGES:
        vocabulary = english_only(language)
        assert {"year", "your", "emperor", "round"} <= vocabulary, language
        assert not vocabulary & {"lotus", "chips"}  # the same in every language


def test_the_games_own_words_are_caught_where_the_readers_language_would_hide_them():
    assert {"palace", "village", "west", "north"} <= game_words("de")
    assert {"palace", "west"} <= game_words("fr") and "village" not in game_words("fr")
    assert english_in("Dein gezogenes Plättchen: palace", "de") == [
        "palace: Dein gezogenes Plättchen: palace"
    ]
    assert english_in("Nord zieht ky (Schwarz/Gelb) ein Feld west nach (7,4).", "de")
    assert not english_in(
        "Nord zieht ky (Schwarz/Gelb) ein Feld nach Westen auf (7,4). West hat geantwortet.", "de"
    )
    assert not english_in("Bleu prend le contrôle de Songpan (21) (village).", "fr")


def test_the_reading_leaves_out_names_commands_and_alternatives():
    text = (
        "<p>Ada bietet.</p><code>bid green 0</code>\n  bid green 0\n"
        "  biete grün 0 (oder: bid green 0)\nGreen wins.\nhttps://lotus.test/your/game/"
    )
    assert english_in(text, "de") == ["Green, wins: Green wins."]


UNTIL_ISSUE_27 = pytest.mark.xfail(
    strict=True, reason="issue 27: the story on the pages, generated names, editions"
)


@pytest.mark.parametrize("language", LANGUAGES)
def test_no_golden_mail_speaks_english(language):
    found = []
    for path in sorted((GOLDEN / language).glob("*.txt")):
        text = SUBJECT_LINE.sub("", path.read_text(encoding="utf-8"))
        found += [f"{path.name}: {hit}" for hit in english_in(text, language, GOLDEN_NAMES)]
    assert not found, f"{len(found)} lines of English in the {language} golden mails:\n" + "\n".join(found)


@pytest.mark.slow
@pytest.mark.django_db
@pytest.mark.parametrize("language", LANGUAGES)
def test_no_page_speaks_english(language, settings):
    settings.DEBUG = False
    client = Client(HTTP_ACCEPT_LANGUAGE=language)
    found = []
    for what, url, status in the_pages(language):
        response = client.get(url)
        assert response.status_code == status, (what, url, response.status_code)
        html = response.content.decode()
        if f'<html lang="{language}"' not in html:
            found.append(f"{what}: not marked as {language} (<html lang>)")
        found += [f"{what}: {hit}" for hit in english_in(html, language)]
    assert not found, f"{len(found)} lines of English on the {language} pages:\n" + "\n".join(found)
