"""Table talk (``games.services.press``): who may say what to whom, how it is kept (apart from the
event log, append-only), its limits, the game's and the season's option, and where it is
shown: never to a seat it was not said to or by."""

from __future__ import annotations

import html
import random
from datetime import timedelta

import pytest
import time_machine
from django.core import mail as django_mail
from django.db import DatabaseError, transaction
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from games import services
from games.models import Game, PendingDecision, Press
from games.presentation import steps
from games.services import links
from games.services import press as table_talk
from leagues.models import League, Season
from leagues.seating import seat_round
from tests.games.factories import play_randomly, players, running_game

pytestmark = pytest.mark.django_db

SECRET = "meet me behind Hangzhou"


@pytest.fixture(autouse=True)
def _fresh_timelines() -> None:
    steps.clear_cache()


def say(game: Game, seat: int, whom: str, text: str) -> Press:
    return table_talk.say(game, seat, whom.split(), text)


def refusal(game: Game, seat: int, whom: str, text: str = "hello") -> str:
    with pytest.raises(services.GameError) as error:
        say(game, seat, whom, text)
    return str(error.value)


def full_game(n: int = 4, **kw) -> Game:
    return running_game(n, seed="talk", press="full", **kw)


def page(client: Client, url: str) -> str:
    response = client.get(url)
    assert response.status_code == 200, url
    return html.unescape(response.content.decode())


# --- the option ---------------------------------------------------------------------------------


def test_a_game_with_the_negotiation_variant_has_full_press_by_default():
    game = services.create_game(players(3), options={"negotiation": True})
    assert game.press == Game.Press.FULL


def test_a_game_without_the_negotiation_variant_has_public_press_by_default():
    assert services.create_game(players(3)).press == Game.Press.PUBLIC
    vs = services.create_game(players(4), rules="verbotenestadt", edition="ravensburger")
    assert vs.press == Game.Press.PUBLIC


def test_an_unknown_press_option_is_refused_at_creation():
    with pytest.raises(services.GameError, match="press is one of full, public, none"):
        services.create_game(players(3), press="loud")


def test_the_create_game_command_sets_the_press_option(capsys):
    from django.core.management import call_command

    call_command("create_game", "--player", "a@x.org,b@x.org,c@x.org", "--press", "none")
    assert Game.objects.get().press == Game.Press.NONE


def test_a_seasons_games_get_the_seasons_press_option():
    league = League.objects.create(name="Quiet League", slug="quiet")
    season = Season.objects.create(league=league, name="Winter", press=Game.Press.NONE)
    for player in players(3):
        season.memberships.create(player=player)
    (game,) = seat_round(season, seed="s")
    assert game.press == Game.Press.NONE


def test_a_season_without_a_press_option_gives_the_games_default():
    league = League.objects.create(name="Deal League", slug="deal")
    season = Season.objects.create(league=league, name="Spring", options={"negotiation": True})
    for player in players(3):
        season.memberships.create(player=player)
    (game,) = seat_round(season, seed="s")
    assert game.press == Game.Press.FULL


def test_gunboat_refuses_every_message():
    game = running_game(3, seed="talk", press="none")
    assert refusal(game, 0, "all") == "This game is gunboat: no table talk."


def test_public_press_refuses_a_private_message_and_names_the_way():
    game = running_game(3, seed="talk")
    assert refusal(game, 0, "blue") == "Only messages to all are allowed in this game: write say all: …"
    assert say(game, 0, "all", "hello").to_seats == [1, 2]


# --- whom, and the limits ---------------------------------------------------------------------


def test_addressees_are_read_by_colour_in_english_german_and_french():
    game = full_game()
    assert say(game, 0, "blue", "a").to_seats == [1]
    assert say(game, 0, "blau grün", "b").to_seats == [1, 2]
    assert say(game, 0, "bleu jaune", "c").to_seats == [1, 3]
    assert say(game, 0, "alle", "d").to_all
    assert say(game, 0, "tous", "e").to_seats == [1, 2, 3]


def test_an_unknown_colour_is_refused_with_the_seats_one_may_name():
    game = full_game()
    assert refusal(game, 0, "purple") == (
        "There is no seat purple in this game; write all or one of: Blue, Green, Yellow."
    )


def test_talking_to_ones_own_seat_is_refused():
    assert refusal(full_game(), 0, "red") == "You cannot talk to your own seat; write all or other seats."


def test_all_beside_colours_is_refused():
    assert "not both" in refusal(full_game(), 0, "all blue")


def test_an_empty_message_is_refused():
    assert refusal(full_game(), 0, "all", "  ").startswith("Your message is empty")


def test_a_message_over_the_length_limit_is_refused_and_one_at_it_is_kept():
    game = full_game()
    assert refusal(game, 0, "all", "x" * (table_talk.MAX_LENGTH + 1)) == (
        "Your message has 2001 characters; at most 2000 are allowed."
    )
    assert len(say(game, 0, "all", "x" * table_talk.MAX_LENGTH).text) == table_talk.MAX_LENGTH


def test_a_seat_may_say_twenty_messages_a_day_and_more_the_next_day():
    game = full_game()
    for i in range(table_talk.RATE):
        say(game, 0, "all", f"message {i}")
    assert "20 messages in the last 24 hours" in refusal(game, 0, "all")
    say(game, 1, "all", "the others may still talk")
    with time_machine.travel(timezone.now() + timedelta(hours=24, minutes=1)):
        say(game, 0, "all", "a new day")


def test_no_talk_before_the_start_or_after_the_end_but_while_paused():
    game = services.create_game(players(3), press="full")
    assert refusal(game, 0, "all") == "This game has not started yet."
    services.start_game(game)
    services.pause(game, by=None, reason="server move")
    assert say(game, 0, "all", "still here").to_all
    services.resume(game, by=None, reason="done")
    play_randomly(game, random.Random(1))
    assert refusal(game, 0, "all") == "This game is over: no more table talk."


# --- the log is not touched ---------------------------------------------------------------------


def test_talk_moves_neither_the_head_nor_any_decision_nor_its_deadline():
    game = full_game()
    before = list(PendingDecision.objects.filter(game=game).values())
    head = game.head_seq
    say(game, 1, "red", "psst")
    game.refresh_from_db()
    assert game.head_seq == head and game.events.count() == head
    assert list(PendingDecision.objects.filter(game=game).values()) == before


def test_a_rollback_does_not_undo_what_was_said():
    game = full_game()
    play_randomly(game, random.Random(2), moves=3)
    said = say(game, 0, "all", "before the rollback")
    services.rollback(game, 2, by=None, reason="a mistake")
    assert Press.objects.filter(pk=said.pk).exists()
    assert said.seq == 5  # said after the third move (events 1, 2: created, started), as the audit shows


def test_the_database_refuses_to_change_or_delete_a_message():
    said = say(full_game(), 0, "all", "on the record")
    for statement in (
        lambda: Press.objects.filter(pk=said.pk).update(text="rewritten"),
        lambda: Press.objects.filter(pk=said.pk).delete(),
    ):
        with pytest.raises(DatabaseError), transaction.atomic():
            statement()
    assert Press.objects.get(pk=said.pk).text == "on the record"


# --- who sees it ----------------------------------------------------------------------------------


def test_a_private_message_is_shown_only_to_its_sender_and_addressees_while_the_game_runs(client):
    game = full_game()
    say(game, 0, "blue", SECRET)
    say(game, 2, "all", "hello everyone")
    seats = {s.position: s for s in game.seats.all()}
    for position, seat in seats.items():
        text = page(client, links.seat_page_url(seat))
        assert (SECRET in text) == (position in (0, 1)), position
        assert "hello everyone" in text
    public = page(client, reverse("games:game", args=[game.pk]))
    assert SECRET not in public and "hello everyone" not in public
    for step in (1, game.head_seq - 1):
        replay = page(client, reverse("games:replay-step", args=[game.pk, step]))
        assert SECRET not in replay and "hello everyone" not in replay
    for mail in django_mail.outbox:
        assert SECRET not in mail.body + mail.alternatives[0][0]


def test_the_replay_shows_all_talk_once_the_game_is_over_at_the_step_it_was_said(client):
    game = full_game(3)
    play_randomly(game, random.Random(3), moves=2)
    said = say(game, 0, "blue", SECRET)
    play_randomly(game, random.Random(3))
    tl = steps.timeline(game)
    at = next(s.number for s in tl.steps if s.event.seq == said.seq)
    shown = page(client, reverse("games:replay-step", args=[game.pk, at]))
    assert SECRET in shown and "Table talk after this step" in shown
    other = page(client, reverse("games:replay-step", args=[game.pk, at + 1]))
    assert SECRET not in other


def test_the_game_page_shows_the_press_option(client):
    game = running_game(3, seed="talk", press="none")
    assert "Table talk: none (gunboat)" in page(client, reverse("games:game", args=[game.pk]))


# --- moderators ---------------------------------------------------------------------------------


@pytest.fixture
def moderator_client(client, django_user_model):
    from django.contrib.auth.models import Group

    user = django_user_model.objects.create_user("mod", "mod@example.org", "pw", is_staff=True)
    user.groups.add(Group.objects.get_or_create(name="moderators")[0])
    client.force_login(user)
    return client


def test_moderators_read_every_message_in_the_audit_page_and_the_read_only_admin(moderator_client):
    game = full_game()
    said = say(game, 0, "blue", SECRET)
    audit = page(moderator_client, reverse("admin:games_game_audit", args=[game.pk]))
    assert SECRET in audit and "Table talk" in audit
    listed = page(moderator_client, reverse("admin:games_press_changelist"))
    assert SECRET in listed
    change = moderator_client.post(reverse("admin:games_press_change", args=[said.pk]), {"text": "x"})
    assert change.status_code in (302, 403) and Press.objects.get(pk=said.pk).text == SECRET


def test_a_private_message_only_to_seats_the_bot_plays_is_refused_and_with_others_is_kept():
    from games.services import bots

    game = full_game()
    colours = dict(game.seats.values_list("position", "colour"))
    bots.hand_to_bot(game, 1, by=None, reason="dropped out")
    assert "is played by the bot for now" in refusal(game, 0, colours[1])
    kept = say(game, 0, f"{colours[1]} {colours[2]}", "a deal?")  # a human reads it
    assert kept.to_seats == [1, 2]
    assert say(game, 0, "all", "hello").to_all


def test_a_refusal_for_a_seat_the_bot_plays_names_the_seat_in_the_readers_language():
    from django.utils import translation
    from django.utils.translation import gettext

    from games.services import bots

    game = full_game()
    colours = dict(game.seats.values_list("position", "colour"))
    bots.hand_to_bot(game, 1, by=None, reason="dropped out")
    with pytest.raises(services.GameError) as error:
        say(game, 0, colours[1], "hello")
    with translation.override("de"):
        german = error.value.text.render(gettext)
        seat = gettext(colours[1]).capitalize()
    assert german.startswith(f"{seat} wird gerade vom Bot gespielt"), german
    assert colours[1] not in german  # not the stored English colour ("green")
