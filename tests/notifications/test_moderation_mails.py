"""Moderators' acts told in full: the new time controls with their values, the moves a
rollback undid in notation with who did it and what is asked now, and the player whose
seat was handed over (told, and answered when they write to the old address)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.contrib.auth.models import User

from games import services
from games.models import Game, Player
from games.rules import whitelotus as wl
from games.services import deadlines
from games.services.links import seat_page_url
from games.services.timing import TimeControls
from notifications.inbound import routing as inbound
from notifications.models import InboundMail, OutboundMail
from notifications.outbound import outbox
from notifications.services import tokens
from tests.games.factories import running_game, whose_turn
from tests.notifications.helpers import compose, deliver_pending, receive, sent_to

pytestmark = pytest.mark.django_db


@pytest.fixture
def jo(django_user_model: type[User]) -> User:
    return django_user_model.objects.create_user(
        "jo", "jo@example.org", "pw", first_name="Jo", last_name="March", is_superuser=True
    )


def started(n: int = 3) -> Game:
    game = running_game(n, seed="mail")
    deliver_pending()
    return game


def speak(game: Game, seat: int, language: str) -> None:
    player = game.seats.get(position=seat).player
    player.language = language
    player.save()


def body_of(address: str, kind: str) -> str:
    mail = OutboundMail.objects.filter(to_email=address, kind=kind).latest("pk")
    assert mail.text in {m.body for m in sent_to(address)}  # the mail as it went out
    return mail.text


def flat(text: str) -> str:
    """The text with its lines joined: mails are wrapped at 76 columns."""
    return " ".join(text.split())


def lines_after(text: str, heading: str) -> list[str]:
    """The "  - ..." items of a list under ``heading`` (an item wrapped at 76 columns goes on
    on indented lines, joined back here)."""
    # French typography's no-break spaces (before a colon) read as spaces here
    after = text.replace("\u00a0", " ").replace("\u202f", " ").split(heading + "\n", 1)[1]
    out: list[str] = []
    for line in after.splitlines():
        if line.startswith("  - "):
            out.append(line[4:])
        elif out and line.startswith("    ") and line.strip():
            out[-1] += " " + line.strip()
        else:
            break
    return out


# --- time controls --------------------------------------------------------------------------------


def test_the_time_controls_mail_lists_every_control_with_its_value_and_what_changed(jo):
    game = started()
    speak(game, 1, "de")
    speak(game, 2, "fr")
    new = TimeControls(hours_per_decision=24, reminder_hours=(12,), grace_hours=1.5, quiet_weekends=True)
    deadlines.set_time_controls(game, new, by=jo, reason="league rules")
    deliver_pending()
    english = body_of("ada@example.org", "time_controls")
    assert "Moderator: Jo March" in english and "Reason: league rules" in english
    assert lines_after(english, "The game's time controls now:") == [
        "Time per decision: 24 hours (was 48 hours)",
        "Reminders before a deadline: 12 hours (was 24 hours, 4 hours)",
        "Grace after a deadline: 1.5 hours (was none)",
        "No deadline at night (22:00-08:00, each player's time zone): no",
        "No deadline at weekends (each player's time zone): yes (was no)",
        "Moderators are told after this many missed deadlines in a row: 3",
        "Vacation per player and game: 14 days",
    ]
    german = body_of("bao@example.org", "time_controls")
    assert "Spielleitung: Jo March" in german
    listed = lines_after(german, "Die Bedenkzeiten der Partie jetzt:")
    assert listed[0] == "Bedenkzeit pro Entscheidung: 24 Stunden (bisher 48 Stunden)"
    assert listed[2] == "Nachfrist nach Fristende: 1,5 Stunden (bisher keine)"
    assert listed[6] == "Urlaub pro Spieler und Partie: 14 Tage"
    french = body_of("chen@example.org", "time_controls")
    listed = lines_after(french, "Les délais de la partie désormais :")
    assert listed[0] == "Délai par décision : 24 heures (auparavant 48 heures)"
    assert listed[4] == "Pas d’échéance le week-end (fuseau du joueur) : oui (auparavant non)"
    html = OutboundMail.objects.get(to_email="ada@example.org", kind="time_controls").html
    assert "<li>Time per decision: 24 hours (was 48 hours)</li>" in html


def test_no_deadlines_and_a_single_hour_are_said_so():
    game = started()
    deadlines.set_time_controls(
        game, TimeControls(hours_per_decision=None, reminder_hours=(), vacation_days=1), by=None, reason="r"
    )
    deliver_pending()
    listed = lines_after(body_of("ada@example.org", "time_controls"), "The game's time controls now:")
    assert listed[0] == "Time per decision: no deadlines (was 48 hours)"
    assert listed[1] == "Reminders before a deadline: none (was 24 hours, 4 hours)"
    assert listed[6] == "Vacation per player and game: 1 day (was 14 days)"
    assert "Moderator: the service's operator" in body_of("ada@example.org", "time_controls")


# --- rollback -------------------------------------------------------------------------------------


def play(game: Game, moves: int) -> list[str]:
    """Play ``moves`` legal moves, a different one each time; the engine's notation of each."""
    played: list[str] = []
    for _ in range(moves):
        seat = whose_turn(game)
        state = services.head_state(game)
        legal = wl.legal(state, seat)
        command = legal[(7 * game.head_seq) % len(legal)]
        played.append(wl.Notation.format_command(state, command))
        services.submit(game, seat, command)
        game.refresh_from_db()
    return played


def test_a_rollback_mail_lists_the_undone_moves_who_did_it_and_what_is_asked_now(jo):
    game = started()
    play(game, 2)  # red, blue
    back_to = game.head_seq
    undone = play(game, 3)  # green, red, blue
    services.apply_default(game, whose_turn(game))  # green's deadline passed
    game.refresh_from_db()
    deliver_pending()
    assert len(set(undone)) == 3  # so the order of the list is seen
    services.rollback(game, back_to, by=jo, reason="a misread board")
    deliver_pending()
    state = services.head_state(game)
    assert [d.seat for d in wl.pending(state)] == [2]  # green must place again
    expected = [
        f"Green (Chen): {undone[0]}",
        f"Red (Ada): {undone[1]}",
        f"Blue (Bao): {undone[2]}",
    ]
    for address in ("ada@example.org", "bao@example.org", "chen@example.org"):
        text = body_of(address, "rolled_back")
        assert f"rolled this game back to event #{back_to}" in flat(text)
        assert "Reason: a misread board" in flat(text) and "Moderator: Jo March" in flat(text)
        listed = lines_after(text, "The moves undone:")
        assert listed[:3] == expected
        assert len(listed) == 4 and listed[3].startswith("Green (Chen): ")
        assert listed[3].endswith(" (deadline default)")
    waiting = body_of("ada@example.org", "rolled_back")
    assert "It is not your move: Green (Chen) must place a control marker." in flat(waiting)
    asked = body_of("chen@example.org", "rolled_back")
    assert "It is not your move" not in asked
    assert "What you can do now:" in asked and "place a control marker" in flat(asked)


def test_a_rollback_mail_is_in_the_readers_language():
    game = started()
    speak(game, 0, "de")
    play(game, 1)
    back_to = game.head_seq
    undone = play(game, 1)  # blue
    services.rollback(game, back_to, by=None, reason="Versehen")
    deliver_pending()
    text = body_of("ada@example.org", "rolled_back")
    assert lines_after(text, "Die zurückgenommenen Züge:") == [f"Blau (Bao): {undone[0]}"]
    assert "Blau (Bao) muss einen Gebietsmarker setzen." in flat(text)
    assert "Spielleitung: der Betreiber des Dienstes" in flat(text)


def reach_sealed_bids(game: Game) -> list[int]:
    for _ in range(200):
        decisions = wl.pending(services.head_state(game))
        if decisions and decisions[0].sealed:
            return [d.seat for d in decisions]
        services.apply_default(game, decisions[0].seat)
    pytest.fail("no sealed decision reached")


def test_an_undone_sealed_choice_is_written_out_only_to_the_seat_that_made_it():
    game = running_game(3, seed="mail")
    sealers = reach_sealed_bids(game)
    game.refresh_from_db()
    back_to = game.head_seq
    seat = sealers[0]
    state = services.head_state(game)
    bid = max(wl.legal(state, seat), key=lambda c: getattr(c, "amount", 0))
    notation = wl.Notation.format_command(state, bid)
    services.submit(game, seat, bid)
    game.refresh_from_db()
    deliver_pending()
    services.rollback(game, back_to, by=None, reason="the bid was mistyped")
    deliver_pending()
    holder = game.seats.get(position=seat)
    colour = holder.colour.capitalize()
    mine = lines_after(body_of(holder.player.email, "rolled_back"), "The moves undone:")
    assert mine == [f"{colour} ({holder.player.name}): {notation}"]
    for other in game.seats.exclude(position=seat):
        text = body_of(other.player.email, "rolled_back")
        assert lines_after(text, "The moves undone:") == [f"{colour} ({holder.player.name}): a sealed choice"]
        assert notation not in text


def test_a_rollback_over_no_move_says_so():
    game = started()
    play(game, 1)
    back_to = game.head_seq
    services.pause(game, by=None, reason="a question")
    services.rollback(game, back_to, by=None, reason="undo the pause")
    deliver_pending()
    text = body_of("ada@example.org", "rolled_back")
    assert "No move was undone, only other events." in flat(text)


def test_the_extension_mail_announces_the_later_deadline_and_the_one_it_replaces():
    game = started()
    row = game.decisions.owed().get()
    assert row.deadline_at is not None
    until = row.deadline_at + timedelta(days=1)
    services.extend_deadline(game, until, by=None, reason="holiday")
    deliver_pending()
    text = body_of("ada@example.org", "deadline_extended")
    assert (
        f"A moderator has extended the deadline to {until:%Y-%m-%d %H:%M} UTC. "
        f"The deadline was {row.deadline_at:%Y-%m-%d %H:%M} UTC. Reason: holiday"
    ) in flat(text)


# --- a seat handed over ----------------------------------------------------------------------------


def hand_over(game: Game, by: User | None, reason: str = "left the league") -> Player:
    gus = Player.objects.create(name="Gus", email="gus@example.org")
    services.replace_seat(game, 1, gus, by=by, reason=reason)
    return gus


def secrets_of_the_new_holder(game: Game) -> list[str]:
    seat = game.seats.get(position=1)
    return [tokens.live_token(seat).token, seat_page_url(seat).rsplit("/", 2)[-2]]


def test_a_replaced_player_is_told_in_their_language_by_whom_when_and_why(jo):
    game = started()
    speak(game, 1, "de")
    hand_over(game, jo, reason="zieht um")
    sent = deliver_pending()
    told = [m for m in sent if m.kind == "handed_over"]
    assert [m.to_email for m in told] == ["bao@example.org"]
    event = game.events.latest("seq")
    when = event.created_at.strftime("%d.%m.%Y, %H:%M UTC")  # the German style of games.presentation.timefmt
    text = told[0].text
    assert told[0].subject == f"Dein Platz wurde übergeben · Partie {game.pk}"
    assert f"Am {when} wurde dein Platz in Partie {game.pk} (Blau) an einen anderen" in flat(text)
    assert "(Spielleitung: Jo March)" in flat(text) and "Grund: zieht um" in flat(text)
    assert 'lang="de"' in told[0].html
    message = sent_to("bao@example.org")[-1]
    assert message.reply_to == [tokens.service_address()]
    whole = " ".join(
        [message.body, str(message.alternatives[0][0]), *message.reply_to, str(message.extra_headers)]
    )
    for secret in secrets_of_the_new_holder(game):
        assert secret not in whole
    assert message.extra_headers["In-Reply-To"] == f"<{outbox.thread_id(game, 1)}>"  # the old thread


def test_a_later_reply_to_the_old_address_is_answered_once_from_the_service_address(jo):
    game = started()
    old = tokens.reply_address(game.seats.get(position=1))
    hand_over(game, jo)
    deliver_pending()
    before = game.events.count()
    raw = compose(old, "Bao@Example.org", "status")
    row = receive(raw)
    assert row.status == InboundMail.Status.FORMER_SEAT
    assert (row.game, row.seat) == (game, 1) and "handed over on" in row.outcome
    assert game.events.count() == before
    answers = deliver_pending()
    assert [(m.kind, m.to_email) for m in answers] == [("former_seat", "bao@example.org")]
    when = game.events.latest("seq").created_at.strftime("%Y-%m-%d %H:%M UTC")
    assert (
        f"the seat Blue in Game {game.pk} was handed over to another player on {when} (by Jo March), "
        "and you no longer play it." in flat(answers[0].text)
    )
    assert "Reason: left the league" in flat(answers[0].text)
    message = sent_to("bao@example.org")[-1]
    assert message.reply_to == [tokens.service_address()]
    assert message.extra_headers["In-Reply-To"] == f"<{row.message_id}>"
    whole = " ".join(
        [message.body, str(message.alternatives[0][0]), *message.reply_to, str(message.extra_headers)]
    )
    for secret in secrets_of_the_new_holder(game):
        assert secret not in whole
    # once per inbound mail: the same mail delivered again is not answered again
    assert receive(raw).pk == row.pk
    assert inbound.process(row.pk) == "not new"
    assert deliver_pending() == []
    # a second mail is a second question, answered again
    assert receive(compose(old, "bao@example.org", "pass")).status == InboundMail.Status.FORMER_SEAT
    assert [m.kind for m in deliver_pending()] == ["former_seat"]


def test_mail_to_an_old_address_from_anyone_else_or_to_a_token_that_never_was_is_not_answered():
    game = started()
    old = tokens.reply_address(game.seats.get(position=1))
    hand_over(game, None)
    deliver_pending()
    assert receive(compose(old, "eve@evil.test", "status")).status == InboundMail.Status.UNKNOWN
    made_up = "play+" + "a" * 26 + "@lotus.test"
    assert receive(compose(made_up, "bao@example.org", "status")).status == InboundMail.Status.UNKNOWN
    assert deliver_pending() == []


def test_a_player_given_the_seat_back_is_answered_at_the_old_address_as_at_the_live_one():
    """Their old address is revoked, but the seat is theirs again: the mail is taken as sent to
    the live address, and the answer carries the live token only."""
    game = started()
    seat = game.seats.get(position=1)
    old = tokens.reply_address(seat)
    old_token = tokens.live_token(seat).token
    hand_over(game, None)
    bao = Player.objects.get(email="bao@example.org")
    services.replace_seat(game, 1, bao, by=None, reason="came back")
    deliver_pending()
    row = receive(compose(old, "bao@example.org", "status"))
    assert row.status == InboundMail.Status.ANSWERED
    assert (row.game, row.seat) == (game, 1)
    assert not OutboundMail.objects.filter(kind="former_seat").exists()
    answers = deliver_pending()
    assert [(m.kind, m.to_email) for m in answers] == [("status", "bao@example.org")]
    message = sent_to("bao@example.org")[-1]
    live = tokens.reply_address(game.seats.get(position=1))
    assert live != old and message.reply_to == [live]
    whole = " ".join([message.body, str(message.alternatives[0][0]), str(message.extra_headers)])
    assert old_token not in whole


def test_a_former_player_who_changed_address_since_is_still_told():
    """The revoked token proves who held the seat; the hand-over's payload names the address
    they had then."""
    game = started()
    old = tokens.reply_address(game.seats.get(position=1))
    hand_over(game, None)
    handed = game.events.latest("seq")
    Player.objects.filter(email="bao@example.org").update(email="bao@new.example")
    deliver_pending()
    row = receive(compose(old, "bao@new.example", "status"))
    assert row.status == InboundMail.Status.FORMER_SEAT
    answers = deliver_pending()
    assert [(m.kind, m.to_email) for m in answers] == [("former_seat", "bao@new.example")]
    assert handed.created_at.strftime("%Y-%m-%d %H:%M UTC") in flat(answers[0].text)
    # their address as it was is no longer theirs: from there, nothing is answered
    assert receive(compose(old, "bao@example.org", "status")).status == InboundMail.Status.UNKNOWN
