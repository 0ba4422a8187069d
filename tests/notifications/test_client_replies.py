"""Replies as real clients write them, each a whole raw mail in corpus/ (Outlook's HTML and text
parts with its header block in eleven European languages, Gmail's date-first, wrapped and
"via" attributions, a mail tracker's glyph, a Gmail forward with a wrapped Subject, K-9's
German attribution cut inside the address, phones' own sign-offs): read as the player's
command and nothing else, then fed through the inbound path to a running game, where the move
is applied and the player is sent no "some lines ignored" mail.

A line a reply library would take for a signature's first line never takes the commands under
it: that mail is refused whole, never applied in part.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from games import services
from games.models import Game
from games.rules import whitelotus as wl
from notifications.inbound.parsing import parse_message
from notifications.models import InboundMail
from notifications.services import tokens
from tests.games.factories import running_game, whose_turn
from tests.notifications.helpers import deliver_pending, receive, sent_to

CORPUS = Path(__file__).parent / "corpus"
# the game address every mail in the corpus is a reply to
GAME_ADDRESS = "play+q7xk2m4wz3c5vnb6yd2a4h7efg@lotus.example"

# mail -> the language of the command written in it
CLIENT_MAILS = {
    "outlook_italian.eml": "en",
    "outlook_spanish.eml": "en",
    "outlook_portuguese.eml": "en",
    "outlook_dutch.eml": "en",
    "outlook_swedish.eml": "en",
    "outlook_danish.eml": "en",
    "outlook_norwegian.eml": "en",
    "outlook_polish.eml": "en",
    "outlook_czech.eml": "en",
    "outlook_german_html.eml": "de",
    "outlook_french_html.eml": "fr",
    "gmail_date_first.eml": "en",
    "gmail_wrote_wrapped.eml": "en",
    "gmail_via_service.eml": "en",
    "gmail_tracking_glyph.eml": "en",
    "gmail_forward_wrapped_subject.eml": "en",
    "android_german_cut_address.eml": "de",
    "samsung_galaxy_signoff.eml": "en",
    "iphone6_signoff.eml": "en",
    "cell_signoff.eml": "en",
}
WRITTEN = {"en": "place Ningxia", "de": "setze Ningxia", "fr": "pose Ningxia"}


def raw(name: str) -> bytes:
    return (CORPUS / name).read_bytes()


@pytest.mark.parametrize("name", sorted(CLIENT_MAILS))
def test_a_real_clients_reply_reads_as_the_command_alone(name):
    parsed = parse_message(raw(name))
    assert parsed.lines == (WRITTEN[CLIENT_MAILS[name]],)
    assert not parsed.auto_submitted
    assert GAME_ADDRESS in parsed.recipients


def test_a_line_taken_for_a_signature_keeps_the_commands_under_it():
    parsed = parse_message(raw("thunderbird_signature_like_line.eml"))
    assert parsed.lines == ("place Ningxia", "Thanks, and one more:", "bid red 3")


# --- through the inbound path ---------------------------------------------------------------------


def started() -> Game:
    game = running_game(3, edition="kosmos", seed="mail")
    deliver_pending()
    return game


def as_reply_of(name: str, game: Game, seat: int, language: str) -> tuple[bytes, str]:
    """The corpus mail as this seat's player sends it to their game address, with a legal
    command of theirs (in the mail's language) where the mail has its own; and that command."""
    state = services.head_state(game)
    legal = wl.legal(state, seat)[0]
    command = wl.format_command_in(state, legal, language)
    mail = raw(name)
    parsed = parse_message(mail)
    player = game.seats.get(position=seat).player
    mail = mail.replace(GAME_ADDRESS.encode(), tokens.reply_address(game.seats.get(position=seat)).encode())
    mail = mail.replace(parsed.from_address.encode(), player.email.encode())
    return mail.replace(parsed.lines[0].encode(), command.encode()), command


@pytest.mark.django_db
@pytest.mark.parametrize("name", sorted(CLIENT_MAILS))
def test_a_real_clients_reply_is_applied_and_nothing_is_said_ignored(name):
    game = started()
    seat = whose_turn(game)
    mail, command = as_reply_of(name, game, seat, CLIENT_MAILS[name])
    before = game.events.count()
    row = receive(mail)
    assert row.status == InboundMail.Status.APPLIED, row.outcome
    assert "ignored" not in row.outcome
    assert game.events.count() == before + 1
    assert game.events.latest("seq").command_text == command
    deliver_pending()
    for answer in sent_to(game.seats.get(position=seat).player.email):
        assert "I ignored" not in answer.body
        assert "some lines ignored" not in answer.subject


@pytest.mark.django_db
def test_a_command_under_a_line_taken_for_a_signature_refuses_the_mail_whole():
    """The reply library took "Thanks, and one more:" for a signature and cut the bid under it:
    the move was applied and the bid lost without a word. A mail is applied whole or not at all."""
    game = started()
    seat = whose_turn(game)
    mail, _ = as_reply_of("thunderbird_signature_like_line.eml", game, seat, "en")
    before = game.events.count()
    row = receive(mail)
    assert row.status == InboundMail.Status.REFUSED, row.outcome
    assert "'Thanks,' is not a command" in row.outcome
    assert game.events.count() == before
