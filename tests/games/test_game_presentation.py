"""A game's words and looks are its own, each optional (the parts of games.rules.base.Rules): a game that
gives no picture has its text board alone in mails and pages, one that gives no words of its
own is mailed in the service's generic words, and nothing asks which game it is."""

from __future__ import annotations

import types
from collections.abc import Iterator
from html import unescape

import pytest
from django.template import Context, Template
from django.urls import reverse
from django.utils import translation

from games import services
from games.models import Game
from games.presentation import gamewords, picture, words
from games.rules import base, registry
from games.templatetags import site
from notifications.models import OutboundMail
from notifications.outbound import gamefacts
from tests import secondgame
from tests.contract import sealedbids
from tests.games.factories import players
from tests.notifications.helpers import deliver_pending

BOARD_LINE = "The second game's board, 3 players"  # its text board (tests.secondgame)


@pytest.fixture
def without_picture(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The second game with no picture of its own (and none of White Lotus's words)."""
    monkeypatch.setattr(secondgame.Presentation, "PICTURE", None)
    with secondgame.installed():
        yield


def second_game() -> Game:
    game = services.create_game(players(3), rules="second", seed="plain")
    services.start_game(game)
    game.refresh_from_db()
    return game


BARE = base.Rules("sealedbids", sealedbids)  # the required names alone


def test_a_game_that_gives_none_of_the_optional_names_gets_each_default():
    assert not set(base.PARTS) & {n.lower() for n in dir(sealedbids)}
    assert dict(BARE.presentation.MAIL_WORDS) == {} and dict(BARE.about.OPTION_FLAGS) == {}
    assert BARE.about.FIRST_SEAT_KEY == "first_seat" and BARE.about.FULL_PRESS_OPTIONS == ()
    assert BARE.presentation.phase_text({"phase": "bidding"}, str.upper) == "bidding"
    asked = base.Asked(BARE, None, {"phase": "bidding"}, 0, "bid", (), "en", {}, None)
    assert BARE.presentation.mail_facts(asked, gamefacts.SAID) == {} and gamefacts.facts(asked) == {}
    assert (
        BARE.presentation.score_parts({"officials": 12, "pairs": 3, "total": 15}).render()
        == "officials 12 + pairs 3"
    )


def test_a_games_own_names_come_before_the_defaults():
    rules = registry.get(registry.DEFAULT)
    assert rules.about.FIRST_SEAT_KEY == "first_emperor" and rules.about.FULL_PRESS_OPTIONS == (
        "negotiation",
    )
    assert rules.presentation.MAIL_WORDS["begins"] and "negotiation" in rules.about.OPTION_FLAGS
    parts = {"buildings": 1, "dragons": 0, "territory": 2, "territory_size": 5, "chips": 0}
    assert rules.presentation.score_parts(parts).render() == (
        "buildings 1 + dragons 0 + largest territory 2 (5 areas) + VP chips 0"
    )


def test_a_phase_without_words_of_its_game_is_its_page_word_else_its_code():
    worded = types.ModuleType("worded")
    for name in dir(sealedbids):
        if not name.startswith("__"):
            setattr(worded, name, getattr(sealedbids, name))
    about = type("About", (base.About,), {"PAGE_WORDS": {"phase": {"bidding": "making bids"}}})
    setattr(worded, "About", about)  # noqa: B010
    game = base.Rules("worded", worded)
    assert game.presentation.phase_text({"phase": "bidding"}, str.upper) == "MAKING BIDS"
    assert game.presentation.phase_text({"phase": "finished"}, str.upper) == "finished"
    with translation.override("en"):
        said = site.phase_words({"phase": "bidding", "step": {"area": "Yanan"}}, registry.DEFAULT)
        assert said == "bidding for Yanan"


def test_a_game_without_a_picture_has_none():
    assert BARE.presentation.PICTURE is None
    assert picture.has_picture(registry.DEFAULT)


@pytest.mark.django_db
def test_its_pages_show_its_text_board_alone(client, without_picture):
    game = second_game()
    assert not picture.has_picture("second")
    page = client.get(reverse("games:game", args=[game.pk]))
    assert page.status_code == 200
    html = unescape(page.content.decode())
    assert 'class="text-board"' in html and BOARD_LINE in html and "<svg" not in html
    replay = client.get(reverse("games:replay-step", args=[game.pk, 1]))
    assert replay.status_code == 200 and BOARD_LINE in unescape(replay.content.decode())


@pytest.mark.django_db
def test_its_mails_are_sent_with_the_text_board_alone(without_picture):
    game = second_game()
    sent = [m for m in deliver_pending() if m.game_id == game.pk]
    assert len(sent) == 3 and all(m.status == OutboundMail.Status.SENT for m in sent)
    for mail in sent:
        assert BOARD_LINE in mail.text and "cid:board." not in mail.html


@pytest.mark.django_db
def test_a_game_with_no_words_of_its_own_is_mailed_in_the_services_words(without_picture):
    game = second_game()
    (mail, *_) = [m for m in deliver_pending() if m.game_id == game.pk]
    assert "A game of Second Game begins. You play" in mail.text
    assert "Every mail shows the board, what you hold" in mail.text
    assert "status (the board and what you hold)" in mail.text
    assert "Second Game by mail, game" in mail.text
    assert "White Lotus" not in mail.text.replace("White Lotus by mail", "")


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("language", "said"),
    [("en", "buildings 3 + dragons 1"), ("de", "Gebäude 3 + Drachen 1")],
)
def test_the_score_parts_are_the_games_own_words(language, said):
    parts = {"buildings": 3, "dragons": 1, "territory": 2, "territory_size": 5, "chips": 0, "total": 6}
    with translation.override(language):
        assert words.score_parts(parts, registry.get(registry.DEFAULT)).startswith(said)
        # a game that gives none: each part as its outcome names it, the total left out
        assert words.score_parts({"officials": 12, "total": 12}, BARE) == (
            f"{translation.gettext('officials')} 12"
        )


def test_an_unknown_game_is_not_named_among_the_games():
    with pytest.raises(registry.UnknownRules) as raised:
        registry.get("sealedbids")
    assert str(raised.value).count("sealedbids") == 1
    assert str(raised.value).endswith(", ".join(registry.names()))


def test_a_registered_game_without_a_picture_is_no_unknown_game(without_picture):
    with pytest.raises(LookupError) as raised:
        picture.drawer("second")
    assert not isinstance(raised.value, registry.UnknownRules)
    assert "has no picture" in str(raised.value)


@pytest.mark.parametrize(
    ("source", "said"),
    [
        (
            "{% autoescape on %}{% game_words rules 'begins' colour=colour edition=ed %}{% endautoescape %}",
            "A game of White Lotus begins (Kosmos). You play R&lt;e&gt;d.",
        ),
        (
            "{% autoescape off %}{% game_words rules 'begins' colour=colour edition=ed %}{% endautoescape %}",
            "A game of White Lotus begins (Kosmos). You play R<e>d.",
        ),
        ("[{% game_words rules 'no such phrase' %}]", "[]"),
        ("[{% game_words '' 'begins' %}]", "[]"),
    ],
)
def test_a_games_own_words_are_escaped_as_blocktranslate_escapes_its_values(source, said):
    template = Template("{% load gamewords %}" + source)
    assert template.render(Context({"rules": registry.DEFAULT, "colour": "R<e>d", "ed": "Kosmos"})) == said


def test_a_field_the_service_does_not_give_stays_as_written():
    assert gamewords.say("{colour} and {year}", {"colour": "Red"}) == "Red and {year}"
