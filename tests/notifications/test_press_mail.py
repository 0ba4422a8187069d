"""Table talk by mail, end to end: a reply with ``say …`` lines goes through the inbound
pipeline, is stored as ``Press`` and relayed to its addressees only, in their language."""

from __future__ import annotations

import pytest
from django.core import mail as django_mail
from django.urls import reverse

from games import services
from games.models import Game, PendingDecision, Player, Press
from games.rules import whitelotus as wl
from notifications.inbound.press import Said, split
from notifications.models import InboundMail, OutboundMail
from notifications.services import tokens
from tests.games.factories import running_game, whose_turn
from tests.notifications.helpers import check_layout, compose, deliver_pending, receive, sent_to

pytestmark = pytest.mark.django_db


def started(n: int = 3, **kw) -> Game:
    game = running_game(n, seed="press", **kw)
    deliver_pending()
    django_mail.outbox.clear()
    return game


def write(game: Game, seat: int, body: str, **kw) -> InboundMail:
    holder = game.seats.get(position=seat)
    return receive(compose(tokens.reply_address(holder), holder.player.email, body, **kw))


def email_of(game: Game, seat: int) -> str:
    return game.seats.get(position=seat).player.email


def test_say_all_reaches_every_other_seat_from_the_service_with_their_own_reply_address():
    game = started(3)
    row = write(game, 0, "say all: Shall we leave Hangzhou to Blue?")
    assert row.status == InboundMail.Status.APPLIED
    deliver_pending()
    for seat in (1, 2):
        (press,) = [m for m in sent_to(email_of(game, seat)) if "Red to all" in m.subject]
        assert press.subject == f"Game {game.pk} (White Lotus): Red to all"
        assert "Red (Ada) says to all:" in press.body
        assert "Shall we leave Hangzhou to Blue?" in press.body
        assert press.reply_to == [tokens.reply_address(game.seats.get(position=seat))]
        assert email_of(game, 0) not in press.body + press.alternatives[0][0] + str(press.extra_headers)
        assert "say all: …" in press.body
    assert not [m for m in sent_to(email_of(game, 0)) if "to all" in m.subject]


def test_the_sender_gets_a_short_confirmation_of_a_mail_with_only_talk():
    game = started(3)
    write(game, 0, "say all: hello")
    deliver_pending()
    (answer,) = sent_to(email_of(game, 0))
    assert answer.subject == f"Passed on: your table talk · Game {game.pk}"
    assert "to all: hello" in answer.body


def test_private_talk_goes_to_the_addressees_only_and_names_the_others():
    game = started(4, options={"negotiation": True})
    assert game.press == Game.Press.FULL
    write(game, 0, "say blue green: a deal?\nwe two take the south\n\nThanks")
    deliver_pending()
    blue = [m for m in sent_to(email_of(game, 1)) if "Red to you" in m.subject]
    assert blue[0].subject == f"Game {game.pk} (White Lotus): Red to you and Green"
    assert "a deal?" in blue[0].body and "we two take the south" in blue[0].body
    assert "Thanks" not in blue[0].body.split("says to you and Green:")[1].split("To answer")[0]
    assert "say red: …" in blue[0].body and "say red green: …" in blue[0].body
    assert not [m for m in sent_to(email_of(game, 3)) if "Red to" in m.subject]
    assert Press.objects.get().to_seats == [1, 2]


def test_talk_beside_a_move_is_applied_with_it_and_confirmed_once():
    game = started(3)
    seat = whose_turn(game)
    state = services.head_state(game)
    command = wl.format_command(state, wl.legal(state, seat)[0])
    row = write(game, seat, f"{command}\nsay all: your turn, friends")
    assert row.status == InboundMail.Status.APPLIED
    assert game.events.filter(command_text=command).exists()
    deliver_pending()
    own = sent_to(email_of(game, seat))
    assert len([m for m in own if "to all: your turn, friends" in m.body]) == 1


def test_talk_beside_help_is_confirmed_in_the_help_answer():
    game = started(3)
    write(game, 0, "help\nsay all: hi")
    deliver_pending()
    (answer,) = sent_to(email_of(game, 0))
    assert answer.subject.startswith("Help")
    assert "Passed on:" in answer.body and "to all: hi" in answer.body


def test_a_failing_command_holds_back_the_talk_and_the_answer_says_so():
    game = started(3)
    seat = whose_turn(game)
    row = write(game, seat, "say all: watch this\nplace Atlantis")
    assert row.status == InboundMail.Status.REFUSED
    assert not Press.objects.exists()
    deliver_pending()
    (answer,) = sent_to(email_of(game, seat))
    assert "Your table talk was not passed on either" in answer.body
    assert not [m for s in range(3) if s != seat for m in sent_to(email_of(game, s))]


def test_talk_does_not_outdate_anyones_pending_reply_or_move_a_deadline():
    game = started(3)
    seat = whose_turn(game)
    prompt = OutboundMail.objects.filter(game=game, seat=seat, kind__in=("invitation", "decision")).latest(
        "seq"
    )
    deadlines = list(PendingDecision.objects.order_by("seat").values_list("deadline_at", "since_seq"))
    head = Game.objects.get(pk=game.pk).head_seq
    other = (seat + 1) % 3
    write(game, other, "say all: take your time")
    assert Game.objects.get(pk=game.pk).head_seq == head
    assert list(PendingDecision.objects.order_by("seat").values_list("deadline_at", "since_seq")) == deadlines
    state = services.head_state(game)
    command = wl.format_command(state, wl.legal(state, seat)[0])
    row = write(game, seat, command, in_reply_to=prompt.message_id)
    assert row.status == InboundMail.Status.APPLIED


@pytest.mark.parametrize(
    ("language", "body", "subject"),
    [
        ("de", "sag blau: hallo Blau", "Rot an dich"),
        ("fr", "dis bleu : salut Bleu", "Rouge à vous"),
    ],
)
def test_german_and_french_talk_is_read_and_told_in_the_readers_language(language, body, subject):
    game = started(3, options={"negotiation": True})
    Player.objects.filter(seats__game=game).update(language=language)
    assert write(game, 0, body).status == InboundMail.Status.APPLIED
    deliver_pending()
    (press,) = [m for m in sent_to(email_of(game, 1)) if subject in m.subject]
    assert body.split(":")[1].strip() in press.body
    assert {"de": "sag rot: …", "fr": "dis rouge : …"}[language] in " ".join(press.body.split())


def test_a_refused_message_is_answered_with_its_line_and_the_reason():
    game = started(3)
    row = write(game, 0, "say blue: psst")
    assert row.status == InboundMail.Status.REFUSED
    deliver_pending()
    (answer,) = sent_to(email_of(game, 0))
    assert "say blue: psst" in answer.body
    assert "Only messages to all are allowed in this game: write say all: …" in answer.body


def test_a_say_line_without_a_colon_is_refused_with_the_syntax():
    game = started(3)
    row = write(game, 0, "say all hello")
    assert row.status == InboundMail.Status.REFUSED
    assert "a colon" in row.outcome


@pytest.mark.parametrize("language", ["en", "de", "fr"])
def test_talk_mails_fit_80_columns_with_their_footer_in_every_language(language):
    game = started(4, options={"negotiation": True})
    Player.objects.filter(seats__game=game).update(language=language)
    long_line = " ".join(["negotiate"] * 40)
    write(game, 0, f"say blue green: {long_line}\nsecond line")
    deliver_pending()
    mails = sent_to(email_of(game, 0)) + sent_to(email_of(game, 1)) + sent_to(email_of(game, 2))
    assert len(mails) == 3
    for mail in mails:
        check_layout(mail.body, f"{language} {mail.subject}")


def test_die_verbotene_stadt_seats_are_named_by_their_directions_in_any_language():
    game = started(4, rules="verbotenestadt", edition="ravensburger", press="full")
    colours = dict(game.seats.values_list("position", "colour"))
    row = write(game, 0, "sag ost: hallo")
    assert row.status == InboundMail.Status.APPLIED, row.outcome
    assert Press.objects.get().to_seats == [next(p for p, c in colours.items() if c == "east")]
    deliver_pending()
    east = email_of(game, Press.objects.get().to_seats[0])
    (press,) = [m for m in sent_to(east) if "to you" in m.subject]
    assert press.subject.endswith("(Die Verbotene Stadt): North to you"), press.subject
    assert "hallo" in press.body


# --- reading a reply ------------------------------------------------------------------------------


def never(line: str) -> bool:
    return False


def starts_with_bid(line: str) -> bool:
    return line.split()[0].lower() in ("bid", "place")


def test_a_message_runs_over_following_lines_up_to_a_blank_line():
    lines, said = split("say all: one\ntwo\n\nplace Hangzhou", never)
    assert said == [Said("say all: one", ("all",), "one\ntwo")]
    assert lines == ["place Hangzhou"]


def test_a_message_ends_at_the_next_say_line_or_a_command_line():
    lines, said = split("say blue: a\nsay green, red: b\nbid 3\nafter", starts_with_bid)
    assert [(s.whom, s.text) for s in said] == [(("blue",), "a"), (("green", "red"), "b")]
    assert lines == ["bid 3", "after"]


@pytest.mark.parametrize(
    ("line", "whom"),
    [
        ("sag alle: hallo", ("alle",)),
        ("Sage blau und grün: hallo", ("blau", "grün")),
        ("dis tous : bonjour", ("tous",)),
        ("dire bleu et vert: bonjour", ("bleu", "vert")),
    ],
)
def test_german_and_french_say_lines_are_read(line, whom):
    _, (said,) = split(line, never)
    assert said.whom == whom and said.complete


def test_prose_that_merely_starts_with_a_say_word_inside_a_line_is_not_talk():
    lines, said = split("I say: thanks", never)
    assert said == [] and lines == ["I say: thanks"]


def test_talk_with_a_sign_off_after_a_blank_line_applies_the_talk_and_ignores_the_sign_off():
    game = started(3)
    row = write(game, 0, "say all: good luck\n\nCheers,\nAda")
    assert row.status == InboundMail.Status.APPLIED, row.outcome
    assert Press.objects.get().text == "good luck"


def test_a_refusal_of_talk_is_said_in_the_senders_language():
    game = started(3, options={"negotiation": True})
    Player.objects.filter(seats__game=game).update(language="de")
    assert write(game, 0, "sag lila: hallo").status == InboundMail.Status.REFUSED
    deliver_pending()
    (answer,) = sent_to(email_of(game, 0))
    assert (
        "In dieser Partie gibt es keinen Platz lila; schreib alle oder eine dieser Farben: Blau, Grün."
        in (" ".join(answer.body.split()))
    )


def test_a_private_message_by_mail_reaches_no_third_seat_in_any_mail_or_page(client):
    from games.services.links import seat_page_url

    game = started(4, options={"negotiation": True})
    secret = "the secret deal about Chengdu"
    write(game, 0, f"say blue: {secret}")
    write(game, 2, "say all: public words")
    seat = whose_turn(game)
    state = services.head_state(game)
    write(game, seat, wl.format_command(state, wl.legal(state, seat)[0]))
    deliver_pending()
    for mail in django_mail.outbox:
        text = mail.subject + mail.body + mail.alternatives[0][0]
        reader = next(s.position for s in game.seats.all() if s.player.email in mail.to)
        assert (secret in text) <= (reader in (0, 1)), (reader, mail.subject)
    for holder in game.seats.all():
        page = client.get(seat_page_url(holder)).content.decode()
        assert (secret in page) == (holder.position in (0, 1)), holder.position
        assert "public words" in page
    response = client.get(reverse("games:game", args=[game.pk]))
    assert response.status_code == 200
    public = response.content.decode()
    assert secret not in public and "public words" not in public


def test_prose_after_talk_is_told_in_the_short_confirmation_not_a_status_answer():
    game = started(3)
    write(game, 0, "say all: good luck\n\nsee you on Tuesday")
    deliver_pending()
    (answer,) = sent_to(email_of(game, 0))
    assert answer.subject.startswith("Passed on")
    assert "I ignored these lines after your commands: see you on Tuesday" in answer.body


def test_the_text_part_shows_the_message_as_written_and_the_html_part_escapes_it():
    game = started(3)
    write(game, 0, "say all: Tom & Jerry <3 'quotes'")
    deliver_pending()
    (press,) = [m for m in sent_to(email_of(game, 1)) if "Red to all" in m.subject]
    assert "Tom & Jerry <3 'quotes'" in press.body
    assert "Tom &amp; Jerry &lt;3" in press.alternatives[0][0]
