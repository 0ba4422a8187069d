"""A mail tells at most ``NEWS_MOST`` lines of news: a player back after a bot or a long
vacation played their seat is told how many earlier lines are left out, not mailed the game."""

from __future__ import annotations

from django.utils import translation

from games.presentation.seatview import NEWS_MOST, recent


def test_news_up_to_the_limit_are_told_whole():
    news = [f"move {i}" for i in range(NEWS_MOST)]
    assert recent(news) == news


def test_longer_news_keep_the_last_lines_after_a_line_counting_the_rest():
    news = [f"move {i}" for i in range(NEWS_MOST + 250)]
    told = recent(news)
    assert told[1:] == news[-NEWS_MOST:]
    assert told[0].startswith("(250 earlier lines are left out") and "replay" in told[0]


def test_the_count_line_speaks_the_readers_language():
    news = [f"move {i}" for i in range(NEWS_MOST + 1)]
    with translation.override("de"):
        assert recent(news)[0].startswith("(1 frühere Zeile ist weggelassen")
    with translation.override("fr"):
        assert recent(news)[0].startswith("(1 ligne plus ancienne est omise")
