"""The service takes each game on its own terms: the pinned rules version is compared with
the code's; Die Verbotene Stadt's start player is by lot unless someone names one; option
values are checked against their defaults' types; records read a former option name and say
their rules version; a season takes the chosen game's edition and board; the clock's help
names the short windows; a mail event does not count the seats again."""

from __future__ import annotations

from io import StringIO
from typing import Any

import pytest
from django.contrib.auth.models import Group
from django.core.management import CommandError, call_command
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import translation

from games import jobs, services
from games.admin.actions import TimeControlsForm
from games.models import Game, Snapshot
from games.rules import registry
from leagues.admin.seasonform import SeasonForm
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
    bots = [rules.about.Bot(f"review:{s}") for s in range(services.seats_of(game))]
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


# --- 1. the pinned rules version ------------------------------------------------------------------


def test_a_game_created_under_another_rules_version_accepts_no_move():
    game = vs_game()
    play(game, 2)
    game = created_under(game, "verbotenestadt-1")
    rules = services.rules_of(game)
    state = services.head_state(game)
    seat = rules.pending(state)[0].seat
    with pytest.raises(services.GameError) as refused:
        services.submit(game, seat, rules.about.Bot("x").choose(state, seat))
    assert (
        f"Game {game.pk} was created under rules verbotenestadt-1; this service runs verbotenestadt-2"
        in str(refused.value)
    )
    with pytest.raises(services.GameError, match="created under rules verbotenestadt-1"):
        services.apply_default(game, seat)


def test_the_refusal_is_said_in_german_and_french():
    game = created_under(vs_game(), "verbotenestadt-1")
    mismatch = services.version_mismatch(game)
    assert mismatch is not None
    for language, words in (
        ("de", "wurde unter den Regeln verbotenestadt-1"),
        ("fr", "créée sous les règles"),
    ):
        with translation.override(language):
            assert words in mismatch.render(translation.gettext)


def test_replay_show_game_and_the_audit_say_the_versions_differ(client, django_user_model):
    game = created_under(vs_game(), "verbotenestadt-1")
    check = jobs.replay_game(game)
    assert "WARNING: Game" in jobs.describe_replay(check)
    assert "this service runs verbotenestadt-2" in jobs.describe_replay(check)
    assert jobs.show_game(game).startswith(
        f"WARNING: Game {game.pk} was created under rules verbotenestadt-1"
    )
    user = django_user_model.objects.create_user("mod", "mod@example.org", "pw", is_staff=True)
    user.groups.add(Group.objects.get_or_create(name="moderators")[0])
    client.force_login(user)
    html = client.get(reverse("admin:games_game_audit", args=[game.pk])).content.decode()
    assert "created under rules verbotenestadt-1; this service runs verbotenestadt-2" in html
    same = vs_game(seed="same")
    assert "WARNING" not in jobs.describe_replay(jobs.replay_game(same))
    assert "WARNING" not in jobs.show_game(same)


def test_a_snapshot_written_under_another_version_is_not_loaded():
    game = vs_game()
    start = services.rules_of(game).serial.state_to_dict(services.head_state(game))
    state = play(game, 4)
    # an older service wrote this snapshot (here: a state that is not the head's) at the head
    game = created_under(game, "verbotenestadt-1")
    Snapshot.objects.create(game=game, seq=game.head_seq, engine_version="verbotenestadt-1", state=start)
    rules = services.rules_of(game)
    assert rules.serial.state_to_dict(services.head_state(game)) == rules.serial.state_to_dict(state)
    assert services.usable_snapshot(game) is None
    _, same = services.replay_game(game)
    assert same


def test_snapshots_are_written_under_the_code_s_version(settings):
    settings.GAMES_SNAPSHOT_EVERY = 2
    game = vs_game()
    play(game, 3)
    assert set(game.snapshots.values_list("engine_version", flat=True)) == {"verbotenestadt-2"}


def test_a_record_says_its_rules_version_and_one_of_another_version_is_not_imported():
    game = vs_game(seed="rec")
    play(game, 3)
    text = jobs.export_record(game)
    assert text.startswith(
        "# Die Verbotene Stadt game record\nrules: verbotenestadt\nversion: verbotenestadt-2\n"
    )
    assert jobs.import_record(text).engine_version == "verbotenestadt-2"
    older = text.replace("version: verbotenestadt-2", "version: verbotenestadt-1")
    with pytest.raises(jobs.JobError, match="played under rules verbotenestadt-1; this service runs"):
        jobs.import_record(older)
    white_lotus = services.create_game(players(3), seed="wl")
    assert "version:" not in jobs.export_record(white_lotus)  # White Lotus's record text is as it was


# --- 3. who begins ----------------------------------------------------------------------------------


def first_seat_of(game: Game) -> Any:
    return game.events.get(seq=1).payload["config"].get("first_seat", "absent")


def test_verbotenestadt_games_start_by_lot_unless_a_first_seat_is_given():
    assert first_seat_of(services.create_game(players(3), rules=VS, seed="a")) is None
    assert first_seat_of(services.create_game(players(3), rules=VS, seed="b", first_seat=2)) == 2
    assert first_seat_of(jobs.create_game([f"p{i}@x.org" for i in range(3)], rules=VS)) is None
    assert first_seat_of(create_demo("me@x.org", players=2, rules=VS)) is None
    white_lotus = services.create_game(players(3), seed="wl")
    assert white_lotus.events.get(seq=1).payload["config"]["first_emperor"] == 0
    assert registry.get(VS).about.default_first_seat is None
    assert registry.get("whitelotus").about.default_first_seat == 0


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


# --- 5. records with the former option name ----------------------------------------------------------


def test_a_record_with_the_former_one_turn_option_imports_and_exports_the_current_name():
    game = vs_game(seed="old")
    play(game, 3)
    text = jobs.export_record(game)
    assert "options: partners=no many_turns=no" in text
    old = text.replace("many_turns=no", "one_turn=no")
    copy = jobs.import_record(old)
    assert copy.options == {"partners": False, "many_turns": True}
    # the copy's record names the option as the game does now
    assert "options: partners=no many_turns=yes\n" in jobs.export_record(copy)


# --- 6. a season's edition and board ------------------------------------------------------------------


def season_form(**fields: Any) -> SeasonForm:
    league = League.objects.get_or_create(name="L", slug="l")[0]
    data = {
        "league": league.pk,
        "name": "Spring",
        "signup_open": "on",
        "rules": VS,
        "edition": "kosmos",
        "board": "china",
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
    form = season_form(option__verbotenestadt__partners="yes")
    assert form.is_valid(), form.errors
    assert form.instance.options == {"partners": True}
    form = season_form(option__verbotenestadt__partners="maybe")
    assert not form.is_valid() and "partners" in form.errors.as_text()


def test_seating_a_season_with_another_game_s_edition_says_so():
    league = League.objects.create(name="L", slug="l")
    season = Season.objects.create(
        league=league, name="S", rules=VS, board="forbidden_city", edition="kosmos"
    )
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
    command = rules.about.Bot("q").choose(state, seat)
    with CaptureQueriesContext(connection) as queries:
        services.submit(game, seat, command)
    counts = [q["sql"] for q in queries.captured_queries if "COUNT(" in q["sql"] and "games_seat" in q["sql"]]
    assert counts == []
