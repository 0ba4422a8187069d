"""Time controls and deadline arithmetic, from small hand-made cases."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

from games.services.timing import TimeControls, deadline, quiet

BERLIN = ZoneInfo("Europe/Berlin")
TOKYO = ZoneInfo("Asia/Tokyo")
# Friday 2026-11-20 12:00 UTC
FRIDAY_NOON = datetime(2026, 11, 20, 12, 0, tzinfo=UTC)


def test_the_league_defaults_are_two_days_with_reminders_a_day_and_four_hours_before():
    tc = TimeControls()
    assert tc.per_decision == timedelta(hours=48)
    due = deadline(FRIDAY_NOON, tc, [])
    assert due == FRIDAY_NOON + timedelta(days=2)
    assert tc.reminder_at(due, 0) == due - timedelta(hours=24)
    assert tc.reminder_at(due, 1) == due - timedelta(hours=4)
    assert tc.reminder_at(due, 2) is None


def test_a_game_without_deadlines_has_none():
    assert deadline(FRIDAY_NOON, TimeControls(hours_per_decision=None), []) is None


def test_reminders_already_past_are_skipped():
    tc = TimeControls()
    due = FRIDAY_NOON + timedelta(hours=6)
    assert tc.reminders_from(due, FRIDAY_NOON) == (1, due - timedelta(hours=4))
    assert tc.reminders_from(due, due - timedelta(hours=1)) == (2, None)


def test_a_deadline_at_night_moves_to_eight_in_the_morning_of_the_players_zone():
    tc = TimeControls(hours_per_decision=12, quiet_nights=True)
    start = datetime(2026, 11, 18, 12, 0, tzinfo=UTC)  # Wednesday: 24:00 UTC is 01:00 in Berlin
    due = deadline(start, tc, [BERLIN])
    assert due is not None and due.astimezone(BERLIN) == datetime(2026, 11, 19, 8, 0, tzinfo=BERLIN)


def test_a_deadline_on_a_weekend_moves_to_monday():
    tc = TimeControls(hours_per_decision=24, quiet_weekends=True)
    due = deadline(FRIDAY_NOON, tc, [BERLIN])  # Saturday 13:00 in Berlin
    assert due is not None and due.astimezone(BERLIN).date() == datetime(2026, 11, 23).date()
    assert due.astimezone(BERLIN).weekday() == 0


def test_a_night_that_ends_on_a_saturday_moves_on_to_monday_morning():
    tc = TimeControls(hours_per_decision=12, quiet_nights=True, quiet_weekends=True)
    local = quiet(datetime(2026, 11, 20, 23, 30, tzinfo=BERLIN).astimezone(UTC), tc, BERLIN)
    assert local.astimezone(BERLIN) == datetime(2026, 11, 23, 8, 0, tzinfo=BERLIN)


def test_sealed_decisions_share_the_latest_deadline_their_seats_need():
    tc = TimeControls(hours_per_decision=12, quiet_nights=True)
    start = datetime(2026, 11, 18, 10, 0, tzinfo=UTC)  # due 22:00 UTC: 23:00 Berlin, 07:00 Tokyo
    due = deadline(start, tc, [BERLIN, TOKYO])
    berlin_morning = datetime(2026, 11, 19, 8, 0, tzinfo=BERLIN)
    assert due == berlin_morning  # later than Tokyo's 08:00 (which is 23:00 UTC on the 18th)


def test_time_controls_round_trip_and_keep_unknown_keys():
    tc = TimeControls.from_dict({"hours_per_decision": 24, "reminder_hours": [2, 12], "future_key": 1})
    assert tc.reminder_hours == (12.0, 2.0)
    assert TimeControls.from_dict(tc.to_dict()) == tc
    assert tc.to_dict()["future_key"] == 1
