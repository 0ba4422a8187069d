"""games.rules.text: the one copy of the text mechanisms both games and the mails share."""

from __future__ import annotations

import sys
import unicodedata

from games.rules import text
from games.rules.verbotenestadt import notation as vs_notation
from games.rules.verbotenestadt import words as vs_words
from games.rules.whitelotus import notation as wl_notation
from games.rules.whitelotus import words as wl_words
from games.rules.whitelotus.textboard import decision_text


def test_the_format_characters_are_every_character_of_category_cf() -> None:
    every = [chr(c) for c in range(sys.maxunicode + 1) if unicodedata.category(chr(c)) == "Cf"]
    assert text.visible("".join(every)) == ""
    kept = "a\u00a0b é 𝔸 ² \U0001f600"
    assert text.visible("\u200b" + kept + "\U000e0041\u200e") == kept


def test_each_game_reads_a_line_as_before() -> None:
    assert wl_notation.clean("\ufeffｂｉｄ\u200b ３ ²") == "bid 3 ²"  # superscripts stay
    assert vs_notation.clean("\ufeffｍｏｖｅ  rg ²\u00ad.") == "move rg 2"


def test_both_games_compare_words_the_same_way() -> None:
    for word in ("Führe", "STRAẞE", "armée", "süd", "Weiß"):
        assert wl_words.key(word) == vs_words.key(word) == text.key(word)
    assert text.key("STRAẞE") == "strasse"


def test_closest_prefers_the_earlier_spelling_on_a_tie() -> None:
    candidates = text.spellings({"en": {"a": ("place",), "b": ("passe",)}}, ("a", "b"), ("en",))
    assert text.closest_scored("plase", candidates) == ("place", 0.8)
    assert text.closest_scored("x" * 25, candidates) is None
    assert wl_words.closest_keyword("plase") == "place"
    assert vs_words.closest_keyword("mvoe") == "move"


def test_similarity_gives_up_below_the_floor() -> None:
    assert text.similarity("abc", "xyz", 0.5) == 0.0
    assert text.similarity("abcd", "abce") == 0.75


def test_a_table_hint_writes_a_word_spelled_as_in_english_bare_only_when_asked() -> None:
    table = {"en": {"orange": ("orange",)}, "de": {"orange": ("orange",)}}
    assert text.table_hint(table, "de") == "orange = orange"
    assert text.table_hint(table, "de", bare_when_same=True) == "orange"


def test_a_decision_names_the_province_it_is_about_with_its_number_when_the_view_lists_it():
    areas = [{"name": "Yanan", "number": 10}]
    assert (
        decision_text({"step": {"area": "Yanan"}, "areas": areas}, "bid")
        == "make a sealed bid for Yanan (10)"
    )
    # an area the view does not list (no number to give) is named alone, never "(None)"
    assert decision_text({"step": {"area": "Dadu"}, "areas": areas}, "out") == "break the tie for Dadu"
    assert decision_text({"step": {}, "areas": areas}, "bid") == "make a sealed bid"
    assert decision_text(None, "bid") == "make a sealed bid"
