"""The service hosts games, not one game: a second game (tests.secondgame: White Lotus's engine
under another name, with its own clock, short window and picture) is created, played,
timed, shown, exported and imported through the registry alone."""

from __future__ import annotations

from datetime import timedelta
from io import StringIO

import pytest
from django.core.management import CommandError, call_command
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone, translation

from games import jobs, services
from games.models import Game, PendingDecision
from games.presentation import display
from games.rules import registry
from games.services import timing
from games.services.timing import TimeControls
from tests import secondgame
from tests.games.factories import players

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def second_game():
    with secondgame.installed():
        yield


def second(n: int = 3, **kw) -> Game:
    game = services.create_game(players(n), rules="second", seed="second", **kw)
    services.start_game(game)
    game.refresh_from_db()
    return game


def test_a_game_of_another_game_is_created_with_that_games_defaults():
    game = services.create_game(players(3), rules="second", seed="s")
    assert game.rules == "second"
    assert game.engine_version == "second-1"
    assert game.edition == "kosmos"  # the game's first edition
    assert game.board == "china"  # the game's board
    assert game.options == dict(registry.get("second").about.OPTIONS)
    assert TimeControls.from_dict(game.time_controls).hours_per_decision == 24  # the game's clock
    assert [s.colour for s in game.seats.order_by("position")] == ["red", "blue", "green"]


def test_the_callers_clock_is_merged_over_the_games():
    game = services.create_game(players(3), rules="second", time_controls={"grace_hours": 2})
    tc = TimeControls.from_dict(game.time_controls)
    assert (tc.hours_per_decision, tc.grace_hours) == (24, 2)
    whole = services.create_game(players(3), rules="second", time_controls=TimeControls(hours_per_decision=5))
    assert TimeControls.from_dict(whole.time_controls).hours_per_decision == 5


def test_white_lotus_keeps_the_services_clock_and_its_stored_form():
    game = services.create_game(players(3), seed="wl")
    assert game.rules == "whitelotus"
    assert game.time_controls == TimeControls().to_dict()


@pytest.mark.parametrize(
    ("kw", "says"),
    [
        ({"options": {"dragons": True}}, "Second Game has no option dragons"),
        ({"edition": "deluxe"}, "Second Game has no edition 'deluxe'"),
        ({"rules": "chess"}, "no game called 'chess'"),
    ],
)
def test_what_a_game_does_not_have_is_refused_clearly(kw, says):
    kw = {"rules": "second", **kw}
    with pytest.raises(services.GameError, match=says):
        services.create_game(players(3), **kw)
    assert not Game.objects.exists()


def test_the_games_player_counts_are_its_own():
    with pytest.raises(services.GameError, match="Second Game is for 3 to 4 players"):
        services.create_game(players(5), rules="second")
    with pytest.raises(services.GameError, match="White Lotus is for 3 to 6 players"):
        services.create_game(players(2))


def test_first_seat_is_the_generic_name_of_the_first_emperor():
    game = services.create_game(players(3), rules="second", first_seat=2, seed="f")
    assert services.config_of(game).first_emperor == 2
    lot = services.create_game(players(3), first_seat=None, seed="f")
    assert services.config_of(lot).first_emperor is None
    kept = services.create_game(players(3), first_seat=1, seed="f")
    assert services.config_of(kept).first_emperor == 1


def test_a_short_window_caps_that_decisions_deadline():
    before = timezone.now()
    game = second()
    row = PendingDecision.objects.owed().get(game=game)
    assert row.kind == "place"
    assert row.deadline_at is not None
    assert before + timedelta(hours=3) <= row.deadline_at <= timezone.now() + timedelta(hours=3)


def test_a_short_window_is_not_longer_than_the_clock():
    game = second(time_controls={"hours_per_decision": 1})
    row = PendingDecision.objects.owed().get(game=game)
    assert row.deadline_at is not None and row.deadline_at <= timezone.now() + timedelta(hours=1)


def test_the_window_is_the_shorter_of_the_clock_and_the_short_window():
    tc = TimeControls(hours_per_decision=48)
    assert timing.window(tc) == timedelta(hours=48)
    assert timing.window(tc, 12) == timedelta(hours=12)
    assert timing.window(TimeControls(hours_per_decision=6), 12) == timedelta(hours=6)
    assert timing.window(TimeControls(hours_per_decision=None), 12) == timedelta(hours=12)
    assert timing.window(TimeControls(hours_per_decision=None)) is None
    start = timezone.now()
    assert timing.deadline(start, tc, [], most_hours=12) == start + timedelta(hours=12)


def test_a_game_of_another_game_plays_to_the_end_and_replays():
    game = second()
    rules = services.rules_of(game)
    state = services.head_state(game)
    bots = [rules.about.Bot(f"second:{s}") for s in range(3)]
    while decisions := rules.pending(state):
        seat = decisions[0].seat
        services.submit(game, seat, bots[seat].choose(state, seat))
        state = services.head_state(game)
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    assert not PendingDecision.objects.filter(game=game).exists()
    services.clear_caches()
    _, same = services.replay_game(game)
    assert same
    assert jobs.replay_game(game).outcome is not None


def test_its_record_names_the_game_and_imports_as_that_game():
    game = second()
    rules = services.rules_of(game)
    state = services.head_state(game)
    for _ in range(5):
        seat = rules.pending(state)[0].seat
        services.submit(game, seat, rules.default(state, seat))
        state = services.head_state(game)
    text = jobs.export_record(game)
    lines = text.splitlines()
    assert lines[:4] == ["# Second Game game record", "rules: second", "version: second-1", "edition: kosmos"]
    assert "first_seat: red" in lines
    copy = jobs.import_record(text, name="copy")
    assert copy.rules == "second"
    assert rules.serial.state_to_dict(services.head_state(copy)) == rules.serial.state_to_dict(state)
    assert jobs.export_record(copy).split("\n\n")[1] == text.split("\n\n")[1]


def test_a_white_lotus_record_has_no_rules_line():
    game = services.create_game(players(3), seed="wl")
    services.start_game(game)
    text = jobs.export_record(game)
    assert text.startswith("# White Lotus game record\nedition: kosmos\n")
    assert "rules:" not in text and "first_emperor: red" in text


def test_a_record_of_a_game_there_is_not_is_refused():
    with pytest.raises(jobs.JobError, match="no game called 'chess'"):
        jobs.import_record("# record\nrules: chess\ncolours: red blue green\nseed: 1\n\n")


def test_the_operators_create_game_makes_a_game_of_the_game_asked_for():
    game = jobs.create_game(["a@example.org", "b@example.org", "c@example.org"], rules="second", start=True)
    assert (game.rules, game.status) == ("second", Game.Status.RUNNING)
    assert "Second Game, kosmos" in jobs.describe_created(game)
    with pytest.raises(jobs.JobError, match="There is no game 'chess'"):
        jobs.create_game(["a@example.org"], rules="chess")
    shown = jobs.show_game(game, colour="red")
    assert "The second game's board, 3 players" in shown
    assert "you may:" in shown
    assert "Provinces in play" not in shown  # White Lotus's own text


def test_show_game_gives_a_games_own_operator_text_in_place_of_its_text_board(monkeypatch):
    def operator_text(view, names):
        return [f"the second game for the operator: {names['red']}, waiting {len(view['pending'])}"]

    monkeypatch.setattr(secondgame.Presentation, "operator_text", staticmethod(operator_text))
    game = jobs.create_game(["a@example.org", "b@example.org", "c@example.org"], rules="second", start=True)
    shown = jobs.show_game(game, colour="red", log=0)
    assert shown.startswith(f"Game {game.pk}: Second Game, kosmos, board china, running, event #")
    assert "the second game for the operator: a <a@example.org>, waiting 1" in shown
    assert "The second game's board" not in shown and "you may:" in shown


def test_the_pages_draw_the_games_own_picture_and_name_the_game(client):
    game = second()
    page = client.get(reverse("games:game", args=[game.pk]))
    assert page.status_code == 200
    html = page.content.decode()
    assert 'data-game="second"' in html
    assert "Second Game by mail" in html
    assert "influence" not in html  # White Lotus's hands are in White Lotus's partials only
    # White Lotus's engine under another name: its editions keep White Lotus's words
    assert "Second Game · Kosmos (published rules)" in client.get(reverse("games:index")).content.decode()
    replay = client.get(reverse("games:replay-step", args=[game.pk, 2]))
    assert replay.status_code == 200 and 'data-game="second"' in replay.content.decode()


def test_white_lotus_pages_keep_their_partials(client):
    game = services.create_game(players(3), seed="wl")
    services.start_game(game)
    html = client.get(reverse("games:game", args=[game.pk])).content.decode()
    assert 'class="province"' in html and "VP chips" in html
    assert "White Lotus by mail" in html
    assert display.partials("whitelotus")["hand"] == "games/whitelotus/_hand.html"
    assert display.partials("second")["hand"] == "games/generic/_hand.html"


def test_an_edition_is_checked_against_the_games_editions():
    game = services.create_game(players(3), rules="second", seed="e")
    game.full_clean()
    game.edition = "deluxe"
    with pytest.raises(Exception, match="not an edition of this game"):
        game.full_clean()
    assert game.get_edition_display() == "deluxe"
    wl = services.create_game(players(3), seed="e")
    assert wl.get_edition_display() == "Kosmos (published rules)"


@pytest.mark.parametrize(
    ("language", "title"),
    [("en", "Second Game by mail"), ("de", "Second Game per Mail"), ("fr", "Second Game par courriel")],
)
def test_the_site_title_names_the_game_in_the_readers_language(language, title):
    with translation.override(language):
        shown = render_to_string(
            "games/_site_title.html", {"game": Game(rules="second"), "game_title": "Second Game"}
        )
    assert shown == title


def test_manage_py_create_game_takes_the_game_and_its_options():
    out = StringIO()
    players_ = "--player=a@example.org,b@example.org,c@example.org"
    call_command("create_game", players_, "--rules", "second", "--option", "open_hands=yes", stdout=out)
    game = Game.objects.get()
    assert (game.rules, game.options["open_hands"]) == ("second", True)
    assert "Second Game, kosmos" in out.getvalue()
    with pytest.raises(CommandError, match="White Lotus's options"):
        call_command("create_game", players_, "--rules", "second", "--negotiation", stdout=StringIO())
    with pytest.raises(CommandError, match="no option dragons"):
        call_command("create_game", players_, "--rules", "second", "--option", "dragons=1", stdout=StringIO())
    from games.management.commands.create_game import Command

    assert "second (Second Game: 3, 4 players; editions kosmos, designer;" in Command().help
