"""German and French mails as a native reader reads them: the game's own words (tiles,
directions, lists) in the reader's language and grammar, rendered from real games."""

from __future__ import annotations

import random

import pytest

from games import services
from games.rules import whitelotus as wl
from notifications import emails
from tests.games.factories import running_game

from .mailkinds import seat_mail, speak

pytestmark = pytest.mark.django_db

# what a drawn tile is called, by language; never the engine's English word
TILES = {
    "de": {
        "palace": "Palast",
        "temple": "Tempel",
        "fort": "Festung",
        "ricefield": "Reisfeld",
        "village": "Dorf",
    },
    "fr": {
        "palace": "palais",
        "temple": "temple",
        "fort": "fort",
        "ricefield": "rizière",
        "village": "village",
    },
}
DREW = {"de": "Dein gezogenes Plättchen:", "fr": "La tuile que vous avez piochée\u00a0:"}


def drawing_seat(game) -> int:
    """Plays a Kosmos game at random until a seat has drawn a tile; that seat."""
    rng = random.Random(5)
    state = services.head_state(game)
    for _ in range(400):
        for seat in range(state.players):
            if wl.view(state, seat).get("drawn"):
                game.refresh_from_db()
                return seat
        decision = rng.choice(wl.pending(state))
        services.submit(game, decision.seat, rng.choice(wl.legal(state, decision.seat)))
        state = services.head_state(game)
    raise AssertionError("no tile was drawn")


@pytest.mark.parametrize("language", ["de", "fr"])
def test_the_tile_a_seat_drew_is_named_in_the_readers_language(language):
    game = running_game(4, edition="kosmos", seed="drawn-tile")
    seat = drawing_seat(game)
    drawn = wl.view(services.head_state(game), seat)["drawn"]
    speak(game.seats.get(position=seat).player, language)
    rendered = emails.render(seat_mail("decision", game, seat))
    for text in (rendered.text, rendered.html):
        assert f"{DREW[language]} {TILES[language][drawn]}" in text.replace("</strong>", "")
