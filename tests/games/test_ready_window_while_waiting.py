"""A game while it waits for its seats' ``ready``: nothing of the setup built from the server's
seed alone leaks or sticks (snapshots, replays, pages, notices, a new seat's mails), a ready
after the start is refused, what a player is told lets them check their own contribution,
and the window is at most two weeks long."""

from __future__ import annotations

import hashlib
from datetime import timedelta

import pytest
from django.utils import timezone

from games import services
from games.models import Event, Game, Player
from games.services import creating
from notifications import sweep
from notifications.models import InboundMail, OutboundMail
from tests.games.factories import players
from tests.games.helpers import reply, waiting_game
from tests.notifications.helpers import (
    deliver_pending,
    mail_settings,  # noqa: F401  (the reply domain)
    sent_to,
)

pytestmark = pytest.mark.django_db


def newcomer(name: str = "Gus") -> Player:
    return Player.objects.create(name=name, email=f"{name.lower()}@example.org")


def test_moderator_acts_in_the_ready_window_leave_no_snapshot_the_started_game_loads(settings):
    settings.GAMES_SNAPSHOT_EVERY = 3
    game = waiting_game()
    services.replace_seat(game, 1, newcomer("Gus"), by=None, reason="Bo left")
    services.replace_seat(game, 2, newcomer("Ida"), by=None, reason="Cy left")
    for position in range(3):
        reply(game, position, f"ready {position}")
    game.refresh_from_db()
    assert game.status == Game.Status.RUNNING
    services.clear_caches()
    full, same = services.replay_game(game)
    assert same
    assert services.head_state(game) == services.state_at(game) == full


def test_a_snapshot_taken_before_the_start_is_never_loaded(settings):
    settings.GAMES_SNAPSHOT_EVERY = 1000
    game = waiting_game()
    services.replace_seat(game, 1, newcomer(), by=None, reason="Bo left")
    rules = services.rules_of(game)
    game.snapshots.create(
        seq=2, engine_version=rules.about.VERSION, state=rules.serial.state_to_dict(services.state_at(game))
    )
    for position in range(3):
        reply(game, position, f"ready {position}")
    game.refresh_from_db()
    assert services.usable_snapshot(game) is None
    services.clear_caches()
    assert services.head_state(game) == services.state_at(game)


def test_the_replay_of_a_game_waiting_for_ready_is_not_found(client):
    game = waiting_game()
    assert client.get(f"/games/{game.pk}/replay/1/").status_code == 404
    assert client.get(f"/games/{game.pk}/replay/").status_code == 404


def test_a_notice_in_the_ready_window_shows_no_board_hand_or_menu():
    game = waiting_game()
    deliver_pending()
    services.replace_seat(game, 1, newcomer(), by=None, reason="Bo left")
    deliver_pending()
    seat = game.seats.select_related("player").get(position=0)
    notice = sent_to(seat.player.email)[-1]
    assert "The board:" not in notice.body and "What you can do now" not in notice.body
    assert "The board is set up when the game starts" in notice.body
    assert not notice.attachments


def test_a_seats_new_player_in_the_ready_window_is_asked_for_ready_not_invited_to_move():
    game = waiting_game()
    deliver_pending()
    services.replace_seat(game, 1, newcomer(), by=None, reason="Bo left")
    deliver_pending()
    mails = sent_to("gus@example.org")
    assert [m.subject.split(":")[0] for m in mails if "Seated as" in m.subject]
    assert not OutboundMail.objects.filter(game=game, kind="invitation").exists()
    seated = next(m for m in mails if "Seated as" in m.subject)
    assert "\n  ready\n" in seated.body and "must place" not in seated.body


@pytest.mark.parametrize("word", ["ready", "bereit", "prêt"])
def test_a_late_ready_after_the_start_is_told_the_draws_are_fixed(word):
    game = waiting_game(hours=1)
    sweep.sweep(timezone.now() + timedelta(hours=2))
    game.refresh_from_db()
    assert game.status == Game.Status.RUNNING
    mail = reply(game, 0, f"{word} late words")
    assert mail.status == InboundMail.Status.REFUSED
    answer = OutboundMail.objects.filter(game=game, kind="ready").get()
    assert "has started" in str(answer.context["refusal"])


@pytest.mark.parametrize("language", ["en", "de", "fr"])
def test_the_ready_answer_quotes_the_hashed_text_and_message_id_which_hash_to_its_value(language):
    game = waiting_game()
    game.seats.get(position=1).player.__class__.objects.filter(
        pk=game.seats.get(position=1).player_id
    ).update(language=language)
    reply(game, 1, "Ready  thunder over the river\n\n> quoted mail")
    value = game.events.get(kind=Event.Kind.ENTROPY).payload["value"]
    deliver_pending()
    body = sent_to(game.seats.get(position=1).player.email)[-1].body
    # French typography's no-break space before a colon reads as a space here
    lines = [" ".join(line.split()) for line in body.splitlines()]
    text = lines[lines.index(next(x for x in lines if x.startswith(TEXT_LABEL[language]))) + 1]
    message_id = lines[lines.index(next(x for x in lines if x.startswith(ID_LABEL[language]))) + 1]
    assert hashlib.sha256(f"{text}\n{message_id}".encode()).hexdigest() == value
    assert text == "thunder over the river" and "<" not in message_id


TEXT_LABEL = {"en": "Your text:", "de": "Dein Text:", "fr": "Votre texte :"}
ID_LABEL = {
    "en": "Your mail's Message-ID:",
    "de": "Die Message-ID deiner Mail:",
    "fr": "Le Message-ID de votre courriel :",
}


@pytest.mark.parametrize("hours", [337, 1e12, float("inf"), float("nan")])
def test_a_ready_window_longer_than_two_weeks_is_refused(hours):
    with pytest.raises(services.GameError, match="up to 336 hours"):
        waiting_game(hours=hours)


def test_the_create_game_command_refuses_a_huge_ready_window():
    from django.core.management import CommandError, call_command

    emails = ",".join(p.email for p in players(3))
    with pytest.raises(CommandError, match="up to 336 hours"):
        call_command("create_game", "--player", emails, "--ready-hours", "1e12")


def test_one_game_that_cannot_start_does_not_stop_the_others(monkeypatch):
    broken, fine = waiting_game(hours=1, seed="a"), waiting_game(hours=1, seed="b")
    start = services.start_game

    def failing(game, *args, **kwargs):
        if game.pk == broken.pk:
            raise RuntimeError("broken")
        return start(game, *args, **kwargs)

    monkeypatch.setattr(creating, "start_game", failing)  # where start_waiting_games finds it
    assert services.start_waiting_games(timezone.now() + timedelta(hours=2)) == [fine.pk]


def test_the_seated_subject_names_the_date_of_a_window_ending_over_six_days_away():
    game = waiting_game(hours=200)
    deliver_pending()
    mail = sent_to(game.seats.get(position=0).player.email)[0]
    assert timezone.localtime(game.ready_until).strftime("%Y-%m-%d %H:%M") in mail.subject


def test_the_pages_of_a_game_waiting_for_ready_show_no_board_hand_or_replay_link(client):
    from games.services import links

    game = waiting_game()
    seat = game.seats.get(position=0)
    for url in (f"/games/{game.pk}/", links.seat_page_url(seat)):
        page = client.get(url).content.decode()
        assert 'id="board"' not in page and 'id="you"' not in page, url
        assert "/replay/" not in page, url
