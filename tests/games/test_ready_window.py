"""The ready window: a new game asks its seats for entropy by mail, counts each seat's first
``ready``, starts when all are in or when its window is over, and lists the contributions in
its ``started`` event before any draw is made; its draws follow from them, replayably."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
import time_machine
from django.utils import timezone

from games import services
from games.models import Event, Game
from games.rules import rng
from games.rules import whitelotus as wl
from games.services import links
from notifications import sweep
from notifications.models import InboundMail, OutboundMail
from notifications.outbound.plaintext import LIMIT
from tests.games.factories import players
from tests.games.helpers import reply, waiting_game
from tests.notifications.helpers import (
    deliver_pending,
    mail_settings,  # noqa: F401  (the reply domain)
    sent_to,
)

pytestmark = pytest.mark.django_db


def started_payload(game: Game) -> dict[str, Any]:
    payload: dict[str, Any] = game.events.get(kind=Event.Kind.STARTED).payload
    return payload


def test_a_game_with_a_ready_window_is_created_new_and_names_its_generator_and_draws():
    game = waiting_game()
    created = game.events.get(seq=1).payload
    assert game.status == Game.Status.NEW
    assert (created["rng"], created["draws"]) == (rng.RNG, rng.MIXED)
    assert game.ready_until is not None and created["ready_until"] == game.ready_until.isoformat()


def test_every_seat_is_mailed_its_seat_the_commitment_and_how_to_answer_by_when():
    game = waiting_game()
    deliver_pending()
    for seat in game.seats.select_related("player"):
        (mail,) = sent_to(seat.player.email)
        assert mail.subject.startswith(f'Seated as {seat.colour.capitalize()}: reply "ready" by')
        assert game.seed_hash in mail.body
        assert "\n  ready\n" in mail.body
        assert timezone.localtime(game.ready_until).strftime("%Y-%m-%d %H:%M") in mail.body


def test_the_seated_and_ready_mails_end_with_the_link_to_the_players_own_page():
    game = waiting_game()
    reply(game, 0, "ready")
    deliver_pending()
    seat = game.seats.select_related("player").get(position=0)
    seated, answer = sent_to(seat.player.email)
    url = links.player_page_url(seat.player)
    for mail in (seated, answer):
        assert mail.body.rstrip().endswith(url), mail.body
        assert f'<a href="{url}">' in mail.alternatives[0][0]


@pytest.mark.parametrize(
    ("language", "word", "zone", "offset", "phrase"),
    [
        ("en", "ready", "UTC", 0, "Reply to this mail with this word"),
        ("de", "bereit", "Europe/Berlin", 1, "Antworte auf diese Mail mit diesem Wort"),
        ("fr", "prêt", "America/Montreal", -5, "Répondez à ce courriel avec ce mot"),
    ],
)
def test_the_seated_mail_speaks_the_players_language_and_time_zone_in_80_columns(
    language, word, zone, offset, phrase
):
    table = players(3)
    table[0].language, table[0].time_zone = language, zone
    table[0].save()
    with time_machine.travel("2026-11-23 12:00Z", tick=False):
        services.create_game(table, seed="tz", ready_hours=10)
    deliver_pending()
    (mail,) = sent_to(table[0].email)
    html = mail.alternatives[0][0]
    assert f"\n  {word}\n" in mail.body and f'lang="{language}"' in html
    assert phrase in " ".join(mail.body.split())
    # the reader's date style (games.presentation.timefmt), as their pages write it
    day = {"en": "2026-11-23 {}", "de": "23.11.2026, {}", "fr": "23/11/2026 {}"}[language]
    assert day.format(f"{22 + offset:02d}:00") in mail.body
    assert all(len(line) <= LIMIT for line in mail.body.splitlines())


def test_ready_by_mail_is_stored_as_the_seats_entropy_and_answered_with_its_value():
    game = waiting_game()
    row = reply(game, 1, "Ready  thunder over the river\n\n> quoted mail")
    event = game.events.get(kind=Event.Kind.ENTROPY)
    raw = bytes(row.raw)
    message_id = row.message_id
    assert row.status == InboundMail.Status.APPLIED
    assert event.seat == 1 and event.payload == {
        "value": rng.contribution("thunder over the river", message_id)
    }
    assert event.inbound_message_id == message_id and b"thunder" in raw
    deliver_pending()
    answer = sent_to(game.seats.get(position=1).player.email)[-1]
    assert answer.subject.startswith("Ready counted") and event.payload["value"] in answer.body


def test_the_german_and_french_words_count_too():
    game = waiting_game()
    reply(game, 0, "bereit")
    reply(game, 1, "Prêt ! du vent")
    assert set(services.entropy_of(game)) == {0, 1}


def test_a_seats_first_ready_counts_and_a_second_is_answered_why_not():
    game = waiting_game()
    reply(game, 0, "ready first")
    first = services.entropy_of(game)[0]
    row = reply(game, 0, "ready second")
    assert row.status == InboundMail.Status.REFUSED
    assert services.entropy_of(game)[0] == first
    deliver_pending()
    answer = sent_to(game.seats.get(position=0).player.email)[-1]
    assert answer.subject.startswith("Not counted") and "already counted" in answer.body


def test_a_mail_without_ready_is_answered_and_counts_nothing():
    game = waiting_game()
    row = reply(game, 2, "place Ningxia")
    assert row.status == InboundMail.Status.REFUSED and not services.entropy_of(game)
    deliver_pending()
    answer = sent_to(game.seats.get(position=2).player.email)[-1]
    assert "I found no 'ready'" in answer.body and "\n  ready" not in answer.body


def test_the_game_starts_when_every_seat_is_ready_and_lists_the_contributions():
    game = waiting_game()
    for position in range(3):
        reply(game, position, f"ready words of seat {position}")
    game.refresh_from_db()
    contributions = sorted(services.entropy_of(game).items())
    assert game.status == Game.Status.RUNNING
    assert started_payload(game) == {"contributions": [[s, v] for s, v in contributions]}
    assert OutboundMail.objects.filter(game=game, kind="invitation").count() == 3


def test_the_draws_follow_from_the_server_seed_and_the_listed_contributions():
    game = waiting_game()
    for position in range(3):
        reply(game, position, f"ready {position}")
    game.refresh_from_db()
    created = game.events.get(seq=1)
    seed = rng.mixed_seed(created.payload["seed"], services.entropy_of(game))
    expected = wl.setup(services.config_of(game), seed)
    assert services.head_state(game) == expected
    assert seed != created.payload["seed"]


def test_the_game_starts_at_the_end_of_its_window_with_what_arrived():
    game = waiting_game(hours=2)
    reply(game, 1, "ready alone")
    sweep.sweep(timezone.now() + timedelta(hours=1))
    game.refresh_from_db()
    assert game.status == Game.Status.NEW
    report = sweep.sweep(timezone.now() + timedelta(hours=2, minutes=1))
    game.refresh_from_db()
    assert report.started == 1 and game.status == Game.Status.RUNNING
    assert [s for s, _ in started_payload(game)["contributions"]] == [1]


def test_a_ready_after_the_start_is_refused():
    game = waiting_game(hours=1)
    sweep.sweep(timezone.now() + timedelta(hours=2))
    with pytest.raises(services.GameError, match="has started"):
        services.contribute(game, 0, "late", message_id="<late@x>")


def test_a_game_without_a_window_waits_for_no_ready_and_starts_as_before():
    game = services.create_game(players(3), seed="plain")
    with pytest.raises(services.GameError, match="does not wait for ready"):
        services.contribute(game, 0, "hi", message_id="<m@x>")
    services.start_game(game)
    assert started_payload(game) == {"contributions": []}
    assert services.head_state(game) == wl.setup(services.config_of(game), "plain")
    assert not OutboundMail.objects.filter(game=game, kind="seated").exists()


def test_a_game_waiting_for_ready_shows_no_board(client):
    game = waiting_game()
    page = client.get(f"/games/{game.pk}/").content.decode()
    assert 'id="board"' not in page and game.seed_hash in page
    assert 'asked to reply "ready"' in page


def test_a_mixed_game_replays_from_zero_to_its_head():
    game = waiting_game()
    for position in range(3):
        reply(game, position, f"ready {position}")
    for _ in range(20):
        state = services.head_state(game)
        seat = wl.pending(state)[0].seat
        services.apply_default(game, seat)
    services.clear_caches()
    _, same = services.replay_game(game)
    assert same
    first_step_board = next(services.walk_all(game))[1]
    assert first_step_board == services.state_at(game, game.events.get(kind=Event.Kind.STARTED).seq)


def test_an_old_game_without_draws_replays_exactly_as_before():
    game = services.create_game(players(3), seed="old-style")
    services.start_game(game)
    # an old game's first event names no generator nor draws (the log is append-only: a copy
    # of this game is built with the first event as it was written before draws were mixed)
    old = Game.objects.create(
        rules=game.rules,
        engine_version=game.engine_version,
        edition=game.edition,
        options=game.options,
        board=game.board,
        board_digest=game.board_digest,
        seed_hash=game.seed_hash,
        status=Game.Status.RUNNING,
        head_seq=2,
    )
    created = game.events.get(seq=1)
    payload = {k: v for k, v in created.payload.items() if k not in ("rng", "draws")}
    Event.objects.create(game=old, seq=1, kind=Event.Kind.CREATED, payload=payload, source="system")
    Event.objects.create(game=old, seq=2, kind=Event.Kind.STARTED, payload={}, source="system")
    for seat in game.seats.all():
        old.seats.create(position=seat.position, colour=seat.colour, player=seat.player)
    assert services.draw_seed_of(old) == "old-style"
    assert services.state_at(old) == wl.setup(services.config_of(game), "old-style")


def test_a_new_seasons_games_wait_for_their_players_ready_and_one_without_a_window_starts_them():
    from leagues.models import League, Season
    from leagues.seating import seat_round

    league = League.objects.create(name="L", slug="l")
    waiting = Season.objects.create(league=league, name="Waiting")
    at_once = Season.objects.create(league=league, name="At once", ready_hours=0)
    for season in (waiting, at_once):
        for player in players(3):
            season.memberships.create(player=player)
    (game,) = seat_round(waiting, seed="w")
    assert waiting.ready_hours == 24 and game.status == Game.Status.NEW
    assert game.ready_until is not None
    assert set(OutboundMail.objects.filter(game=game).values_list("kind", flat=True)) == {"seated"}
    (other,) = seat_round(at_once, seed="a")
    assert other.status == Game.Status.RUNNING


def test_the_game_page_lists_the_contributions_from_the_start_on(client):
    game = waiting_game()
    reply(game, 0, "ready one")
    before = client.get(f"/games/{game.pk}/").content.decode()
    assert "Red is ready" in before and services.entropy_of(game)[0] not in before
    for position in (1, 2):
        reply(game, position, "ready")
    page = client.get(f"/games/{game.pk}/").content.decode()
    for seat, value in services.entropy_of(game).items():
        assert f"{('Red', 'Blue', 'Green')[seat]} {value[:16]}…" in page


def test_create_game_opens_a_ready_window_on_request():
    from io import StringIO

    from django.core.management import call_command

    out = StringIO()
    emails = ["ada@example.org", "bao@example.org", "chen@example.org"]
    call_command("create_game", *(f"--player={e}" for e in emails), "--ready-hours=12", "--start", stdout=out)
    game = Game.objects.get()
    assert game.status == Game.Status.NEW and game.ready_until is not None
    assert "ready window" in out.getvalue() and game.seed_hash in out.getvalue()


def test_talk_in_a_ready_mail_is_no_entropy_and_the_answer_says_it_was_not_passed_on():
    game = waiting_game()
    reply(game, 0, "say all: good luck\nready the wind\n")
    assert services.entropy_of(game)[0] == rng.contribution(
        "the wind", InboundMail.objects.latest("pk").message_id
    )
    deliver_pending()
    answer = sent_to(game.seats.get(position=0).player.email)[-1]
    assert "were not passed on" in " ".join(answer.body.split())


def test_a_say_line_that_mentions_ready_is_not_a_ready():
    game = waiting_game()
    row = reply(game, 1, "say all: ready when you are")
    assert row.status == InboundMail.Status.REFUSED and not services.entropy_of(game)
