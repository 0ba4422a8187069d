"""The mail pipeline through its real functions: outbox rows written with the events, sent
through Django's mail backend, replies stored raw and applied through ``services``."""

from __future__ import annotations

import os

import pytest
from django.core import mail as django_mail

from games import services
from games.models import Event, Game, PendingDecision
from games.rules import whitelotus as wl
from notifications.models import InboundMail, MailPreference, OutboundMail, ReplyToken
from notifications.outbound import outbox
from notifications.services import tokens
from tests.games.factories import players, running_game, whose_turn
from tests.notifications.helpers import compose, deliver_pending, email_of, receive, reply_to_of, sent_to

pytestmark = pytest.mark.django_db


def started(n: int = 3, edition: str = "kosmos") -> Game:
    game = running_game(n, edition=edition, seed="mail")
    deliver_pending()
    return game


def latest_prompt(game: Game, seat: int) -> OutboundMail:
    return OutboundMail.objects.filter(game=game, seat=seat, kind__in=("invitation", "decision")).latest(
        "seq"
    )


def test_starting_a_game_invites_every_seat_with_board_hand_and_menu():
    game = started()
    assert len(django_mail.outbox) == 3
    first = sent_to("ada@example.org")[0]
    assert first.subject == f"New game: you play Red, your move · Game {game.pk}"
    assert "What you can do now:" in first.body
    assert "place <province>" in first.body
    assert "Your hand:" in first.body
    assert first.reply_to[0].startswith("play+") and first.reply_to[0].endswith("@lotus.test")
    assert first.extra_headers["Message-ID"].startswith("<wl.game")
    html = first.alternatives[0][0]
    assert "<pre" in html and "What you can do now" in html
    other = sent_to("bao@example.org")[0]
    assert "What you can do now:" not in other.body  # not Bao's turn


def test_a_reply_with_a_legal_command_is_applied_and_the_next_seat_is_asked():
    game = started()
    seat = whose_turn(game)
    state = services.head_state(game)
    command = wl.format_command(state, wl.legal(state, seat)[0])
    row = receive(compose(reply_to_of(game, seat), email_of(game, seat), f"{command}\n\n-- \nAda"))
    assert row.status == InboundMail.Status.APPLIED
    event = game.events.latest("seq")
    assert (event.kind, event.source, event.command_text) == (Event.Kind.COMMAND, "mail", command)
    assert event.inbound_message_id == row.message_id
    sent = deliver_pending()
    nxt = whose_turn(game)
    assert [m.kind for m in sent if m.seat == nxt] == ["decision"]
    mail = sent_to(email_of(game, nxt))[-1]
    assert mail.subject == f"Your move: place a control marker · Game {game.pk}"
    assert "places a marker" in mail.body  # what happened since the last mail


def test_a_mail_is_atomic_the_failing_line_is_quoted_with_what_is_legal():
    game = started()
    seat = whose_turn(game)
    before = game.events.count()
    row = receive(compose(reply_to_of(game, seat), email_of(game, seat), "place 1\nplace Atlantis"))
    assert row.status == InboundMail.Status.REFUSED
    assert game.events.count() == before
    deliver_pending()
    answer = sent_to(email_of(game, seat))[-1]
    assert answer.subject == f"Refused: You cannot place in Shazhou · Game {game.pk}"  # the first line failed
    assert "> place" in answer.body
    assert "What you can do now:" in answer.body
    assert answer.extra_headers["In-Reply-To"] == f"<{row.message_id}>"


def test_a_strangers_mail_is_stored_and_not_answered():
    game = started()
    django_mail.outbox.clear()
    row = receive(compose("play+aaaaaaaaaaaaaaaaaaaaaaaaaa@lotus.test", "eve@evil.test", "place 1"))
    assert row.status == InboundMail.Status.UNKNOWN
    assert bytes(row.raw)
    assert deliver_pending() == [] and django_mail.outbox == []
    assert game.events.count() == Game.objects.get(pk=game.pk).head_seq


def test_the_right_token_from_the_wrong_address_applies_nothing_and_tells_the_seat():
    game = started()
    seat = whose_turn(game)
    before = game.events.count()
    row = receive(compose(reply_to_of(game, seat), "eve@evil.test", "pass"))
    assert row.status == InboundMail.Status.WRONG_SENDER
    assert game.events.count() == before
    sent = deliver_pending()
    assert [m.to_email for m in sent] == [email_of(game, seat)]
    assert not sent_to("eve@evil.test")


def test_a_duplicate_delivery_is_processed_once():
    game = started()
    seat = whose_turn(game)
    state = services.head_state(game)
    raw = compose(
        reply_to_of(game, seat), email_of(game, seat), wl.format_command(state, wl.legal(state, seat)[0])
    )
    first = receive(raw)
    again = receive(raw, via=InboundMail.Via.WEBHOOK)
    assert first.pk == again.pk and InboundMail.objects.count() == 1
    assert game.events.filter(source="mail").count() == 1


def test_a_reply_to_an_outdated_prompt_is_refused_with_the_current_one():
    game = started(3)
    seat = whose_turn(game)
    old = latest_prompt(game, seat)
    for _ in range(3):  # a full round: the seat is asked again
        s = whose_turn(game)
        state = services.head_state(game)
        services.submit(game, s, wl.legal(state, s)[0])
    deliver_pending()
    assert latest_prompt(game, seat).seq > old.seq
    before = game.events.count()
    state = services.head_state(game)
    command = wl.format_command(state, wl.legal(state, seat)[0])
    row = receive(
        compose(reply_to_of(game, seat), email_of(game, seat), command, in_reply_to=f"<{old.message_id}>")
    )
    assert row.status == InboundMail.Status.REFUSED
    assert "earlier decision" in row.outcome
    assert game.events.count() == before


def answer(game, seat, mail: OutboundMail, body: str) -> InboundMail:
    """A reply as a mail client writes it: In-Reply-To the mail, References the thread."""
    raw = compose(
        reply_to_of(game, seat),
        email_of(game, seat),
        body,
        in_reply_to=f"<{mail.message_id}>",
        references=mail.references,
    )
    return receive(raw)


def test_a_reply_to_the_current_prompt_in_its_thread_is_applied():
    game = started(3)
    seat = whose_turn(game)
    for _ in range(3):
        s = whose_turn(game)
        services.submit(game, s, wl.legal(services.head_state(game), s)[0])
    deliver_pending()
    current = latest_prompt(game, seat)
    assert current.references  # the thread: the invitation, which is older
    state = services.head_state(game)
    row = answer(game, seat, current, wl.format_command(state, wl.legal(state, seat)[0]))
    assert row.status == InboundMail.Status.APPLIED, row.outcome


def test_a_reply_to_a_reminder_is_applied():
    game = started(3)
    seat = whose_turn(game)
    row = PendingDecision.objects.owed().get(game=game, seat=seat)
    reminder = outbox.write(
        game, row.since_seq, [outbox.Planned("reminder", seat, {"decision": row.kind})], tag="r1"
    )
    deliver_pending()
    state = services.head_state(game)
    mail = answer(game, seat, reminder[0], wl.format_command(state, wl.legal(state, seat)[0]))
    assert mail.status == InboundMail.Status.APPLIED, mail.outcome


def test_a_sealed_bid_is_changed_by_answering_the_confirmation():
    game = started(3)
    for seat in game.seats.all():  # the confirmations are sent to players on "mail all"
        MailPreference.objects.create(player_id=seat.player_id, mode=MailPreference.Mode.ALL)
    state = services.head_state(game)
    while not any(d.kind == "bid" for d in wl.pending(state)):
        d = wl.pending(state)[0]
        services.submit(game, d.seat, wl.default(state, d.seat))
        state = services.head_state(game)
    bidders = [d.seat for d in wl.pending(state) if d.kind == "bid"]
    seat = bidders[0]
    first, second = wl.legal(state, seat)[0], wl.legal(state, seat)[-1]
    services.submit(game, seat, first)
    deliver_pending()
    confirmation = OutboundMail.objects.filter(game=game, seat=seat, kind="sealed").latest("seq")
    assert confirmation.subject.startswith("Sealed: your bid is in · ")
    mail = answer(game, seat, confirmation, wl.format_command(state, second))
    assert mail.status == InboundMail.Status.APPLIED, mail.outcome
    assert wl.view(services.head_state(game), seat)["sealed"]["bid"]["amount"] == second.amount


def test_five_megabytes_of_garbage_are_stored_and_not_answered():
    started()
    garbage = os.urandom(5 * 1024 * 1024)
    row = receive(garbage)
    assert row.status in (InboundMail.Status.UNKNOWN, InboundMail.Status.UNREADABLE)
    assert bytes(row.raw) == garbage
    assert deliver_pending() == []


def test_a_mail_with_five_hundred_lines_is_refused_whole():
    game = started()
    seat = whose_turn(game)
    before = game.events.count()
    row = receive(compose(reply_to_of(game, seat), email_of(game, seat), "pass\n" * 500))
    assert row.status == InboundMail.Status.REFUSED
    assert "500 command lines" in row.outcome
    assert game.events.count() == before


def test_status_help_and_log_are_answered_without_a_move():
    game = started()
    seat = whose_turn(game)
    before = game.events.count()
    row = receive(compose(reply_to_of(game, seat), email_of(game, seat), "status\nhilfe\njournal"))
    assert row.status == InboundMail.Status.ANSWERED
    assert game.events.count() == before
    kinds = sorted(m.kind for m in deliver_pending())
    assert kinds == ["help", "log", "status"]


def test_status_after_a_move_in_the_same_mail_shows_the_board_after_it():
    game = started()
    seat = whose_turn(game)
    state = services.head_state(game)
    command = wl.format_command(state, wl.legal(state, seat)[0])
    receive(compose(reply_to_of(game, seat), email_of(game, seat), f"{command}\nstatus"))
    game.refresh_from_db()
    status = OutboundMail.objects.get(kind="status")
    assert status.seq == game.head_seq


def test_replacing_a_seat_rotates_its_reply_token():
    game = started()
    old = reply_to_of(game, 1)
    newcomer = players(4)[3]
    services.replace_seat(game, 1, newcomer, by=None, reason="moved away")
    assert ReplyToken.objects.filter(seat__game=game, seat__position=1, revoked_at__isnull=True).count() == 1
    assert reply_to_of(game, 1) != old
    row = receive(compose(old, "bao@example.org", "status"))
    assert row.status == InboundMail.Status.FORMER_SEAT  # told so, not applied (test_moderation_mails)
    sent = deliver_pending()
    assert {m.kind for m in sent} == {"seat_replaced", "invitation", "handed_over", "former_seat"}
    assert [m.to_email for m in sent if m.kind == "invitation"] == [newcomer.email]
    assert {m.to_email for m in sent if m.kind in ("handed_over", "former_seat")} == {"bao@example.org"}


def test_tokens_are_redacted_from_log_text():
    assert tokens.redact("to play+abcdefghijklmnopqrstuvwxyz@lotus.test") == "to play+[token]@lotus.test"


def test_mails_are_written_in_the_players_language():
    game = started()
    ada = game.seats.get(position=0).player
    ada.language = "de"
    ada.save()
    services.pause(game, by=None, reason="Urlaub")
    deliver_pending()
    german = sent_to(ada.email)[-1]
    assert "Die Spielleitung hat diese Partie angehalten" in german.body
    assert "Hallo Ada" in german.body


def test_no_log_line_carries_a_reply_token(caplog):
    import logging

    from notifications.services.redact import RedactTokens

    record = logging.LogRecord(
        "mail.log", logging.INFO, "", 0, "recip: %s", ("play+abcdefghijklmnopqrstuvwxyz@lotus.test",), None
    )
    assert RedactTokens().filter(record)
    assert record.getMessage() == "recip: play+[token]@lotus.test"


def test_no_log_line_carries_a_seat_page_key():
    import logging

    from notifications.services.redact import RedactTokens

    record = logging.LogRecord(
        "django.server",
        logging.INFO,
        "",
        0,
        '"%s" %s',
        ("GET /games/seat/abcdefghijklmnopqrstuvwxyz/ HTTP/1.1", 200),
        None,
    )
    assert RedactTokens().filter(record)
    assert record.getMessage() == '"GET /games/seat/[key]/ HTTP/1.1" 200'


def test_the_request_loggers_pass_through_the_redacting_filter():
    import logging

    import whitelotus.wsgi  # noqa: F401  (adds the filter to gunicorn's access logger)
    from notifications.services.redact import RedactTokens

    server = logging.getLogger("django.server")
    assert server.handlers and all(
        any(isinstance(f, RedactTokens) for f in handler.filters) for handler in server.handlers
    )
    assert any(isinstance(f, RedactTokens) for f in logging.getLogger("gunicorn.access").filters)


def test_every_handler_of_djangos_request_log_redacts() -> None:
    """``Not Found: /games/seat/<key>/`` is logged by django.request: each handler it reaches
    (Django's defaults add their own to the "django" logger) must cut the key out."""
    import logging

    from notifications.services.redact import RedactTokens

    logger: logging.Logger | None = logging.getLogger("django.request")
    reached: list[logging.Handler] = []
    while logger is not None:
        reached += logger.handlers
        logger = logger.parent if logger.propagate else None
    reached = [h for h in reached if not type(h).__module__.startswith("_pytest")]  # pytest's own capture
    assert reached
    for handler in reached:
        assert any(isinstance(f, RedactTokens) for f in handler.filters), handler


def test_a_subject_is_plain_text_even_when_the_game_name_has_html_characters():
    game = running_game(3, seed="names", name="Tom & Jerry's <cup>")
    deliver_pending()
    invitation = sent_to(email_of(game, 0))[-1]
    assert invitation.subject == "New game: you play Red, your move · Tom & Jerry's <cup>"
    assert "Tom &amp; Jerry&#x27;s &lt;cup&gt;" in str(
        invitation.alternatives[0][0]
    )  # the HTML part stays escaped


def test_while_the_clock_is_stopped_a_mail_promises_no_deadline():
    game = started()
    seat = whose_turn(game)
    services.pause(game, by=None, reason="a holiday")
    deliver_pending()
    receive(compose(reply_to_of(game, seat), email_of(game, seat), "status"))
    deliver_pending()
    paused = sent_to(email_of(game, seat))[-1].body
    assert "The clock is stopped" in paused and "Deadline:" not in paused
    services.resume(game, by=None, reason="back")
    deliver_pending()
    resumed = sent_to(email_of(game, seat))[-1].body
    assert "Deadline:" in resumed and "The clock is stopped" not in resumed
