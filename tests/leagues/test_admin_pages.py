"""The leagues admin through the test client: naming moderators, seasons and their members,
seating a round, and the league audit page with its pending moderator actions."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
import time_machine
from django.contrib.auth.models import User
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from games import services
from games.models import Game, PendingDecision, Player
from games.services import deadlines
from games.services.timing import TimeControls
from leagues.admin.audit import league_audit
from leagues.models import League, Season
from leagues.seating import seat_round
from tests.leagues.helpers import moderator_user, season_of

pytestmark = pytest.mark.django_db

START = datetime(2026, 11, 16, 9, 0, tzinfo=UTC)


@pytest.fixture
def league():
    return League.objects.create(name="East Cup", slug="east")


@pytest.fixture
def root(client):
    user = User.objects.create_superuser("root", "root@example.org", "pw")
    client.force_login(user)
    return user


def url(name, *args):
    return reverse(f"admin:leagues_{name}", args=args)


def test_the_site_admin_cannot_name_a_player_of_the_league_its_moderator(client, root, league):
    season = season_of(league, ["Ada", "Bao", "Chen"])
    ada = Player.objects.get(name="Ada")
    ada.user = User.objects.create_user("ada", "ada@example.org", "pw", is_staff=True)
    ada.save()
    kim = User.objects.create_user("kim", "kim@example.org", "pw", is_staff=True)
    data = {"name": league.name, "slug": league.slug, "description": "", "moderators": [ada.user.pk, kim.pk]}
    response = client.post(url("league_change", league.pk), data)
    assert response.status_code == 200  # the form again, with the error
    assert "ada play(s) in this league and cannot moderate it" in response.content.decode()
    assert not league.moderators.exists()
    data["moderators"] = [kim.pk]
    assert client.post(url("league_change", league.pk), data).status_code == 302
    assert list(league.moderators.all()) == [kim]
    assert season.memberships.count() == 3


def test_a_league_moderator_can_view_but_not_rename_moderators(client, league):
    kim = moderator_user("kim", league)
    client.force_login(kim)
    assert client.get(url("league_changelist")).status_code == 200
    response = client.post(url("league_change", league.pk), {"name": "x", "slug": "x", "moderators": []})
    assert response.status_code == 403
    assert list(league.moderators.all()) == [kim]


def test_a_moderator_seats_the_next_round_from_the_season_list(client, league):
    kim = moderator_user("kim", league)
    season = season_of(league, ["Ada", "Bao", "Chen", "Dara", "Emil", "Fang", "Gita"])
    client.force_login(kim)
    assert client.get(url("season_change", season.pk)).status_code == 200
    response = client.post(
        url("season_changelist"), {"action": "seat_next_round", "_selected_action": [season.pk]}, follow=True
    )
    assert "seated 2 games (4 + 3)" in response.content.decode()
    games = Game.objects.filter(league_game__season=season)
    assert games.count() == 2 and all(g.status == Game.Status.RUNNING for g in games)
    assert all(e.actor == kim for g in games for e in g.events.all())


def test_the_members_inline_refuses_the_leagues_moderator(client, root, league):
    kim = moderator_user("kim", league)
    Player.objects.create(name="Kim", email="kim@example.org", user=kim)
    season = season_of(league, [])
    data = {
        "league": league.pk,
        "name": season.name,
        "signup_open": "on",
        "edition": "kosmos",
        "board": "china",
        "memberships-TOTAL_FORMS": "1",
        "memberships-INITIAL_FORMS": "0",
        "memberships-0-player": Player.objects.get(name="Kim").pk,
        "memberships-0-via": "admin",
    }
    response = client.post(url("season_change", season.pk), data)
    assert "moderates East Cup and cannot play in its games" in response.content.decode()
    assert not season.memberships.exists()


def test_the_audit_lists_waiting_time_defaults_in_a_row_and_pending_actions(client, league):
    kim = moderator_user("kim", league)
    controls = TimeControls(warn_after_defaults=2).to_dict()
    season = season_of(league, ["Ada", "Bao", "Chen", "Dara", "Emil", "Fang"], time_controls=controls)
    with time_machine.travel(START, tick=False) as clock:
        quiet, busy = seat_round(season, seed="a")  # two tables of three
        for _ in range(6):  # two placements each, by default: two defaults in a row per seat
            owed = PendingDecision.objects.owed().filter(game=busy).order_by("seat").first()
            services.apply_default(busy, owed.seat)
        services.pause(quiet, by=kim, reason="dispute")
        bounced = quiet.seats.get(position=1).player
        bounced.email_bounced_at = timezone.now()
        bounced.save()
        clock.move_to(START + timedelta(hours=3))
        client.force_login(kim)
        html = client.get(url("league_audit", league.pk)).content.decode()
    assert f'id="game-{quiet.pk}"' in html and f'id="game-{busy.pk}"' in html
    assert "paused: resume when settled" in html
    assert f"mail to {bounced.email} bounced" in html
    busy_row = html.split(f'id="game-{busy.pk}"')[1].split("</tr>")[0]
    assert "2 defaults in a row — replace?" in busy_row
    assert "2026-11-16 09:00" in busy_row and "3\xa0hours" in busy_row  # waiting since the last default


def test_the_audit_reads_each_games_log_once_for_all_its_seats(league):
    """Defaults in a row come from one read of a game's log, not one per seat; the seats
    and their players are loaded with the games."""
    kim = moderator_user("kim", league)
    season = season_of(league, [f"P{i}" for i in range(12)])
    games = seat_round(season, seed="a")  # three tables of four
    for game in games:
        for _ in range(4):
            owed = PendingDecision.objects.owed().filter(game=game).order_by("seat").first()
            services.apply_default(game, owed.seat)
    with CaptureQueriesContext(connection) as queries:
        lines = league_audit(league, kim)
    assert [[s.defaults for s in line.seats] for line in lines] == [[1, 1, 1, 1]] * 3
    logs = [q["sql"] for q in queries if 'FROM "games_event"' in q["sql"] and '"seq" = ' not in q["sql"]]
    seats = [q["sql"] for q in queries if 'FROM "games_seat"' in q["sql"]]
    assert len(seats) == 1, seats
    assert len(logs) <= 2 * len(games), logs  # the head's events after its snapshot, and the defaults


def test_a_replacement_does_not_inherit_the_defaults_in_a_row_of_the_player_they_replace(league):
    kim = moderator_user("kim", league)
    controls = TimeControls(warn_after_defaults=2).to_dict()
    season = season_of(league, ["Ada", "Bao", "Chen"], time_controls=controls)
    (game,) = seat_round(season, seed="a")
    for _ in range(6):  # two defaults in a row per seat
        owed = PendingDecision.objects.owed().filter(game=game).order_by("seat").first()
        services.apply_default(game, owed.seat)
    gus = Player.objects.create(name="Gus", email="gus@example.org")
    services.replace_seat(game, 1, gus, by=kim, reason="two misses")
    (line,) = league_audit(league, kim)
    assert [s.defaults for s in line.seats] == [2, 0, 2]
    assert not any("Gus" in action for action in line.actions)
    assert deadlines.consecutive_defaults(game, 1) == 0


def test_a_league_moderator_names_only_a_built_in_board(client, league, tmp_path):
    """A board may be a file on the server: a league's moderator cannot point a season at one."""
    kim = moderator_user("kim", league)
    season = season_of(league, ["Ada", "Bao", "Chen"])
    client.force_login(kim)
    elsewhere = tmp_path / "board.json"
    elsewhere.write_text("{}")
    refusals = {str(elsewhere): "only the site admin names files", "atlantis": "No such board"}
    for board, refusal in refusals.items():
        data = {
            "league": league.pk,
            "name": "Autumn",
            "signup_open": "on",
            "edition": season.edition,
            "board": board,
            "memberships-TOTAL_FORMS": "0",
            "memberships-INITIAL_FORMS": "0",
        }
        response = client.post(url("season_change", season.pk), data)
        assert refusal in response.content.decode()
        season.refresh_from_db()
        assert season.board == "" and season.board_played == "china"  # unchanged: the game's own


def test_seating_a_season_with_an_unknown_board_is_refused_not_a_crash(league):
    season = season_of(league, ["Ada", "Bao", "Chen"])
    Season.objects.filter(pk=season.pk).update(board="atlantis")
    season.refresh_from_db()
    with pytest.raises(services.GameError, match="no built-in board 'atlantis'"):
        seat_round(season)
    assert not Game.objects.exists()


def test_the_season_list_counts_members_and_rounds_without_queries_per_row(client, root, league):
    first = season_of(league, ["Ada", "Bao", "Chen"])
    seat_round(first, seed="a")
    seat_round(first, seed="b", while_running=True)
    with CaptureQueriesContext(connection) as one:
        html = client.get(url("season_changelist")).content.decode()
    assert '<td class="field-members_count">3</td><td class="field-rounds">2</td>' in html
    for name in ("Winter", "Spring", "Summer"):
        Season.objects.create(league=league, name=name).memberships.create(player=first.members.first())
    with CaptureQueriesContext(connection) as four:
        client.get(url("season_changelist"))
    assert len(four) == len(one)
