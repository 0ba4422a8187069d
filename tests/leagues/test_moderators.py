"""Two leagues, two moderators: each sees and acts on their own league's games only, in the
admin and in the services; a player never moderates a game they play in."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.contrib.auth.models import User
from django.urls import reverse
from django.utils import timezone

from games import services
from games.models import Event, Game, Player
from games.services import deadlines, permissions
from games.services.timing import TimeControls
from leagues.admin import LeagueForm
from leagues.models import League, Season
from leagues.seating import SeatingError, seat_round
from tests.games.moderating import confirmed_act
from tests.leagues.helpers import moderator_user, season_of

pytestmark = pytest.mark.django_db

NORTH = ["Ada", "Bao", "Chen"]
SOUTH = ["Dara", "Emil", "Fang"]


@pytest.fixture
def north():
    return League.objects.create(name="North Cup", slug="north")


@pytest.fixture
def south():
    return League.objects.create(name="South Cup", slug="south")


@pytest.fixture
def games(north, south):
    n = seat_round(season_of(north, NORTH), seed="n")[0]
    s = seat_round(season_of(south, SOUTH), seed="s")[0]
    return n, s


@pytest.fixture
def nina(north):
    return moderator_user("nina", north)


@pytest.fixture
def sam(south):
    return moderator_user("sam", south)


def url(name, *args):
    return reverse(f"admin:{name}", args=args)


def test_each_moderator_lists_only_their_leagues_games(client, games, nina, sam):
    n, s = games
    client.force_login(nina)
    html = client.get(url("games_game_changelist")).content.decode()
    assert n.name in html and s.name not in html
    client.force_login(sam)
    html = client.get(url("games_game_changelist")).content.decode()
    assert s.name in html and n.name not in html


def test_events_of_another_league_are_not_listed(client, games, nina):
    n, _ = games
    client.force_login(nina)
    response = client.get(url("games_event_changelist"))
    shown = {e.game_id for e in response.context["cl"].result_list}
    assert shown == {n.pk}


def test_another_leagues_audit_state_and_actions_are_not_found(client, games, nina):
    n, s = games
    client.force_login(nina)
    assert client.get(url("games_game_audit", n.pk)).status_code == 200
    assert client.get(url("games_game_audit", s.pk)).status_code == 404
    assert client.get(url("games_game_state", s.pk, 2)).status_code == 404
    before = s.events.count()
    response = client.post(url("games_game_action", s.pk, "pause"), {"reason": "not mine"})
    assert response.status_code == 404
    assert s.events.count() == before
    assert client.get(url("games_game_action", s.pk, "pause"), {"reason": "not mine"}).status_code == 404
    confirmed_act(client, url("games_game_action", n.pk, "pause"), {"reason": "mine"})
    n.refresh_from_db()
    assert n.status == Game.Status.PAUSED
    assert n.events.latest("seq").actor == nina


def test_another_leagues_pages_are_not_found_without_a_false_message(client, games, south, nina):
    """Its game, league, season and league game answer a plain 404, never Django's "… doesn't
    exist. Perhaps it was deleted?" (untrue, and it tells ids apart); a POST answers as it
    would for an id that is not there, and changes nothing."""
    _, s = games
    client.force_login(nina)
    season = s.league_game.season
    pages = [
        ("games_game_change", s.pk),
        ("games_game_history", s.pk),
        ("games_event_change", s.events.get(seq=1).pk),
        ("leagues_league_change", south.pk),
        ("leagues_league_history", south.pk),
        ("leagues_league_audit", south.pk),
        ("leagues_season_change", season.pk),
        ("leagues_leaguegame_change", s.league_game.pk),
    ]
    for name, pk in pages:
        response = client.get(url(name, pk), follow=True)
        assert response.status_code == 404, name
        assert "Perhaps it was deleted" not in response.content.decode(), name
        posted = client.post(url(name, pk), {"name": "taken over"}, follow=True)
        absent = client.post(url(name, 999999), {"name": "taken over"}, follow=True)
        assert posted.status_code == absent.status_code and posted.status_code in (403, 404), name
        assert "Perhaps it was deleted" not in posted.content.decode(), name
    season.refresh_from_db()
    assert season.name != "taken over"


def test_the_services_refuse_a_moderator_of_another_league(games, nina, sam):
    n, s = games
    with pytest.raises(services.GameError, match="does not moderate"):
        services.pause(s, by=nina, reason="not mine")
    assert not s.events.filter(kind=Event.Kind.PAUSED).exists()
    services.pause(s, by=sam, reason="mine")
    with pytest.raises(services.GameError, match="does not moderate"):
        services.pause(n, by=sam, reason="not mine")
    newcomer = Player.objects.create(name="Gus", email="gus@example.org")
    holder = n.seats.get(position=0).player
    with pytest.raises(services.GameError, match="does not moderate"):
        services.replace_seat(n, 0, newcomer, by=sam, reason="not mine")
    assert n.seats.get(position=0).player == holder  # the refused change was undone


def test_a_superuser_sees_every_league(client, games):
    root = User.objects.create_superuser("root", "root@example.org", "pw")
    client.force_login(root)
    html = client.get(url("games_game_changelist")).content.decode()
    assert all(g.name in html for g in games)
    assert permissions.can_moderate(root, games[1])


def test_the_league_audit_page_is_for_that_leagues_moderators(client, games, north, south, nina):
    n, _ = games
    client.force_login(nina)
    page = client.get(url("leagues_league_audit", north.pk))
    assert page.status_code == 200
    html = page.content.decode()
    first = n.seats.get(position=0).player.name
    assert f'id="game-{n.pk}"' in html and f"red ({first}): place" in html
    assert client.get(url("leagues_league_audit", south.pk)).status_code == 404
    html = client.get(url("leagues_league_changelist")).content.decode()
    assert "North Cup" in html and "South Cup" not in html


def test_a_player_of_a_league_cannot_be_made_its_moderator(games, north):
    ada = Player.objects.get(name="Ada")
    ada.user = User.objects.create_user("ada", "ada@example.org", "pw", is_staff=True)
    ada.save()
    form = LeagueForm({"name": north.name, "slug": north.slug, "moderators": [ada.user.pk]}, instance=north)
    assert not form.is_valid()
    assert "play(s) in this league" in str(form.errors["moderators"])


def test_a_moderator_of_a_league_is_not_seated_in_it(north, nina):
    season = season_of(north, NORTH)
    Player.objects.create(name="Nina", email="nina@example.org", user=nina)
    season.memberships.create(player=Player.objects.get(name="Nina"))
    with pytest.raises(SeatingError, match="moderates North Cup"):
        seat_round(season)
    assert not Game.objects.exists()


def test_the_admin_refuses_to_hand_a_seat_to_the_leagues_moderator(client, games, nina, sam):
    n, _ = games
    holder = n.seats.get(position=1).player
    Player.objects.create(name="Nina", email="nina@example.org", user=nina)
    client.force_login(User.objects.create_superuser("root", "root@example.org", "pw"))
    response = client.post(
        url("games_game_action", n.pk, "replace"),
        {"position": 1, "email": "nina@example.org", "reason": "swap"},
        follow=True,
    )
    assert any("moderates this game's league" in str(m) for m in response.context["messages"])
    assert n.seats.get(position=1).player == holder


def test_the_service_refuses_to_hand_a_seat_to_the_leagues_moderator(games, nina):
    """Not only the admin's form: the operator (``by=None``) is refused too."""
    n, _ = games
    holder = n.seats.get(position=1).player
    moderator = Player.objects.create(name="Nina", email="nina@example.org", user=nina)
    with pytest.raises(services.GameError, match="moderates this game's league"):
        services.replace_seat(n, 1, moderator, by=None, reason="swap")
    assert n.seats.get(position=1).player == holder


def test_a_moderator_who_plays_in_a_game_does_not_moderate_it(games, nina):
    n, _ = games
    Player.objects.filter(pk=n.seats.get(position=1).player_id).update(user=nina)
    assert not permissions.can_moderate(nina, n)
    with pytest.raises(services.GameError):
        services.pause(n, by=nina, reason="my own game")


def test_a_foreign_moderators_rollback_of_an_empty_game_is_refused_for_permission(games, nina):
    """The refusal must not say anything about a game the moderator may not see, such as
    that it has nothing to roll back."""
    _, s = games
    with pytest.raises(services.GameError, match="does not moderate") as refused:
        services.rollback(s, s.head_seq, by=nina, reason="not mine")
    assert "nothing to roll back" not in str(refused.value)
    with pytest.raises(services.GameError, match="nothing to roll back"):
        services.rollback(s, s.head_seq, by=None, reason="the operator may")


FOREIGN_ACTS = {
    "resume a running game": lambda g, by: services.resume(g, by=by, reason="r"),
    "extend into the past": lambda g, by: services.extend_deadline(
        g, timezone.now() - timedelta(days=1), by=by, reason="r"
    ),
    "replace a seat that is not there": lambda g, by: services.replace_seat(
        g, 9, Player.objects.create(name="Gus", email="gus@example.org"), by=by, reason="r"
    ),
    "change the time controls": lambda g, by: deadlines.set_time_controls(
        g, TimeControls(), by=by, reason="r"
    ),
}


@pytest.mark.parametrize("act", list(FOREIGN_ACTS))
def test_every_moderator_act_checks_the_permission_before_the_game(games, nina, act):
    _, s = games
    head = s.head_seq
    with pytest.raises(services.GameError, match="does not moderate"):
        FOREIGN_ACTS[act](s, nina)
    s.refresh_from_db()
    assert s.head_seq == head and s.status == Game.Status.RUNNING


def test_a_moderator_cannot_redirect_the_mail_of_another_leagues_player(client, games, south, nina):
    """A player's address is where their seats' mails (reply tokens, seat-page links) go."""
    n, s = games
    ours, theirs = n.seats.get(position=0).player, s.seats.get(position=0).player
    waiting = Player.objects.create(name="Gert", email="gert@example.org")
    Season.objects.create(league=south, name="Spring").memberships.create(player=waiting)
    client.force_login(nina)
    for player in (theirs, waiting):
        data = {"name": player.name, "email": "nina@example.org", "language": "en", "time_zone": "UTC"}
        assert client.post(url("games_player_change", player.pk), data).status_code == 403
        player.refresh_from_db()
        assert player.email != "nina@example.org"
    data = {"name": ours.name, "email": "ada.new@example.org", "language": "en", "time_zone": "UTC"}
    assert client.post(url("games_player_change", ours.pk), data).status_code == 302
    ours.refresh_from_db()
    assert ours.email == "ada.new@example.org"
    assert permissions.may_change_player(User.objects.create_superuser("root", "r@example.org", "pw"), theirs)


def test_a_leagues_moderator_sees_and_continues_only_their_leagues_record_drafts(client, north, nina, sam):
    from games.models import RecordDraft

    colleague = moderator_user("nora", north)
    client.force_login(nina)
    client.post(url("games_recorddraft_add"), {"name": "North club night", "text": ""})
    mine = RecordDraft.objects.get(name="North club night")
    assert mine.created_by == nina
    theirs = RecordDraft.objects.create(name="South club night", created_by=sam)
    elsewhere = RecordDraft.objects.create(name="A site moderator's draft")

    listed = client.get(url("games_recorddraft_changelist")).content.decode()
    assert (
        "North club night" in listed and "South club night" not in listed and "site moderator" not in listed
    )
    assert client.get(url("games_recorddraft_enter", mine.pk)).status_code == 200
    for other in (theirs, elsewhere):
        assert client.get(url("games_recorddraft_enter", other.pk)).status_code == 404
        assert (
            client.post(url("games_recorddraft_enter", other.pk), {"lines": "# mine now"}).status_code == 404
        )
        assert client.get(url("games_recorddraft_change", other.pk)).status_code == 404
    theirs.refresh_from_db()
    assert theirs.text == ""

    client.force_login(colleague)  # a fellow moderator of the same league continues it
    assert client.get(url("games_recorddraft_enter", mine.pk)).status_code == 200
    client.force_login(sam)
    assert client.get(url("games_recorddraft_enter", mine.pk)).status_code == 404
    client.force_login(User.objects.create_superuser("root", "root@example.org", "pw"))
    listed = client.get(url("games_recorddraft_changelist")).content.decode()
    assert all(name in listed for name in ("North club night", "South club night", "site moderator"))
