"""Command text from the wide world (notation.py ``clean`` and ``parse_command``): bounded lines,
words and numbers, NFKC, invisible characters, look-alike letters, and designer bids written as
two cards.  Whatever the text, parsing raises nothing but IllegalCommand."""

from __future__ import annotations

import time

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.rules.base import IllegalCommand
from games.rules.whitelotus.commands import Army, Bid, Place
from games.rules.whitelotus.notation import MAX_LINE, MAX_WORD, clean, parse_command
from tests.engine.whitelotus.helpers import (
    area,
    blank,
    hands,
    holds,
    markers,
    new_game,
    resolution,
    seat,
    tiles,
)


def refusal(state, text: str) -> str:
    with pytest.raises(IllegalCommand) as caught:
        parse_command(state, text)
    return str(caught.value)


@pytest.fixture(scope="module")
def game():
    return new_game(players=3)


def test_a_line_longer_than_any_command_is_refused_by_its_length(game):
    message = refusal(game, "place " + "Xian " * 100)
    assert message == f"This line has 506 characters; a command has at most {MAX_LINE}."


def test_a_huge_word_is_answered_at_once_and_quoted_short(game):
    word = "x" * 100_000
    started = time.thread_time()  # CPU time: the bound holds on a busy machine
    message = refusal(game, word)
    assert time.thread_time() - started < 0.5  # the typo suggestion took 6 s on this
    assert len(message) < 200
    assert message.startswith("This line has 100000 characters")
    message = refusal(game, "bid red " + "q" * (MAX_WORD + 1))
    assert message == (
        f"'{'q' * 20}…' is too long for a word of a command ({MAX_WORD + 1} characters; at most {MAX_WORD})."
    )


def test_a_word_just_too_long_for_a_keyword_gets_no_costly_suggestion(game):
    message = refusal(game, "p" * MAX_WORD)
    assert "Did you mean" not in message
    assert f"'{'p' * 20}…' is not a command." in message


def test_a_number_of_thousands_of_digits_is_refused_as_a_number_too_large(game):
    message = refusal(game, "army " + "9" * 4301)  # int() raised ValueError past IllegalCommand
    assert message == f"This line has 4306 characters; a command has at most {MAX_LINE}."
    message = refusal(game, "army " + "9" * 30)
    assert message.startswith(f"'{'9' * 20}…' is too large a number")
    message = refusal(game, "army 12345678")
    assert message.startswith("'12345678' is too large a number: no one holds that many points.")
    assert parse_command(game, "army 0000007") == Army(7)  # leading zeros are no size


def test_full_width_digits_are_read_like_full_width_letters(game):
    assert clean("ｂｉｄ ｂｌｕｅ ３") == "bid blue 3"
    assert parse_command(game, "ｂｉｄ ｂｌｕｅ ３") == Bid(seat(game, "blue"), 3)
    assert parse_command(game, "ａｒｍｙ １２") == Army(12)


def test_superscript_digits_stay_refused(game):
    assert "'²' is not a number." in refusal(game, "army ²")


@pytest.mark.parametrize(
    "invisible",
    ["\u200b", "\u200c", "\u200d", "\u2060", "\ufeff", "\u00ad", "\u200e", "\u200f", "\u202e", "\u2066"],
    ids=["zwsp", "zwnj", "zwj", "word-joiner", "bom", "soft-hyphen", "lrm", "rlm", "rlo", "lri"],
)
def test_invisible_characters_are_removed(game, invisible):
    line = f"{invisible}pl{invisible}ace Ning{invisible}xia{invisible}"
    assert parse_command(game, line) == Place(area("Ningxia"))


def test_a_cyrillic_look_alike_letter_is_named(game):
    message = refusal(game, "bid blu\u0435 3")  # Cyrillic small ie
    assert message == "The 'е' in 'bluе' is a Cyrillic letter: write the word in Latin letters."


def test_a_greek_look_alike_letter_is_named(game):
    message = refusal(game, "res\u03bflve Hangzhou")  # Greek small omicron for the "o"
    assert message == "The 'ο' in 'resοlve' is a Greek letter: write the word in Latin letters."


def _designer_contest(**options):
    s = blank(players=3, edition="designer", year=2, emperor="red", **options)
    s = holds(tiles(s, Yanan="village"), "green", Jinan="village")
    s = hands(markers(s, Yanan=("blue", "green")))
    s, _ = resolution(s)
    return s


def test_designer_bid_written_as_two_cards_adds_them():
    s = _designer_contest()
    assert parse_command(s, "bid green 3 2") == Bid(seat(s, "green"), 5)
    assert parse_command(s, "bid green 0 3") == Bid(seat(s, "green"), 3)


def test_a_bid_card_that_is_no_card_is_refused_as_a_card():
    s = _designer_contest()
    assert refusal(s, "bid green 6 0").startswith(
        "'6' is not an influence card: the cards are 0, 1, 2 and 3."
    )
    message = refusal(s, "bid green 3 99999999999999")
    assert message.startswith("'99999999999999' is too large a number")
    assert "100000000000002" not in message
    assert refusal(s, "bid green 3 4").startswith("'4' is not an influence card")


def test_only_one_zero_card_and_none_without_the_zero_card():
    s = _designer_contest()
    assert refusal(s, "bid green 0 0").startswith("You have only one 0 card.")
    s = _designer_contest(zero_card=False)
    assert refusal(s, "bid green 0 3").startswith("'0' is not an influence card: the cards are 1, 2 and 3.")


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    st.text(max_size=300)
    | st.lists(
        st.sampled_from(
            ["bid", "red", "blue", "3", "0", "army", "palace", "give", "place", "Xian", "９", "\u200b"]
        )
        | st.text(max_size=8),
        max_size=6,
    ).map(" ".join)
)
def test_parse_raises_nothing_but_illegal_command(text):
    state = _PARSE_STATE
    try:
        parse_command(state, text, seat=0)
    except IllegalCommand as error:
        assert error.text.render() == str(error)


_PARSE_STATE = new_game(players=4)
