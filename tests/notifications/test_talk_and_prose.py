"""Table talk beside prose (issue 29): a line that starts with a talk word but lacks the talk
shape is prose after the commands, and whom talk is for may be said as people say it."""

from __future__ import annotations

import pytest
from django.core import mail as django_mail

from games import services
from games.models import Game, Player, Press
from games.rules import whitelotus as wl
from notifications.inbound.press import addressed, split, talk_like
from notifications.models import InboundMail
from notifications.services import tokens
from tests.games.factories import running_game, whose_turn
from tests.notifications.helpers import compose, deliver_pending, receive, sent_to

# the lines of the issue, as players wrote them below a move
PROSE_AFTER_A_MOVE = [
    "Say hi to Bao from me.\nAda",
    "Say: are we playing fast today?",
    "Dis donc, on joue vite !",
    "Sag mal, wann geht es weiter?",
    "Sag mal: wer ist dran?",
]


def started(n: int = 4) -> Game:
    game = running_game(n, seed="press", options={"negotiation": True})
    deliver_pending()
    django_mail.outbox.clear()
    return game


def write(game: Game, seat: int, body: str) -> InboundMail:
    holder = game.seats.get(position=seat)
    return receive(compose(tokens.reply_address(holder), holder.player.email, body))


def a_legal_command(game: Game, seat: int) -> str:
    state = services.head_state(game)
    return wl.Notation.format_command(state, wl.legal(state, seat)[0])


def seat_words(word: str) -> bool:
    return word.lower() in {"all", "alle", "allen", "tous", "blue", "green", "blau", "grün", "bleu", "vert"}


@pytest.mark.parametrize("prose", PROSE_AFTER_A_MOVE)
def test_a_line_with_a_talk_word_but_no_talk_shape_is_a_plain_line(prose):
    lines, said = split(f"place Ningxia\n\n{prose}", lambda line: line.startswith("place"), seat_words)
    assert said == []
    assert lines == ["place Ningxia", *prose.split("\n")]
    assert talk_like(prose)


@pytest.mark.parametrize(
    ("whom", "words"),
    [
        ("to all", ("all",)),
        ("an alle", ("alle",)),
        ("à tous ", ("tous",)),
        ("to blue and green", ("blue", "green")),
        ("everyone", ("all",)),
        ("à tout le monde ", ("tous",)),
        ("an Blau und Grün", ("Blau", "Grün")),
        ("aux autres ", ("tous",)),
    ],
)
def test_natural_addressing_names_the_addressees(whom, words):
    assert addressed(whom) == words


def test_prose_that_only_contains_a_talk_word_later_is_not_talk_like():
    assert not talk_like("I say: thanks")
    assert not talk_like("Saying goodbye")


@pytest.mark.django_db
@pytest.mark.parametrize("prose", PROSE_AFTER_A_MOVE)
def test_prose_starting_with_a_talk_word_after_a_move_is_ignored_and_the_move_applied(prose):
    game = started()
    seat = whose_turn(game)
    command = a_legal_command(game, seat)
    row = write(game, seat, f"{command}\n\n{prose}")
    assert row.status == InboundMail.Status.APPLIED, row.outcome
    assert game.events.latest("seq").command_text == command
    assert f"ignored after the commands: {prose.replace(chr(10), ' | ')}" in row.outcome
    assert not Press.objects.exists()
    deliver_pending()
    told = sent_to(game.seats.get(position=seat).player.email)[-1]
    assert "I ignored these lines after your commands" in told.body


@pytest.mark.django_db
@pytest.mark.parametrize("alone", ["Sag mal, wann geht es weiter?", "Sag mal: wer ist dran?"])
def test_a_talk_like_line_alone_is_answered_with_how_to_talk(alone):
    game = started()
    row = write(game, 0, alone)
    assert row.status == InboundMail.Status.REFUSED
    assert "Write say, whom it is for, a colon" in row.outcome
    assert "There is no seat" not in row.outcome


@pytest.mark.django_db
def test_a_talk_like_line_above_a_move_refuses_the_mail_with_how_to_talk():
    game = started()
    seat = whose_turn(game)
    before = game.events.count()
    row = write(game, seat, f"Say hi to Bao from me.\n{a_legal_command(game, seat)}")
    assert row.status == InboundMail.Status.REFUSED
    assert "Write say, whom it is for, a colon" in row.outcome
    assert game.events.count() == before


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("language", "line", "text"),
    [
        ("en", "say to all: hi", "hi"),
        ("de", "sag an alle: hallo", "hallo"),
        ("fr", "dis à tous : bonjour", "bonjour"),
        ("en", "say everyone: hi there", "hi there"),
        ("fr", "dis à tout le monde : salut", "salut"),
    ],
)
def test_talk_to_all_said_naturally_reaches_everyone(language, line, text):
    game = started()
    Player.objects.filter(seats__game=game).update(language=language)
    row = write(game, 0, line)
    assert row.status == InboundMail.Status.APPLIED, row.outcome
    press = Press.objects.get()
    assert press.to_all and press.text == text


@pytest.mark.django_db
@pytest.mark.parametrize("line", ["say to blue and green: a deal?", "sag an Blau und Grün: ein Handel?"])
def test_talk_to_seats_said_naturally_reaches_them(line):
    game = started()
    row = write(game, 0, line)
    assert row.status == InboundMail.Status.APPLIED, row.outcome
    assert Press.objects.get().to_seats == [1, 2]


# --- "Did you mean" in the reader's language ---------------------------------------------------


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("language", "line", "says", "never"),
    [
        ("en", "here", "'here' goes after a mail setting", "enchère"),
        ("de", "hier", "„hier“ gehört hinter eine Mail-Einstellung", "miser"),
        ("fr", "ici", "« ici » se met après un réglage", "Vouliez"),
        ("en", "digest", "'digest' goes after mail or picture", "Did you mean"),
    ],
)
def test_a_setting_word_alone_is_explained_in_the_readers_language(language, line, says, never):
    game = started()
    Player.objects.filter(seats__game=game).update(language=language)
    seat = whose_turn(game)
    row = write(game, seat, line)
    assert row.status == InboundMail.Status.REFUSED
    deliver_pending()
    body = " ".join(sent_to(game.seats.get(position=seat).player.email)[-1].body.split())
    assert says in body
    assert never not in body


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("language", "typed", "guess"),
    [
        ("en", "plase", "'place'"),
        ("de", "setz", "„setze“"),
        ("fr", "poze", "« pose »"),
        ("en", "setz", "'setze'"),  # one slip from a German word: the command's own language
        ("de", "bite", "„biete“"),
    ],
)
def test_did_you_mean_offers_a_word_of_the_readers_language_or_the_commands_own(language, typed, guess):
    game = started()
    Player.objects.filter(seats__game=game).update(language=language)
    seat = whose_turn(game)
    write(game, seat, f"{typed} Ningxia")
    deliver_pending()
    body = " ".join(sent_to(game.seats.get(position=seat).player.email)[-1].body.split())
    assert guess in body, body[:600]


def test_a_word_far_from_every_keyword_of_the_readers_language_gets_no_guess_of_another():
    from games.rules import registry
    from notifications.inbound.hints import guess_in

    rules = registry.get("whitelotus")
    assert guess_in("here", rules, "en") is None
    assert guess_in("hier", rules, "de") is None
    assert guess_in("plase", rules, "en") == "place"
