"""games.services: the only way into a game."""

from __future__ import annotations

import threading
from datetime import timedelta

import pytest
from django.db import IntegrityError, InternalError, ProgrammingError, connection, transaction
from django.utils import timezone

from games import services
from games.models import Event, Game, Player, Snapshot
from games.rules import registry, rng
from games.rules import whitelotus as wl
from games.services import timing
from tests.games.factories import players, running_game, whose_turn

pytestmark = pytest.mark.django_db


def _legal_text(game: Game, seat: int) -> str:
    """The first command of the seat's menu, written in the game's notation."""
    rules, state = services.rules_of(game), services.head_state(game)
    return rules.notation.format_command(state, rules.legal(state, seat)[0])


def test_create_game_records_config_seed_and_seats_in_the_first_event():
    game = services.create_game(players(3), edition="designer", seed="s1", options={"zero_card": False})
    first = game.events.get(seq=1)
    assert first.kind == Event.Kind.CREATED
    assert first.payload["seed"] == "s1"
    assert first.payload["config"]["edition"] == "designer"
    assert first.payload["config"]["options"]["zero_card"] is False
    assert [s.colour for s in game.seats.all()] == ["red", "blue", "green"]
    assert game.seed_hash == rng.seed_digest("s1")
    assert game.status == Game.Status.NEW and game.engine_version == wl.About.VERSION


def test_a_game_needs_three_to_six_distinct_players():
    with pytest.raises(services.GameError, match="3 to 6"):
        services.create_game(players(2))
    p = players(3)
    with pytest.raises(services.GameError, match="only one seat"):
        services.create_game([p[0], p[0], p[1]])


def test_submit_appends_one_event_with_the_command_as_written():
    game = running_game()
    seat = whose_turn(game)
    text = _legal_text(game, seat)
    result = services.submit(game, seat, text.upper(), source=Event.Source.MAIL, inbound_message_id="<m1@x>")
    event = result.events[0]
    assert (event.seq, event.kind, event.seat, event.source) == (3, "command", seat, "mail")
    assert event.command_text == text.upper() and event.inbound_message_id == "<m1@x>"
    assert event.payload["command"]["type"] == "place"
    game.refresh_from_db()
    assert game.head_seq == 3


def test_an_illegal_command_appends_nothing_and_says_what_is_legal():
    game = running_game()
    seat = whose_turn(game)
    with pytest.raises(services.IllegalMove) as caught:
        services.submit(game, seat, "place Hangzhou")
    assert "no tile lies there" in str(caught.value)
    assert any(line.startswith("place <province>") for line in caught.value.legal)
    assert caught.value.line == "place Hangzhou"
    assert game.events.count() == 2


def test_several_lines_are_applied_all_or_nothing():
    game = running_game(3, edition="designer")
    seat = whose_turn(game)
    with pytest.raises(services.IllegalMove) as caught:
        services.submit(game, seat, f"# my move\n{_legal_text(game, seat)}\nplace Atlantis")
    assert caught.value.line == "place Atlantis"
    assert game.events.count() == 2
    result = services.submit(game, seat, "pass\n\n")
    assert len(result.events) == 1


def test_a_seat_that_is_not_to_move_is_refused():
    game = running_game()
    seat = whose_turn(game)
    other = (seat + 1) % 4
    with pytest.raises(services.IllegalMove, match="Nothing is yours to decide now"):
        services.submit(game, other, _legal_text(game, seat))
    with pytest.raises(services.GameError, match="no seat 7"):
        services.submit(game, 7, "pass")


def test_a_stale_expected_seq_is_refused():
    game = running_game()
    seat = whose_turn(game)
    services.submit(game, seat, _legal_text(game, seat), expected_seq=2)
    with pytest.raises(services.GameError, match=r"outdated decision.*#2.*#3"):
        services.submit(game, whose_turn(game), "pass", expected_seq=2)


def test_paused_unstarted_and_finished_games_refuse_moves():
    game = services.create_game(players(3), seed="x")
    with pytest.raises(services.GameError, match="not started"):
        services.submit(game, 0, "pass")
    services.start_game(game)
    services.pause(game, by=None, reason="dispute")
    with pytest.raises(services.GameError, match="paused"):
        services.submit(game, 0, "pass")
    services.resume(game, by=None, reason="settled")
    kinds = list(game.events.values_list("kind", flat=True))
    assert kinds[-2:] == ["paused", "resumed"]


@pytest.mark.parametrize("rules", registry.names())
def test_moderator_actions_need_a_reason(rules):
    game = running_game(3, rules=rules)
    with pytest.raises(services.GameError, match="Say why"):
        services.pause(game, by=None, reason=" ")


@pytest.mark.parametrize("rules", registry.names())
def test_default_plays_the_rules_default_with_source_deadline(rules):
    game = running_game(3, rules=rules)
    seat = whose_turn(game)
    game_rules, state = services.rules_of(game), services.head_state(game)
    expected = game_rules.notation.format_command(state, game_rules.default(state, seat))
    result = services.apply_default(game, seat, expected_seq=2)
    event = result.events[0]
    assert (event.kind, event.source, event.seat) == ("default", "deadline", seat)
    assert event.command_text == expected


def test_a_whole_game_by_defaults_finishes_the_game():
    game = running_game(3, edition="designer", seed="all-defaults")
    while game.status == Game.Status.RUNNING:
        services.apply_default(game, whose_turn(game))
        game.refresh_from_db()
    assert game.status == Game.Status.FINISHED and game.finished_at is not None
    with pytest.raises(services.GameError, match="over"):
        services.submit(game, 0, "pass")


def test_rollback_undoes_events_but_deletes_none():
    game = running_game(3)
    for _ in range(4):
        seat = whose_turn(game)
        services.submit(game, seat, _legal_text(game, seat))
    before = services.state_at(game, 4)
    services.rollback(game, 4, by=None, reason="misclick")
    game.refresh_from_db()
    assert game.events.count() == 7
    assert game.events.get(seq=7).payload == {"to_seq": 4}
    assert services.head_state(game).to_json() == before.to_json()
    assert [e.seq for e in services.effective(game.events.order_by("seq"))] == [1, 2, 3, 4, 7]


@pytest.mark.parametrize("rules", registry.names())
def test_rollback_refuses_undone_or_pre_start_targets(rules):
    game = running_game(3, rules=rules)
    for _ in range(3):
        seat = whose_turn(game)
        services.submit(game, seat, _legal_text(game, seat))
    services.rollback(game, 3, by=None, reason="r")
    with pytest.raises(services.GameError, match="Cannot roll back to #5"):
        services.rollback(game, 5, by=None, reason="r")
    with pytest.raises(services.GameError, match="Cannot roll back to #1"):
        services.rollback(game, 1, by=None, reason="r")


@pytest.mark.parametrize("rules", registry.names())
def test_replace_seat_hands_the_seat_over_and_is_logged(rules):
    game = running_game(3, rules=rules)
    newcomer = Player.objects.create(name="Gus", email="gus@example.org")
    services.replace_seat(game, 1, newcomer, by=None, reason="left the league")
    assert game.seats.get(position=1).player == newcomer
    event = game.events.order_by("-seq").first()
    assert event is not None and event.kind == "seat_replaced"
    assert event.payload["old"] == "bao@example.org" and event.reason == "left the league"
    with pytest.raises(services.GameError, match="already holds a seat"):
        services.replace_seat(game, 2, newcomer, by=None, reason="again")


@pytest.mark.parametrize("rules", registry.names())
def test_extend_deadline_records_old_and_new(rules):
    game = running_game(3, rules=rules)
    until = timezone.now() + timedelta(days=2)
    before = timing.next_deadline(game)
    services.extend_deadline(game, until, by=None, reason="holiday")
    assert timing.next_deadline(game) == until
    event = game.events.latest("seq")
    assert event.payload["previous"] == before.isoformat()
    assert event.payload["deadline_at"] == until.isoformat()
    with pytest.raises(services.GameError, match="future"):
        services.extend_deadline(game, timezone.now() - timedelta(hours=1), by=None, reason="oops")


def test_an_extension_to_an_earlier_time_is_refused_and_changes_nothing():
    game = running_game(3)
    current = timing.next_deadline(game)
    assert current is not None
    head = game.head_seq
    earlier = current - timedelta(hours=1)  # still in the future, but shorter
    with pytest.raises(services.GameError, match="not later than the current deadline"):
        services.extend_deadline(game, earlier, by=None, reason="a typo")
    with pytest.raises(services.GameError, match="not later than the current deadline"):
        services.extend_deadline(game, current, by=None, reason="the same time")
    with pytest.raises(services.GameError, match="future"):
        services.extend_deadline(game, timezone.now() - timedelta(minutes=1), by=None, reason="past")
    game.refresh_from_db()
    assert (game.head_seq, timing.next_deadline(game)) == (head, current)
    services.extend_deadline(game, current + timedelta(minutes=1), by=None, reason="a minute more")
    assert timing.next_deadline(game) == current + timedelta(minutes=1)


def test_a_decision_without_a_deadline_cannot_be_given_one_as_an_extension():
    game = running_game(3, time_controls=timing.TimeControls(hours_per_decision=None))
    assert timing.next_deadline(game) is None
    with pytest.raises(services.GameError, match="has no deadline, so there is none to extend"):
        services.extend_deadline(game, timezone.now() + timedelta(days=1), by=None, reason="set one")
    assert timing.next_deadline(game) is None


def test_an_extension_for_all_seats_must_pass_the_latest_of_their_deadlines():
    game = running_game(3)
    seat = whose_turn(game)
    current = timing.next_deadline(game)
    assert current is not None
    services.extend_deadline(game, current + timedelta(days=2), by=None, reason="one seat", seat=seat)
    with pytest.raises(services.GameError, match="not later than the current deadline"):
        services.extend_deadline(game, current + timedelta(days=1), by=None, reason="would shorten it")


@pytest.mark.parametrize("rules", registry.names())
def test_replay_from_zero_matches_the_head_after_moves_rollbacks_and_replacements(settings, rules):
    settings.GAMES_SNAPSHOT_EVERY = 5
    game = running_game(4, seed="replay", rules=rules)
    newcomer = Player.objects.create(name="Gus", email="gus@example.org")
    for i in range(60):
        game.refresh_from_db()
        if game.status != Game.Status.RUNNING:
            break
        if i == 20:
            services.rollback(game, 12, by=None, reason="test")
        elif i == 30:
            services.replace_seat(game, 2, newcomer, by=None, reason="test")
        else:
            services.apply_default(game, whose_turn(game))
    assert Snapshot.objects.filter(game=game).exists()
    _full, same = services.replay_game(game)
    assert same


@pytest.mark.parametrize("rules", registry.names())
def test_events_are_append_only_in_the_database(rules):
    game = running_game(3, rules=rules)
    errors = (IntegrityError, InternalError, ProgrammingError)
    with pytest.raises(errors, match="append-only"), transaction.atomic():
        Event.objects.filter(game=game, seq=1).update(reason="tampered")
    with pytest.raises(errors, match="append-only"), transaction.atomic():
        Event.objects.filter(game=game, seq=2).delete()
    assert game.events.count() == 2


@pytest.mark.django_db(transaction=True)
def test_two_concurrent_submits_are_each_applied_once(postgres_only):
    game = running_game(3, edition="designer", seed="race")
    seat = whose_turn(game)
    errors: list[Exception] = []

    def send(text: str) -> None:
        try:
            services.submit(game, seat, text)
        except Exception as error:
            errors.append(error)
        finally:
            connection.close()

    threads = [threading.Thread(target=send, args=(text,)) for text in ("pass", "pass")]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    seqs = list(game.events.order_by("seq").values_list("seq", flat=True))
    assert seqs == list(range(1, len(seqs) + 1))
    # the first pass moved the turn on; the second is then not this seat's move
    assert len(seqs) == 3 and len(errors) == 1
    assert isinstance(errors[0], services.IllegalMove)
