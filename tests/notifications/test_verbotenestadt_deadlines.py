"""Die Verbotene Stadt against the clock: its short windows (re-bribe, challenge) get their
shorter deadlines, a missed one plays the game's default (keep the dial, believe, the
engine's move), and a game in which every seat always times out ends by defaults."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
import time_machine

from games import services
from games.models import Event, Game, PendingDecision
from games.rules import registry
from games.services import timing
from notifications import sweep
from notifications.models import OutboundMail
from tests.notifications.helpers import deliver_pending
from tests.notifications.vsgames import vs_players

pytestmark = pytest.mark.django_db

vs = registry.get("verbotenestadt")
START = datetime(2026, 11, 16, 9, 0, tzinfo=UTC)  # a Monday morning
DEFAULTS = {"rebribe": {"keep"}, "challenge": {"believe"}}


@pytest.fixture
def clock():
    with time_machine.travel(START, tick=False) as traveller:
        yield traveller


def new_game(n: int = 3, seed: str = "vs-clock") -> Game:
    game = services.create_game(
        vs_players(n), rules="verbotenestadt", seed=seed, time_controls={"reminder_hours": []}
    )
    services.start_game(game)
    game.refresh_from_db()
    return game


def owed(game: Game) -> PendingDecision | None:
    return PendingDecision.objects.owed().filter(game=game).order_by("deadline_at", "seat").first()


def test_the_game_s_clock_and_short_windows_apply(clock):
    game = new_game()
    assert timing.controls(game).hours_per_decision == vs.about.time_controls["hours_per_decision"]
    row = owed(game)
    assert row.kind == "dial" and row.deadline_at == START + timedelta(
        hours=vs.about.time_controls["hours_per_decision"]
    )


@pytest.mark.slow
@pytest.mark.parametrize(("players", "seed"), [(3, "vs-clock"), (4, "vs-clock-4")])
def test_a_game_where_every_seat_always_times_out_ends_by_the_game_s_defaults(clock, players, seed):
    game = new_game(players, seed)
    deliver_pending()
    windows: dict[str, int] = {}
    for _ in range(3000):
        row = owed(game)
        if row is None:
            break
        now = row.deadline_at + timedelta(seconds=1)
        clock.move_to(now)
        sweep.sweep()
        for fresh in PendingDecision.objects.owed().filter(
            game=game, since_seq=game.events.latest("seq").seq
        ):
            window = fresh.deadline_at - now
            short = vs.about.short_windows.get(fresh.kind)
            if short is not None:
                windows[fresh.kind] = windows.get(fresh.kind, 0) + 1
                assert window <= timedelta(hours=short), (fresh.kind, window)
            else:
                assert window == timedelta(hours=vs.about.time_controls["hours_per_decision"]), (
                    fresh.kind,
                    window,
                )
        if len(windows) == 1 and not OutboundMail.objects.filter(game=game, kind="defaulted").exists():
            deliver_pending()  # the first defaults are told (the later ones need not be rendered here)
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    assert vs.outcome(services.head_state(game)) is not None
    moves = game.events.filter(kind__in=services.MOVE_KINDS)
    assert moves.exists() and not moves.exclude(kind=Event.Kind.DEFAULT).exists()
    assert "rebribe" in windows
    # what a missed window played: the game's default for it
    assert OutboundMail.objects.filter(game=game, kind="defaulted").exists()
    texts = set(game.events.filter(kind=Event.Kind.DEFAULT).values_list("command_text", flat=True))
    assert "keep" in texts
    if "challenge" in windows:
        assert "believe" in texts and "doubt" not in texts
    assert not PendingDecision.objects.filter(game=game).exists()
    assert timing.next_deadline(game) is None
