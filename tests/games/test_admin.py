"""The moderators' admin (games.admin, games.admin.views) through Django's test client."""

from __future__ import annotations

import importlib
import re
from datetime import timedelta
from types import SimpleNamespace

import pytest
from django.contrib.auth.models import AnonymousUser, Group
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from games import services
from games.models import Event, Game, Player
from games.rules import whitelotus as wl
from games.services.permissions import is_moderator
from tests.games.factories import running_game, whose_turn
from tests.games.moderating import confirmed_act

pytestmark = pytest.mark.django_db

NAME = "Jade Court"  # the game's name: must never reach a non-moderator


@pytest.fixture
def game():
    return running_game(4, name=NAME)


def url(name, *args):
    return reverse(f"admin:games_{name}", args=args)


def act(game, action):
    return url("game_action", game.pk, action)


def play(game, moves):
    for _ in range(moves):
        services.apply_default(game, whose_turn(game))
    game.refresh_from_db()


def bid_in_bidding(game):
    """Play defaults until sealed bids are due, then seal the highest bid for the first seat
    asked; returns (seat, bid command, its event)."""
    for _ in range(200):
        state = services.head_state(game)
        decisions = wl.pending(state)
        if decisions and decisions[0].kind == "bid" and decisions[0].sealed:
            break
        services.apply_default(game, decisions[0].seat)
    else:
        pytest.fail("no bidding reached")
    seat = decisions[0].seat
    bid = max(wl.legal(state, seat), key=lambda c: c.amount)
    result = services.submit(game, seat, wl.format_command(state, bid), inbound_message_id="<bid-1@mail>")
    game.refresh_from_db()
    return seat, bid, result.events[0]


def last_event(game):
    return game.events.order_by("-seq").first()


def messages_of(response):
    return [str(m) for m in response.context["messages"]]


# --- moderators ----------------------------------------------------------------------------------


def test_the_migration_creates_the_moderators_group():
    """Run the data migration's own step: a committing test on the same xdist worker may have
    flushed the tables (the migrated group included) before this one runs."""
    from django.apps import apps
    from django.db import connection

    step = importlib.import_module("games.migrations.0003_moderators_group")
    editor = SimpleNamespace(connection=connection)  # the steps read only its connection's alias
    Group.objects.filter(name="moderators").delete()
    step.create(apps, editor)
    assert Group.objects.filter(name="moderators").exists()
    step.remove(apps, editor)  # backwards: an empty group goes
    assert not Group.objects.filter(name="moderators").exists()
    assert [type(op).__name__ for op in step.Migration.operations] == ["RunPython"]


def test_moderator_lists_games_with_status_whose_move_and_deadline(mod, game):
    until = timezone.now() + timedelta(days=3)
    services.extend_deadline(game, until, by=None, reason="set")
    seat = whose_turn(game)
    holder = game.seats.get(position=seat)
    response = mod.get(url("game_changelist"))
    assert response.status_code == 200
    html = response.content.decode()
    assert NAME in html and "running" in html
    assert f"{holder.colour} ({holder.player.name}): place" in html
    assert str(until.year) in html and url("game_audit", game.pk) in html
    assert mod.get(url("game_changelist"), {"status__exact": "finished"}).content.decode().count(NAME) == 0


def test_the_game_page_is_its_audit_page(mod, game):
    response = mod.get(url("game_change", game.pk))
    assert response.status_code == 302 and response["Location"] == url("game_audit", game.pk)


def test_audit_page_shows_every_event_with_hidden_information_and_the_sealed_bid(mod, game):
    seat, bid, event = bid_in_bidding(game)
    colour = game.seats.get(position=seat).colour
    response = mod.get(url("game_audit", game.pk))
    assert response.status_code == 200
    html = response.content.decode()
    assert html.count('<tr id="event-') == game.head_seq
    assert f'id="event-{event.seq}"' in html
    assert event.command_text in html and "&lt;bid-1@mail&gt;" in html
    assert f"hidden: only {colour}" in html
    target = game.seats.get(position=bid.target).colour
    assert f"You sealed: bid {bid.amount} against {target}" in html
    assert f"{colour.capitalize()} has sealed a choice." in html
    assert "&quot;seed&quot;: &quot;svc&quot;" in html  # the created event's payload: hidden until the end
    assert url("game_state", game.pk, event.seq) in html


def test_state_at_an_event_shows_each_seats_view_with_the_sealed_bid(mod, game):
    _, bid, event = bid_in_bidding(game)
    response = mod.get(url("game_state", game.pk, event.seq))
    assert response.status_code == 200
    html = response.content.decode()
    assert "bidding" in html and "Public view" in html
    assert f"&quot;amount&quot;: {bid.amount}" in html and "&quot;sealed&quot;: {" in html
    before = mod.get(url("game_state", game.pk, event.seq - 1)).content.decode()
    assert "&quot;amount&quot;" not in before  # nobody had bid yet
    assert mod.get(url("game_state", game.pk, game.head_seq + 1)).status_code == 404


def test_rollback_through_the_admin(mod, moderator, game):
    play(game, 4)
    response = confirmed_act(
        mod, act(game, "rollback"), {"to_seq": 4, "reason": "misclick by Bao"}, follow=True
    )
    assert response.status_code == 200
    assert any("recorded as event #7" in m for m in messages_of(response))
    event = last_event(game)
    assert (event.kind, event.actor, event.reason, event.payload) == (
        Event.Kind.ROLLED_BACK,
        moderator,
        "misclick by Bao",
        {"to_seq": 4},
    )
    assert event.source == Event.Source.MODERATOR
    html = response.content.decode()
    assert "misclick by Bao" in html and 'undone by <a href="#event-7">#7</a>' in html


def test_pause_and_resume_through_the_admin(mod, moderator, game):
    confirmed_act(mod, act(game, "pause"), {"reason": "dispute about a bid"})
    game.refresh_from_db()
    assert game.status == Game.Status.PAUSED
    paused = last_event(game)
    assert (paused.kind, paused.actor, paused.reason) == (Event.Kind.PAUSED, moderator, "dispute about a bid")
    response = confirmed_act(mod, act(game, "resume"), {"reason": "settled"}, follow=True)
    game.refresh_from_db()
    assert game.status == Game.Status.RUNNING
    resumed = last_event(game)
    assert (resumed.kind, resumed.actor, resumed.reason) == (Event.Kind.RESUMED, moderator, "settled")
    assert "dispute about a bid" in response.content.decode()


def test_change_the_time_controls_through_the_admin(mod, moderator, game):
    page = mod.get(url("game_audit", game.pk)).content.decode()
    assert "Change the time controls" in page and 'value="24, 4"' in page
    data = {
        "hours_per_decision": "24",
        "reminder_hours": "12, 2",
        "grace_hours": "1",
        "quiet_weekends": "on",
        "warn_after_defaults": "2",
        "vacation_days": "7",
        "reason": "league rules",
    }
    confirmed_act(mod, act(game, "time"), data)
    game.refresh_from_db()
    assert game.time_controls["hours_per_decision"] == 24
    assert game.time_controls["reminder_hours"] == [12, 2] and game.time_controls["quiet_weekends"]
    event = last_event(game)
    assert (event.kind, event.actor, event.reason) == (Event.Kind.TIME_CONTROLS, moderator, "league rules")


def test_extend_deadline_through_the_admin(mod, moderator, game):
    until = (timezone.now() + timedelta(days=3)).replace(second=0, microsecond=0)
    confirmed_act(mod, act(game, "extend"), {"until": until.strftime("%Y-%m-%dT%H:%M"), "reason": "holiday"})
    assert set(game.decisions.owed().values_list("deadline_at", flat=True)) == {until}
    event = last_event(game)
    assert (event.kind, event.actor, event.reason) == (Event.Kind.DEADLINE_EXTENDED, moderator, "holiday")
    assert event.payload["deadline_at"] == until.isoformat()


def test_an_extension_to_an_earlier_time_is_a_form_error_in_the_admin(mod, game):
    current = game.decisions.owed().get().deadline_at
    page = mod.get(url("game_audit", game.pk)).content.decode()
    assert f"Now: {current:%Y-%m-%d %H:%M}; only a later time." in page
    before = game.events.count()
    cases = [
        (current - timedelta(hours=2), "is not later than the current deadline"),
        (timezone.now() - timedelta(hours=2), "must lie in the future"),
    ]
    for until, why in cases:
        data = {"until": until.strftime("%Y-%m-%dT%H:%M"), "reason": "shorter"}
        response = mod.post(act(game, "extend"), data, follow=True)
        errors = [m for m in messages_of(response) if m.startswith("Extend the deadline: New deadline: ")]
        assert len(errors) == 1 and why in errors[0], messages_of(response)
    assert game.events.count() == before
    assert game.decisions.owed().get().deadline_at == current


def test_replace_seat_through_the_admin(mod, moderator, game):
    play(game, 2)  # red and blue have moved
    gus = Player.objects.create(name="Gus", email="gus@example.org")
    response = confirmed_act(
        mod,
        act(game, "replace"),
        {"position": 1, "email": "GUS@example.org", "reason": "left the league"},
        follow=True,
    )
    assert game.seats.get(position=1).player == gus
    event = last_event(game)
    assert (event.kind, event.actor, event.reason) == (Event.Kind.SEAT_REPLACED, moderator, "left the league")
    assert event.payload["new"] == "gus@example.org"
    html = response.content.decode()
    assert '<td data-label="Seat">blue (Bao)</td>' in html  # the earlier move: who held the seat then
    assert '<td data-label="Seat">blue (Bao) → Gus</td>' in html and "left the league" in html


def test_a_seat_is_handed_to_a_new_address_in_one_form(mod, moderator, game):
    """No detour through Players: a new address with a name adds the player as the seat
    changes hands; without a name the form asks for one and nobody is added."""
    data = {"position": 1, "email": "gus@example.org", "language": "de", "reason": "left the league"}
    refused = mod.post(act(game, "replace"), data, follow=True)
    assert any("give the new player's name" in m for m in messages_of(refused))
    assert not Player.objects.filter(email="gus@example.org").exists()
    page = mod.post(act(game, "replace"), {**data, "name": "Gus"}).content.decode()
    assert "passes from Bao &lt;bao@example.org&gt; to Gus &lt;gus@example.org&gt;" in page
    assert "is new to the service and is added as a player" in page
    assert "A later rollback does not give the seat back." in page
    assert not Player.objects.filter(email="gus@example.org").exists()  # asking adds nobody
    confirmed_act(mod, act(game, "replace"), {**data, "name": "Gus"})
    gus = Player.objects.get(email="gus@example.org")
    assert (gus.name, gus.language) == ("Gus", "de")
    assert game.seats.get(position=1).player == gus
    assert last_event(game).kind == Event.Kind.SEAT_REPLACED


@pytest.mark.parametrize(
    ("action", "data"),
    [
        ("rollback", {"to_seq": 2}),
        ("pause", {}),
        ("extend", {"until": "2099-01-01T12:00"}),
        ("replace", {"position": 0, "email": "gus@example.org"}),
    ],
)
@pytest.mark.parametrize("reason", [None, "", "   "])
def test_an_action_without_a_reason_is_refused_and_appends_nothing(mod, game, action, data, reason):
    Player.objects.create(name="Gus", email="gus@example.org")
    play(game, 1)
    before = game.events.count()
    post = {**data, **({} if reason is None else {"reason": reason})}
    response = mod.post(act(game, action), post, follow=True)
    assert response.status_code == 200
    assert any("Reason: This field is required." in m for m in messages_of(response)), messages_of(response)
    assert game.events.count() == before


def test_a_refusal_of_the_services_is_shown_as_a_message(mod, game):
    before = game.events.count()
    response = confirmed_act(mod, act(game, "resume"), {"reason": "why not"}, follow=True)
    assert any("cannot be resumed" in m for m in messages_of(response))
    response = mod.post(act(game, "rollback"), {"to_seq": 1, "reason": "too far"}, follow=True)
    assert "The game can only be rolled back to an event from its start on." in response.content.decode()
    response = mod.post(
        act(game, "replace"), {"position": 0, "email": "nobody@x.org", "reason": "r"}, follow=True
    )
    assert any("new to the service: give the new player's name" in m for m in messages_of(response))
    assert game.events.count() == before


@pytest.mark.parametrize(
    ("action", "data", "said"),
    [
        ("pause", {}, "is paused: no move is taken"),
        ("resume", {}, "runs again"),
        ("extend", {"until": "2099-01-01T12:00"}, "the deadline moves from"),
        ("bot", {"position": 2}, "the bot plays the green seat for Chen"),
        ("time", {"hours_per_decision": "12", "grace_hours": "0", "warn_after_defaults": "3"}, "→ 12"),
    ],
)
def test_every_act_shows_what_it_will_do_and_acts_only_on_a_confirming_post(
    moderator, game, action, data, said
):
    """The audit page's form asks (a POST without a token): the page says what will happen and
    changes nothing; a POST with the page's token but without CSRF, or with a forged token,
    does nothing either."""
    if action == "resume":
        services.pause(game, by=None, reason="first")
        game.refresh_from_db()
    data = {**data, "reason": "league rules", **({"vacation_days": "14"} if action == "time" else {})}
    strict = Client(enforce_csrf_checks=True)
    strict.force_login(moderator)
    before = game.events.count()
    csrf = strict.get(url("game_audit", game.pk)).context["csrf_token"]
    assert strict.post(act(game, action), data).status_code == 403  # the first look needs CSRF too
    page = strict.post(act(game, action), {**data, "csrfmiddlewaretoken": csrf})
    html = page.content.decode()
    assert page.status_code == 200 and said in html, html[:3000]
    assert 'id="confirm-again"' not in html
    assert f"Recorded in the log as event #{game.head_seq + 1}" in html and "league rules" in html
    assert strict.post(act(game, action), {**data, "token": page.context["token"]}).status_code == 403
    forged = strict.post(act(game, action), {**data, "csrfmiddlewaretoken": csrf, "token": "x:y"})
    assert forged.status_code == 200 and 'id="confirm-again"' in forged.content.decode()
    assert game.events.count() == before
    done = strict.post(
        act(game, action), {**data, "csrfmiddlewaretoken": csrf, "token": page.context["token"]}
    )
    assert done.status_code == 302 and game.events.count() == before + 1
    assert game.events.order_by("-seq").first().reason == "league rules"


def test_the_audit_pages_act_forms_post_so_the_reason_never_stands_in_an_address(mod, game):
    """A reason can name a player or a dispute: it goes in a POST body, never in a URL that an
    access log or the browser's history keeps."""
    html = mod.get(url("game_audit", game.pk)).content.decode()
    forms = re.findall(r'<form method="(\w+)" action="[^"]*" class="wl-action"', html)
    assert forms and set(forms) == {"post"}, forms
    assert mod.get(act(game, "pause"), {"reason": "dispute"}).status_code == 302
    assert not game.events.filter(kind=Event.Kind.PAUSED).exists()


def test_a_confirmation_from_before_the_game_moved_on_does_nothing(mod, game):
    page = mod.post(act(game, "pause"), {"reason": "dispute"})
    play(game, 1)  # a move arrives while the moderator reads
    stale = mod.post(act(game, "pause"), {"reason": "dispute", "token": page.context["token"]})
    assert 'id="confirm-again"' in stale.content.decode()
    assert game.status == Game.Status.RUNNING
    assert not game.events.filter(kind=Event.Kind.PAUSED).exists()


def test_the_audit_pages_rollback_by_number_answers_with_the_page_that_lists_what_it_undoes(mod, game):
    play(game, 4)
    response = mod.post(act(game, "rollback"), {"to_seq": 4, "reason": "misread"})
    html = response.content.decode()
    assert response.status_code == 200 and response.context["action_url"] == url("game_rollback", game.pk, 4)
    assert 'id="confirm-again"' not in html
    assert 'id="undone"' in html and "misread</textarea>" in html
    assert not game.events.filter(kind=Event.Kind.ROLLED_BACK).exists()


def test_a_superuser_is_a_moderator_without_the_group(client, django_user_model, game):
    client.force_login(django_user_model.objects.create_superuser("root", "root@example.org", "pw"))
    assert client.get(url("game_audit", game.pk)).status_code == 200


def test_games_and_events_cannot_be_added_changed_or_deleted_in_the_admin(client, django_user_model, game):
    client.force_login(django_user_model.objects.create_superuser("root", "root@example.org", "pw"))
    event = game.events.get(seq=2)
    assert client.get(url("game_add")).status_code == 403
    assert client.post(url("game_delete", game.pk), {"post": "yes"}).status_code == 403
    assert client.get(url("event_add")).status_code == 403
    assert client.post(url("event_delete", event.pk), {"post": "yes"}).status_code == 403
    assert client.post(url("event_change", event.pk), {"reason": "edited"}).status_code == 403
    assert client.get(url("event_change", event.pk)).status_code == 200  # read-only view
    assert Game.objects.filter(pk=game.pk).exists()
    assert game.events.get(seq=2).reason == ""


def test_is_moderator_needs_an_active_user_in_the_group_or_a_superuser(moderator, django_user_model):
    assert is_moderator(moderator)
    assert not is_moderator(AnonymousUser())
    assert not is_moderator(django_user_model.objects.create_user("staff", is_staff=True))
    moderator.is_active = False
    assert not is_moderator(moderator)


# --- everyone else -------------------------------------------------------------------------------


def _admin_urls(game):
    return [
        url("game_changelist"),
        url("game_change", game.pk),
        url("game_audit", game.pk),
        url("game_state", game.pk, 2),
        url("event_changelist"),
        url("event_change", game.events.get(seq=2).pk),
        url("player_changelist"),
        url("snapshot_changelist"),
    ]


def _no_game_data(response, game):
    html = response.content.decode()
    assert NAME not in html and "ada@example.org" not in html and game.seed_hash not in html


def test_a_staff_user_who_is_not_a_moderator_gets_403_and_sees_no_game(client, django_user_model, game):
    staff = django_user_model.objects.create_user("staff", "staff@example.org", "pw", is_staff=True)
    client.force_login(staff)
    for address in _admin_urls(game):
        response = client.get(address)
        assert response.status_code == 403, address
        _no_game_data(response, game)
    before = game.events.count()
    for action in ("pause", "rollback"):
        response = client.post(act(game, action), {"reason": "sneaky", "to_seq": 2})
        assert response.status_code == 403
    assert game.events.count() == before
    index = client.get(reverse("admin:index"))
    assert index.status_code == 200
    assert 'href="/admin/games/' not in index.content.decode()
    _no_game_data(index, game)


def test_the_admin_index_lists_the_games_app_for_a_moderator(mod, game):
    assert 'href="/admin/games/game/"' in mod.get(reverse("admin:index")).content.decode()


@pytest.mark.parametrize("who", ["player", "anonymous"])
def test_players_and_anonymous_visitors_are_sent_to_the_login(client, django_user_model, game, who):
    if who == "player":
        user = django_user_model.objects.create_user("ada", "ada@example.org", "pw")
        Player.objects.filter(email="ada@example.org").update(user=user)
        client.force_login(user)
    for address in _admin_urls(game):
        response = client.get(address)
        assert response.status_code == 302, address
        assert response["Location"].startswith(reverse("admin:login")), address
        _no_game_data(response, game)
    before = game.events.count()
    response = client.post(act(game, "pause"), {"reason": "sneaky"})
    assert response.status_code == 302 and response["Location"].startswith(reverse("admin:login"))
    assert game.events.count() == before


def test_hand_a_seat_to_the_bot_and_give_it_back_through_the_admin(mod, moderator, game):
    page = mod.get(url("game_audit", game.pk)).content.decode()
    assert "Hand a seat to the bot" in page and "Give a seat back from the bot" not in page
    response = confirmed_act(
        mod, act(game, "bot"), {"position": 2, "reason": "Chen stopped answering"}, follow=True
    )
    event = game.events.filter(kind=Event.Kind.BOT_SEATED).get()
    assert (event.actor, event.reason, event.seat) == (moderator, "Chen stopped answering", 2)
    html = response.content.decode()
    assert "Chen stopped answering" in html and "Give a seat back from the bot" in html
    confirmed_act(mod, act(game, "unbot"), {"position": 2, "reason": "Chen is back"})
    back = last_event(game)
    assert (back.kind, back.source, back.actor) == (Event.Kind.BOT_UNSEATED, "moderator", moderator)
    assert game.seats.get(position=2).bot_since is None


def test_the_player_admin_refuses_a_time_zone_the_service_does_not_know():
    from games.admin import PlayerAdminForm

    data = {"name": "Bea", "email": "bea@example.org", "language": "en", "time_zone": "Berlin"}
    form = PlayerAdminForm(data)
    assert not form.is_valid()
    assert "“Berlin” is not a time zone we know" in form.errors["time_zone"][0]
    assert PlayerAdminForm({**data, "time_zone": "Europe/Berlin"}).is_valid()
