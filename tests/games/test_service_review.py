"""What a review of the game-agnostic service found (issue 13), each with the test that
showed it: the pinned rules version is compared with the code's; Die Verbotene Stadt's start
player is by lot unless someone names one; option values are checked against their
defaults' types; records read a former option name and say their rules version; a season
takes the chosen game's edition and board; the clock's help names the short windows; a mail
event does not count the seats again."""

from __future__ import annotations

from io import StringIO
from typing import Any

import pytest
from django.core.management import CommandError, call_command
from django.db import connection
from django.test.utils import CaptureQueriesContext

from games import cli, services
from games.admin_views import TimeControlsForm
from games.models import Game
from games.rules import registry
from leagues.admin import SeasonForm
from leagues.models import League, Season
from leagues.seating import SeatingError, season_counts, seat_round
from notifications.localmail.demo import create_demo
from tests.games.factories import players

pytestmark = pytest.mark.django_db

VS = "verbotenestadt"


def vs_game(n: int = 3, seed: str = "review", **kw: Any) -> Game:
    game = services.create_game(players(n), rules=VS, seed=seed, **kw)
    services.start_game(game)
    game.refresh_from_db()
    return game


def play(game: Game, moves: int) -> Any:
    rules = services.rules_of(game)
    state = services.head_state(game)
    bots = [rules.Bot(f"review:{s}") for s in range(services.seats_of(game))]
    for _ in range(moves):
        decisions = rules.pending(state)
        if not decisions:
            break
        seat = decisions[0].seat
        services.submit(game, seat, bots[seat].choose(state, seat))
        state = services.head_state(game)
    game.refresh_from_db()
    return state


def created_under(game: Game, version: str) -> Game:
    """The game as if an older service had created it (its pinned rules version)."""
    Game.objects.filter(pk=game.pk).update(engine_version=version)
    services.clear_caches()
    game.refresh_from_db()
    return game


# --- 3. who begins ----------------------------------------------------------------------------------


def first_seat_of(game: Game) -> Any:
    return game.events.get(seq=1).payload["config"].get("first_seat", "absent")


def test_verbotenestadt_games_start_by_lot_unless_a_first_seat_is_given():
    assert first_seat_of(services.create_game(players(3), rules=VS, seed="a")) is None
    assert first_seat_of(services.create_game(players(3), rules=VS, seed="b", first_seat=2)) == 2
    assert first_seat_of(cli.create_game([f"p{i}@x.org" for i in range(3)], rules=VS)) is None
    assert first_seat_of(create_demo("me@x.org", players=2, rules=VS)) is None
    white_lotus = services.create_game(players(3), seed="wl")
    assert white_lotus.events.get(seq=1).payload["config"]["first_emperor"] == 0
    assert registry.get(VS).default_first_seat is None
    assert registry.get("whitelotus").default_first_seat == 0


def test_a_season_of_verbotenestadt_seats_games_that_start_by_lot():
    league = League.objects.create(name="L", slug="l")
    season = Season.objects.create(
        league=league, name="S", rules=VS, edition="ravensburger", board="forbidden_city"
    )
    for player in players(4):
        season.memberships.create(player=player)
    games = seat_round(season, seed="lot")
    assert [first_seat_of(g) for g in games] == [None]


def test_create_game_help_says_who_begins_by_default(capsys):
    with pytest.raises(SystemExit):
        call_command("create_game", "--help")
    assert "Die Verbotene Stadt by lot" in " ".join(capsys.readouterr().out.split())


# --- 4. option values ---------------------------------------------------------------------------------


def test_an_option_value_of_another_type_than_its_default_is_refused():
    with pytest.raises(services.GameError, match="partners of Die Verbotene Stadt is yes or no"):
        services.create_game(players(4), rules=VS, options={"partners": "no"})
    with pytest.raises(services.GameError, match="many_turns"):
        services.create_game(players(3), rules=VS, options={"many_turns": 1})
    with pytest.raises(services.GameError, match="adjacency of White Lotus is a word"):
        services.create_game(players(3), options={"adjacency": True})
    game = services.create_game(players(4), rules=VS, options={"partners": True})
    assert game.options["partners"] is True


def test_the_command_line_reads_yes_no_words_for_a_switch_and_refuses_others():
    emails = ["a@x.org,b@x.org,c@x.org"]
    with pytest.raises(CommandError, match="many_turns=maybe"):
        call_command("create_game", "--rules", VS, "--player", *emails, "--option", "many_turns=maybe")
    call_command(
        "create_game", "--rules", VS, "--player", *emails, "--option", "many_turns=On", stdout=StringIO()
    )
    assert Game.objects.get().options["many_turns"] is True


# --- 6. a season's edition and board ------------------------------------------------------------------


def season_form(**fields: Any) -> SeasonForm:
    league = League.objects.get_or_create(name="L", slug="l")[0]
    data = {
        "league": league.pk,
        "name": "Spring",
        "signup_open": "on",
        "rules": VS,
        "edition": "kosmos",
        "options": "{}",
        "board": "china",
        "time_controls": "{}",
        **fields,
    }
    return SeasonForm(data=data)


def test_a_season_of_another_game_takes_its_edition_and_board_when_left_at_white_lotus_s():
    form = season_form()
    assert form.is_valid(), form.errors
    assert (form.cleaned_data["edition"], form.cleaned_data["board"]) == ("ravensburger", "forbidden_city")
    form = season_form(edition="", board="")
    assert form.is_valid(), form.errors
    assert (form.cleaned_data["edition"], form.cleaned_data["board"]) == ("ravensburger", "forbidden_city")
    form = season_form(edition="designer")
    assert not form.is_valid()
    assert "it is an edition of White Lotus" in form.errors["edition"][0]
    white_lotus = season_form(rules="whitelotus", edition="", board="")
    assert white_lotus.is_valid() and white_lotus.cleaned_data["edition"] == "kosmos"


def test_a_season_form_reads_switches_in_words_and_refuses_other_values():
    form = season_form(options='{"partners": "yes"}')
    assert form.is_valid(), form.errors
    assert form.cleaned_data["options"] == {"partners": True}
    form = season_form(options='{"partners": "maybe"}')
    assert not form.is_valid() and "partners of Die Verbotene Stadt is yes or no" in form.errors["options"][0]


def test_seating_a_season_with_another_game_s_edition_says_so():
    league = League.objects.create(name="L", slug="l")
    season = Season.objects.create(
        league=league, name="S", rules=VS, board="forbidden_city"
    )  # edition: kosmos
    with pytest.raises(SeatingError, match="Die Verbotene Stadt has no edition 'kosmos'"):
        season_counts(season)


# --- 8. the clock's help ---------------------------------------------------------------------------------


def test_the_time_controls_help_names_the_short_windows_that_keep_deadlines():
    help_text = TimeControlsForm(game=vs_game()).fields["hours_per_decision"].help_text
    assert "Empty: no deadlines, except" in help_text and "rebribe 12 h, challenge 12 h" in help_text
    white_lotus = services.create_game(players(3), seed="wl")
    assert (
        TimeControlsForm(game=white_lotus).fields["hours_per_decision"].help_text
        == "Empty: no deadlines. Sealed bids share one deadline."
    )


# --- 9. the mail receiver ---------------------------------------------------------------------------------


def test_a_move_does_not_count_the_seats_again():
    game = vs_game()
    play(game, 1)
    rules = services.rules_of(game)
    state = services.head_state(game)
    seat = rules.pending(state)[0].seat
    command = rules.Bot("q").choose(state, seat)
    with CaptureQueriesContext(connection) as queries:
        services.submit(game, seat, command)
    counts = [q["sql"] for q in queries.captured_queries if "COUNT(" in q["sql"] and "games_seat" in q["sql"]]
    assert counts == []
