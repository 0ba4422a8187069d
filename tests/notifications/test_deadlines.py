"""Deadlines by time travel: reminders, defaults, grace, weekends, vacations, pause; and whole
games in which every seat times out every time."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
import time_machine

from games import services
from games.models import Event, Game, PendingDecision
from games.rules import whitelotus as wl
from games.services import deadlines, timing
from games.services.timing import TimeControls
from notifications import sweep
from notifications.models import InboundMail, OutboundMail
from notifications.services import tokens
from tests.games.factories import players
from tests.notifications.helpers import compose, deliver_pending, receive

pytestmark = pytest.mark.django_db

START = datetime(2026, 11, 16, 9, 0, tzinfo=UTC)  # a Monday morning


@pytest.fixture
def clock():
    with time_machine.travel(START, tick=False) as traveller:
        yield traveller


def new_game(n: int = 3, edition: str = "kosmos", **controls) -> Game:
    game = services.create_game(
        players(n), edition=edition, seed="clock", time_controls=TimeControls(**controls)
    )
    services.start_game(game)
    game.refresh_from_db()
    deliver_pending()
    return game


def owed(game: Game) -> PendingDecision | None:
    return PendingDecision.objects.owed().filter(game=game).order_by("deadline_at", "seat").first()


def mails(kind: str) -> list[OutboundMail]:
    return list(OutboundMail.objects.filter(kind=kind).order_by("pk"))


def test_a_new_decision_gets_a_deadline_and_its_reminder_times(clock):
    game = new_game()
    row = owed(game)
    assert row.deadline_at == START + timedelta(hours=48)
    assert row.remind_at == START + timedelta(hours=24)
    assert row.since_seq == game.head_seq


def test_each_reminder_is_sent_once(clock):
    game = new_game()
    seat = owed(game).seat
    clock.move_to(START + timedelta(hours=24, minutes=1))
    assert sweep.sweep().reminders == 1
    assert sweep.sweep().reminders == 0
    clock.move_to(START + timedelta(hours=44, minutes=1))
    assert sweep.sweep().reminders == 1
    assert sweep.sweep().reminders == 0
    sent = deliver_pending()
    assert [(m.kind, m.seat) for m in sent] == [("reminder", seat), ("reminder", seat)]
    assert (
        sent[0].subject.startswith("Reminder: ")
        and "due " in sent[0].subject
        and "What you can do now:" in sent[0].text
    )
    assert "2026-11-18 09:00" in sent[0].text  # the deadline, in the player's zone (UTC here)


def test_at_the_deadline_the_default_is_played_and_the_table_is_told(clock):
    game = new_game()
    row = owed(game)
    clock.move_to(row.deadline_at - timedelta(minutes=1))
    assert sweep.sweep().defaults == 0
    clock.move_to(row.deadline_at + timedelta(minutes=1))
    assert sweep.sweep().defaults == 1
    event = game.events.latest("seq")
    assert (event.kind, event.source, event.seat) == (Event.Kind.DEFAULT, Event.Source.DEADLINE, row.seat)
    sent = deliver_pending()
    kinds = {m.seat: m.kind for m in sent}
    assert kinds[row.seat] == "defaulted"
    nxt = owed(game).seat
    assert kinds[nxt] == "decision"
    decision = next(m for m in sent if m.seat == nxt)
    assert "deadline passed; the default move was played" in " ".join(decision.text.split())  # (wrapped)


def test_the_grace_period_delays_the_default(clock):
    game = new_game(grace_hours=2)
    row = owed(game)
    clock.move_to(row.deadline_at + timedelta(hours=1))
    assert sweep.sweep().defaults == 0
    clock.move_to(row.deadline_at + timedelta(hours=2, minutes=1))
    assert sweep.sweep().defaults == 1


def test_no_deadline_falls_on_a_weekend_when_the_game_says_so(clock):
    clock.move_to(datetime(2026, 11, 20, 12, 0, tzinfo=UTC))  # Friday noon
    game = new_game(hours_per_decision=24, quiet_weekends=True)
    assert owed(game).deadline_at.weekday() == 0


def test_a_vacation_stops_the_clock_and_back_moves_the_deadlines_on(clock):
    game = new_game()
    row = owed(game)
    away = (row.seat + 1) % 3
    seat = game.seats.get(position=away)
    mail = receive(compose(tokens.reply_address(seat), seat.player.email, "urlaub 5 tage"))
    assert mail.status == InboundMail.Status.APPLIED
    game.refresh_from_db()
    assert game.clock_stopped_at == START
    sent = deliver_pending()
    assert {m.kind for m in sent} == {"vacation"} and len(sent) == 3
    clock.move_to(START + timedelta(days=3))
    assert sweep.sweep().defaults == 0  # the deadline (2 days) passed while the clock stood still
    receive(compose(tokens.reply_address(seat), seat.player.email, "back"))
    assert owed(game).deadline_at == row.deadline_at + timedelta(days=3)
    assert game.seats.get(position=away).vacation_used == timedelta(days=3)
    assert {m.kind for m in deliver_pending()} == {"back"}


def test_a_vacation_ends_by_itself_when_the_days_are_over(clock):
    game = new_game()
    row = owed(game)
    deadlines.start_vacation(game, row.seat, 2)
    clock.move_to(START + timedelta(days=2, minutes=1))
    report = sweep.sweep()
    assert report.vacations_ended == 1
    game.refresh_from_db()
    assert game.clock_stopped_at is None
    assert owed(game).deadline_at == row.deadline_at + timedelta(days=2, minutes=1)


def test_vacation_days_are_limited_per_game(clock):
    game = new_game(vacation_days=7)
    deadlines.start_vacation(game, 0, 5)
    deadlines.end_vacation(game, 0)  # back at once: the 5 days are given back
    with pytest.raises(services.GameError, match="7 days of vacation left"):
        deadlines.start_vacation(game, 0, 8)
    clock.move_to(START + timedelta(days=1))
    deadlines.start_vacation(game, 0, 6)
    clock.move_to(START + timedelta(days=7))
    deadlines.end_vacation(game, 0)  # 6 days used
    with pytest.raises(services.GameError, match="1 day of vacation left"):
        deadlines.start_vacation(game, 0, 2)


def test_pausing_stops_the_clock_and_resuming_moves_the_deadlines_on(clock):
    game = new_game()
    row = owed(game)
    services.pause(game, by=None, reason="dispute")
    clock.move_to(START + timedelta(days=5))
    assert sweep.sweep().defaults == 0 and sweep.sweep().reminders == 0
    services.resume(game, by=None, reason="settled")
    assert owed(game).deadline_at == row.deadline_at + timedelta(days=5)
    assert owed(game).remind_at == row.remind_at + timedelta(days=5)


def test_a_vacation_keeps_the_clock_stopped_after_a_resume(clock):
    game = new_game()
    services.pause(game, by=None, reason="dispute")
    deadlines.start_vacation(game, 1, 3)
    services.resume(game, by=None, reason="settled")
    game.refresh_from_db()
    assert game.clock_stopped_at == START


def test_after_three_defaults_in_a_row_the_player_and_the_moderators_are_told(clock):
    game = new_game(hours_per_decision=1, reminder_hours=[])
    target = owed(game).seat
    missed = 0
    for _ in range(50):
        if missed == 3:
            break
        row = owed(game)
        clock.move_to(row.deadline_at + timedelta(minutes=1))
        sweep.sweep()
        if row.seat == target:
            missed += 1
    assert deadlines.consecutive_defaults(game, target) == 3
    sent = deliver_pending()
    assert [m.seat for m in sent if m.kind == "missed"] == [target]
    assert [m.to_email for m in sent if m.kind == "missed_moderators"] == ["mod@lotus.test"]


def test_a_real_move_before_the_sweep_makes_the_due_default_moot(clock):
    game = new_game()
    row = owed(game)
    clock.move_to(row.deadline_at + timedelta(minutes=1))
    state = services.head_state(game)
    services.submit(game, row.seat, wl.legal(state, row.seat)[0])  # late, but first
    with pytest.raises(services.NotDue):
        services.apply_default(game, row.seat, since_seq=row.since_seq)
    assert not game.events.filter(kind=Event.Kind.DEFAULT).exists()


def test_the_health_check_says_when_the_sweep_last_ran(clock, client):
    assert client.get("/health/").status_code == 503
    sweep.sweep()
    clock.move_to(START + timedelta(minutes=1))
    response = client.get("/health/")
    assert response.status_code == 200 and response.json()["ok"]
    clock.move_to(START + timedelta(minutes=10))
    assert client.get("/health/").status_code == 503


def kinds_of_a_defaults_only_game(game: Game) -> set[str]:
    """The decision kinds the engine alone meets when every move is the default."""
    state = wl.setup(services.config_of(game), "clock")
    kinds = set()
    while wl.outcome(state) is None:
        decisions = wl.pending(state)
        kinds |= {d.kind for d in decisions}
        decision = min(decisions)
        state, _ = wl.apply(state, decision.seat, wl.default(state, decision.seat))
    return kinds


@pytest.mark.slow
@pytest.mark.parametrize("edition", ["kosmos", "designer"])
def test_a_game_where_every_seat_always_times_out_ends_by_defaults(clock, edition):
    game = new_game(4, edition, reminder_hours=[])
    kinds = set()
    for _ in range(2000):
        row = owed(game)
        if row is None:
            break
        kinds |= set(PendingDecision.objects.owed().filter(game=game).values_list("kind", flat=True))
        clock.move_to(row.deadline_at + timedelta(seconds=1))
        sweep.sweep()
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    moves = game.events.filter(kind__in=services.MOVE_KINDS)
    assert moves.exists() and not moves.exclude(kind=Event.Kind.DEFAULT).exists()
    assert kinds == kinds_of_a_defaults_only_game(game)
    final = services.head_state(game)
    assert wl.outcome(final) is not None
    assert not PendingDecision.objects.filter(game=game).exists()
    assert timing.next_deadline(game) is None
