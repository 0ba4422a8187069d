"""The mails know a game only through its rules (``games.rules.registry``): a second game, here
White Lotus's engine under another name and title, with a text board and decision phrases of
its own and no mail partials, gets mails that name it, show its board and leave White Lotus's
hand out; its lines are read with its words; its picture is asked of games.presentation.picture by name."""

from __future__ import annotations

import types
from collections.abc import Iterator, Mapping
from typing import Any

import pytest

from games import jobs
from games.models import Game
from games.rules import base, registry
from games.rules import whitelotus as wl
from notifications.localmail.demo import create_demo
from notifications.models import OutboundMail
from notifications.outbound import emails, gamemail, pictures
from notifications.services import prose
from notifications.services.mailwords import MAIL_WORDS
from tests.games.factories import running_game

OTHER = "othergame"


def other_rules() -> types.ModuleType:
    module = types.ModuleType(OTHER)
    for name in wl.__all__:
        if name not in ("About", "Presentation"):  # White Lotus's engine; its words and looks are its own
            setattr(module, name, getattr(wl, name))
    setattr(module, "name", OTHER)  # noqa: B010 (a module's attributes, set as data)
    setattr(module, "title", "Other Game")  # noqa: B010

    def text_board(view: Mapping[str, Any], names: Mapping[str, str], translate: Any) -> list[str]:
        return [f"OTHER BOARD of {', '.join(sorted(names))}"]

    class About(wl.About):  # how the service presents a game: the defaults
        FIRST_SEAT_KEY = base.About.FIRST_SEAT_KEY
        FULL_PRESS_OPTIONS = base.About.FULL_PRESS_OPTIONS
        OPTION_FLAGS = base.About.OPTION_FLAGS

    class Presentation(base.Presentation):  # White Lotus's sentences, its own decision phrases
        narrate = staticmethod(wl.Presentation.narrate)
        sealed_text = staticmethod(wl.Presentation.sealed_text)

        def decision_text(self, view: Mapping[str, Any], kind: str, translate: Any = str) -> str:
            return f"decide the {kind}"

    setattr(module, "text_board", text_board)  # noqa: B010
    setattr(module, "About", About)  # noqa: B010
    setattr(module, "Presentation", Presentation)  # noqa: B010
    return module


@pytest.fixture
def other_game(monkeypatch: pytest.MonkeyPatch) -> Iterator[types.ModuleType]:
    module = other_rules()
    game = registry.Rules(OTHER, module)  # what registry.get gives: the package and the defaults
    real = registry.get

    def get(name: str) -> Any:
        return game if name == OTHER else real(name)

    monkeypatch.setitem(registry.PACKAGES, OTHER, "tests.notifications.othergame")
    monkeypatch.setattr(registry, "get", get)
    monkeypatch.setattr(gamemail, "shows_picture", lambda mail: False)
    yield module


@pytest.mark.django_db
def test_a_game_of_another_rules_is_mailed_through_its_rules(other_game: types.ModuleType) -> None:
    game = running_game(3, seed="other")
    Game.objects.filter(pk=game.pk).update(rules=OTHER)
    game.refresh_from_db()
    mail = OutboundMail.objects.filter(game=game, kind="invitation").order_by("seat").first()
    assert mail is not None
    rendered = emails.render(mail)
    assert "A game of Other Game begins. You play Red." in rendered.text
    assert "Other Game by mail, game" in rendered.text
    assert "White Lotus" not in rendered.text.replace("White Lotus by mail", "")
    assert "OTHER BOARD of blue, green, red" in rendered.text
    assert "Your hand:" not in rendered.text and "year" not in rendered.text.split("The board:")[1][:20]
    assert "decide the place" in rendered.text  # the situation, in the game's words
    assert "OTHER BOARD" in rendered.html and "Your hand:" not in rendered.html
    assert "A game of Other Game begins." in rendered.html


@pytest.mark.django_db
def test_white_lotus_mails_keep_their_board_year_and_hand() -> None:
    game = running_game(3, seed="other")
    mail = OutboundMail.objects.filter(game=game, kind="invitation").order_by("seat").first()
    assert mail is not None
    rendered = emails.render(mail)
    assert "A game of White Lotus begins" in rendered.text
    assert "The board (year 1):" in rendered.text and "Your hand:" in rendered.text


def test_the_picture_of_another_game_is_asked_for_by_name(
    other_game: types.ModuleType, monkeypatch: pytest.MonkeyPatch
) -> None:
    asked: list[Any] = []

    def board_svg(board: Any, view: Any, *, names: Any = None, **kw: Any) -> str:
        asked.append(kw)
        raise RuntimeError("stop")

    monkeypatch.setattr(pictures, "board_svg", board_svg)
    state = wl.setup(wl.Config(wl.Serial.load_board("china"), ("red", "blue", "green")), seed="7")
    with pytest.raises(RuntimeError):
        pictures.draw_of(registry.get(OTHER), state, {})
    assert [kw["rules"] for kw in asked] == [OTHER]


def test_trailing_prose_is_told_by_the_words_of_the_mail_s_game(other_game: types.ModuleType) -> None:
    words = types.SimpleNamespace(
        **{n: getattr(wl.words, n) for n in dir(wl.words) if not n.startswith("__")}
    )
    words.keyword = lambda word: "place" if wl.words.key(word) == "zug" else wl.words.keyword(word)
    setattr(other_game, "Notation", type("Notation", (wl.Notation,), {"words": words}))  # noqa: B010
    lines = ["place Hubei", "zug Hubei", "Dora"]
    rules = registry.Rules(OTHER, other_game)
    assert prose.split_trailing_prose(lines, MAIL_WORDS, ["Hubei"], rules) == (lines[:2], ["Dora"])
    # the default game does not know "zug": the line is the start of the prose
    assert prose.split_trailing_prose(lines, MAIL_WORDS, ["Hubei"]) == (lines[:1], lines[1:])


@pytest.mark.django_db
def test_the_demo_names_the_game_and_its_player_counts() -> None:
    with pytest.raises(jobs.JobError, match="no game called 'nosuch'"):
        create_demo(rules="nosuch")
    with pytest.raises(jobs.JobError, match="White Lotus is for 3 to 6 players"):
        create_demo(players=2)
    with pytest.raises(jobs.JobError, match="editions kosmos, designer"):
        create_demo(edition="deluxe")
