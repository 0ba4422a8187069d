"""Bots for dropped seats (games.services.bots): handed over and taken back as events, playing at once
the decisions their seat owes and nothing else, no mails to the seat, stronger than defaults."""

from __future__ import annotations

import dataclasses
import statistics
from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest
import time_machine
from django.contrib.auth.models import User
from django.utils import timezone

from games import services
from games.models import Event, Game, PendingDecision, Player
from games.rules import registry
from games.rules.selfplay import bot_match
from games.services import bots
from games.services.timing import TimeControls
from notifications import sweep
from notifications.models import OutboundMail
from tests.games.factories import players, running_game

pytestmark = pytest.mark.django_db

Capture = Callable[..., Any]


@pytest.fixture(autouse=True)
def _bot_tasks_run_here() -> Any:
    """The bots' task runs in the process that commits, as a worker would run it: with Redis
    (CI) the task would otherwise wait in a queue that no worker of the test run reads."""
    from whitelotus.celery import app

    eager = app.conf.task_always_eager
    app.conf.task_always_eager = True
    yield
    app.conf.task_always_eager = eager


def owing(game: Game) -> set[int]:
    return set(PendingDecision.objects.owed().filter(game=game).values_list("seat", flat=True))


def moves_of(game: Game, seat: int) -> list[Event]:
    return list(game.events.filter(kind__in=services.MOVE_KINDS, seat=seat).order_by("seq"))


def vs_game(n: int = 3, seed: str = "bots") -> Game:
    game = services.create_game(players(n), rules="verbotenestadt", seed=seed)
    services.start_game(game)
    game.refresh_from_db()
    return game


def test_handing_a_seat_to_the_bot_is_an_event_with_who_and_why_and_marks_the_seat(
    django_user_model: type[User],
):
    jo = django_user_model.objects.create_user("jo", is_superuser=True)
    game = running_game(3)
    services.pause(game, by=jo, reason="looking into it")  # the bot must not play yet
    bots.hand_to_bot(game, 1, by=jo, reason="Bao has not answered for a week")
    event = game.events.order_by("-seq").first()
    assert event is not None
    assert (event.kind, event.seat, event.source, event.actor) == ("bot_seated", 1, "moderator", jo)
    assert event.reason == "Bao has not answered for a week"
    seat = game.seats.get(position=1)
    assert seat.bot_since is not None and seat.player.name == "Bao"  # the seat stays Bao's
    assert bots.bot_seats(game) == {1}
    with pytest.raises(services.GameError, match="already played by a bot"):
        bots.hand_to_bot(game, 1, by=jo, reason="again")
    with pytest.raises(services.GameError, match="Say why"):
        bots.hand_to_bot(game, 2, by=jo, reason=" ")


def test_the_bot_plays_legal_moves_at_once_until_its_seat_owes_nothing(
    django_capture_on_commit_callbacks: Capture,
):
    game = vs_game()
    assert owing(game) == {0, 1, 2}  # everybody dials, sealed
    with django_capture_on_commit_callbacks(execute=True):
        bots.hand_to_bot(game, 0, by=None, reason="dropped out")
    played = moves_of(game, 0)
    assert played and all(e.kind == "command" and e.source == "bot" for e in played)
    assert 0 not in owing(game)
    assert owing(game) == {1, 2}  # the people still owe theirs
    _, same = services.replay_game(game)
    assert same  # legal moves, replayed to the same state


def test_the_bot_plays_its_seat_through_a_whole_game_and_never_a_human_seat(
    django_capture_on_commit_callbacks: Capture,
):
    game = running_game(3, seed="whole")
    with django_capture_on_commit_callbacks(execute=True):
        bots.hand_to_bot(game, 2, by=None, reason="dropped out")
    rules = services.rules_of(game)
    for _ in range(2000):
        game.refresh_from_db()
        if game.status == Game.Status.FINISHED:
            break
        assert 2 not in owing(game)  # the bot never leaves its seat's decision waiting
        seat = min(owing(game))
        state = services.head_state(game)
        with django_capture_on_commit_callbacks(execute=True):
            services.submit(game, seat, rules.default(state, seat))
    assert game.status == Game.Status.FINISHED
    by_bot = game.events.filter(source=Event.Source.BOT)
    assert by_bot.exists() and set(by_bot.values_list("seat", flat=True)) == {2}


def test_each_bot_move_is_its_own_event_keyed_by_game_seat_and_head_not_by_the_seed():
    game = vs_game()
    bots.hand_to_bot(game, 0, by=None, reason="dropped out")
    head = Game.objects.get(pk=game.pk).head_seq
    assert bots.play(game.pk) == 1  # one dial: then the seat owes nothing
    rules = services.rules_of(game)
    state = services.state_at(game, head)
    expected = rules.about.Bot(f"{game.pk}:0:{head}").choose(state, 0)
    event = game.events.get(seq=head + 1)
    assert event.payload["command"] == rules.serial.command_to_dict(expected)
    assert bots.play(game.pk) == 0  # idempotent: nothing owed, nothing played


def test_the_bot_does_not_play_while_the_game_is_paused(django_capture_on_commit_callbacks: Capture):
    game = vs_game()
    services.pause(game, by=None, reason="a moment")
    with django_capture_on_commit_callbacks(execute=True):
        bots.hand_to_bot(game, 0, by=None, reason="dropped out")
    assert moves_of(game, 0) == []
    with django_capture_on_commit_callbacks(execute=True):
        services.resume(game, by=None, reason="go on")
    assert [e.source for e in moves_of(game, 0)] == ["bot"]


def test_the_bot_reads_no_other_seats_sealed_dial():
    """Die Verbotene Stadt's dials are sealed: the bot's choice for a seat is the same
    whatever official the other seats dialled."""
    rules = registry.get("verbotenestadt")
    config = rules.serial.make_config(
        rules.serial.load_board(rules.about.default_board), 3, "ravensburger", {}, 0
    )
    state = rules.setup(config, "sight")
    seen = 0
    for step in range(400):
        decisions = rules.pending(state)
        if not decisions:
            break
        seat = decisions[0].seat
        choice = rules.about.Bot(f"k{step}").choose(state, seat)
        dials = list(state.dials)
        others = [c for c in state.on_board() if c not in dials]
        if others and any(d is not None for s, d in enumerate(dials) if s != seat):
            changed = tuple(d if s == seat or d is None else others[0] for s, d in enumerate(dials))
            other = dataclasses.replace(state, dials=changed)
            assert rules.about.Bot(f"k{step}").choose(other, seat) == choice, step
            seen += 1
        state, _ = rules.apply(state, seat, choice)
    assert seen > 20


def test_no_mail_is_written_for_a_bot_held_seat_and_its_player_is_told_once_how_to_come_back(
    django_capture_on_commit_callbacks: Capture,
):
    game = running_game(3, seed="quiet")
    OutboundMail.objects.all().delete()
    with django_capture_on_commit_callbacks(execute=True):
        bots.hand_to_bot(game, 1, by=None, reason="dropped out")
    told = OutboundMail.objects.filter(game=game, seat=1)
    assert list(told.values_list("kind", "to_email")) == [("to_bot", "bao@example.org")]
    others = OutboundMail.objects.filter(game=game, kind="bot_seated")
    assert sorted(s for s in others.values_list("seat", flat=True) if s is not None) == [0, 2]
    rules = services.rules_of(game)
    for _ in range(30):  # the game goes on: the others get their mails, seat 1 none
        game.refresh_from_db()
        seat = min(owing(game))
        with django_capture_on_commit_callbacks(execute=True):
            services.submit(game, seat, rules.default(services.head_state(game), seat))
    assert OutboundMail.objects.filter(game=game, seat=1).count() == 1
    assert OutboundMail.objects.filter(game=game, seat__in=(0, 2), kind="decision").exists()


def test_the_mails_of_the_others_name_the_bot_seat_as_played_by_the_bot():
    from notifications.outbound import emails

    game = running_game(3, seed="named")
    bots.hand_to_bot(game, 1, by=None, reason="dropped out")
    mail = OutboundMail.objects.filter(game=game, seat=0, kind="bot_seated").get()
    text = emails.render(mail).text
    assert "Bao (bot)" in text
    assert "From now on the service's bot plays" in " ".join(text.split())
    assert all(len(line) <= 80 for line in text.splitlines())


def test_the_player_takes_the_seat_back_by_replying_back_and_gets_the_menu(
    django_capture_on_commit_callbacks: Capture,
):
    from notifications.outbound import emails
    from notifications.services import tokens
    from tests.notifications.helpers import compose, receive

    game = vs_game(seed="back")
    with django_capture_on_commit_callbacks(execute=True):
        bots.hand_to_bot(game, 1, by=None, reason="dropped out")
    seat = game.seats.get(position=1)
    told = OutboundMail.objects.get(kind="to_bot", seat=1)
    assert "zurück" not in emails.render(told).text and "\n  back\n" in emails.render(told).text
    receive(compose(tokens.reply_address(seat), "bao@example.org", "back"))
    seat.refresh_from_db()
    assert seat.bot_since is None
    event = game.events.order_by("-seq").first()
    assert event is not None and (event.kind, event.seat, event.source) == ("bot_unseated", 1, "mail")
    assert OutboundMail.objects.filter(game=game, seat=1, kind="bot_unseated").exists()
    with pytest.raises(services.GameError, match="not played by a bot"):
        bots.take_back(game, 1)


def test_a_replacement_ends_the_bots_tenure_with_the_usual_hand_over():
    game = running_game(3)
    bots.hand_to_bot(game, 1, by=None, reason="dropped out")
    newcomer = Player.objects.create(name="Gus", email="gus@example.org")
    services.replace_seat(game, 1, newcomer, by=None, reason="Gus takes over")
    seat = game.seats.get(position=1)
    assert seat.player == newcomer and seat.bot_since is None
    event = game.events.order_by("-seq").first()
    assert event is not None and event.kind == "seat_replaced" and event.payload["from_bot"] is True
    assert OutboundMail.objects.filter(
        game=game, seat=1, kind="invitation", context__replacing="bao@example.org"
    )


def test_a_rollback_to_before_the_hand_over_leaves_the_seat_with_the_bot():
    """Like a replacement, a hand-over is not a move: a rollback undoes moves, not who plays."""
    game = vs_game(seed="roll")
    start = Game.objects.get(pk=game.pk).head_seq
    bots.hand_to_bot(game, 0, by=None, reason="dropped out")
    bots.play(game.pk)
    services.rollback(game, start, by=None, reason="a mistake")
    assert bots.bot_seats(game) == {0}
    assert 0 in owing(game)  # its dial was undone: the bot owes it again
    assert bots.play(game.pk) == 1


def test_the_sweep_lets_the_bot_play_a_due_bot_seat_instead_of_the_default():
    start = timezone.now()
    with time_machine.travel(start, tick=False) as clock:
        game = services.create_game(
            players(3), rules="verbotenestadt", seed="sweep", time_controls=TimeControls(hours_per_decision=1)
        )
        services.start_game(game)
        bots.hand_to_bot(game, 0, by=None, reason="dropped out")  # its task "lost": no on_commit here
        clock.move_to(start + timedelta(hours=2))
        sweep.sweep()
    assert [e.source for e in moves_of(game, 0)] == ["bot"]
    assert {e.source for e in moves_of(game, 1)} == {"deadline"}


def test_a_broken_bot_gets_the_default_and_stops_no_other_games_sweep(monkeypatch):
    start = timezone.now()
    with time_machine.travel(start, tick=False) as clock:
        clock_of = TimeControls(hours_per_decision=1)
        broken = services.create_game(
            players(3), rules="verbotenestadt", seed="broken", time_controls=clock_of
        )
        services.start_game(broken)
        bots.hand_to_bot(broken, 0, by=None, reason="dropped out")  # no on_commit: the bot waits
        other = services.create_game(players(3), rules="verbotenestadt", seed="other", time_controls=clock_of)
        services.start_game(other)
        rules = registry.get("verbotenestadt")

        class Broken:
            def __init__(self, key: str) -> None:
                pass

            def choose(self, state: Any, seat: int) -> Any:
                raise KeyError("a bug in the bot")

        monkeypatch.setattr(rules.about, "Bot", Broken)
        clock.move_to(start + timedelta(hours=2))
        sweep.sweep()
    assert [e.source for e in moves_of(broken, 0)] == ["deadline"]  # the default, not a stuck game
    assert {e.source for e in moves_of(other, 0)} == {"deadline"}  # the other game swept too


@pytest.mark.parametrize("game_name", ["whitelotus", "verbotenestadt"])
def test_a_bot_seat_scores_clearly_more_than_an_all_default_seat(game_name):
    """bench/bots.py measures 40 games per line-up; 12 here, seats rotating, one bot among
    defaults: the bot's mean score is at least twice a default seat's, and it wins most."""
    rules = registry.get(game_name)
    matches = [bot_match(rules, 4, f"t{g}", frozenset({g % 4})) for g in range(12)]
    bot = [m.scores[s] for m in matches for s in m.bots]
    default = [m.scores[s] for m in matches for s in range(4) if s not in m.bots]
    wins = sum(1 for m in matches for s in m.bots if m.rank[s] == 1)
    assert statistics.fmean(bot) >= 2 * statistics.fmean(default)
    assert wins >= 9


def test_the_game_page_names_the_seat_the_bot_plays(client):
    from games.services.links import game_page_url

    game = running_game(3, seed="page")
    bots.hand_to_bot(game, 1, by=None, reason="dropped out")
    html = client.get(game_page_url(game)).content.decode()
    assert "Bao (bot)" in html and "Ada (bot)" not in html
    assert "is now played by the service&#x27;s bot" in html  # the log says when


def _mail_from_seat(game: Game, position: int, body: str) -> Any:
    from notifications.services import tokens
    from tests.notifications.helpers import compose, receive

    seat = game.seats.select_related("player").get(position=position)
    return receive(compose(tokens.reply_address(seat), seat.player.email, body))


def _a_legal_line(game: Game, position: int) -> str:
    rules = services.rules_of(game)
    state = services.head_state(game)
    return str(rules.notation.format_command(state, rules.default(state, position)))


def test_moves_from_a_seat_the_bot_plays_are_refused_with_how_to_take_it_back():
    game = running_game(3, seed="bot-moves")  # seat 0 owes its first placement
    bots.hand_to_bot(game, 0, by=None, reason="dropped out")  # no on_commit: the bot waits
    head = Game.objects.get(pk=game.pk).head_seq
    row = _mail_from_seat(game, 0, _a_legal_line(game, 0))
    assert row.status == "refused" and Game.objects.get(pk=game.pk).head_seq == head
    answer = OutboundMail.objects.filter(game=game, seat=0, kind="error").latest("pk")
    assert "write back on the first line" in answer.context["message"]


def test_back_and_moves_in_one_mail_take_the_seat_back_first_then_play_as_the_player():
    game = running_game(3, seed="bot-back-moves")
    bots.hand_to_bot(game, 0, by=None, reason="dropped out")
    row = _mail_from_seat(game, 0, "back\n" + _a_legal_line(game, 0))
    assert row.status == "applied"
    assert game.seats.get(position=0).bot_since is None
    kinds = list(game.events.filter(seq__gt=2).order_by("seq").values_list("kind", "source"))
    assert kinds[-2:] == [("bot_unseated", "mail"), ("command", "mail")]
