"""The operational commands (games/management/commands) and the jobs behind them (games.jobs)."""

from __future__ import annotations

import re
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from games import jobs as cli
from games import services
from games.models import Event, Game, Player, Snapshot
from games.rules import rng
from games.rules import whitelotus as wl
from tests.games.factories import running_game, whose_turn

pytestmark = pytest.mark.django_db

CHINA = Path(wl.__file__).parent / "boards" / "china.json"


def run(*args: str) -> str:
    out = StringIO()
    call_command(*args, stdout=out, stderr=StringIO())
    return out.getvalue()


def created_id(output: str) -> int:
    found = re.search(r"(?:Created|Imported) game (\d+)", output)
    assert found, output
    return int(found[1])


def play_defaults(game: Game, moves: int | None = None) -> Game:
    """Default moves until the game ends (or ``moves`` of them)."""
    done = 0
    game.refresh_from_db()
    while game.status == Game.Status.RUNNING and (moves is None or done < moves):
        services.apply_default(game, whose_turn(game))
        game.refresh_from_db()
        done += 1
    return game


def test_create_game_makes_players_and_prints_id_seats_and_seed_hash_but_never_the_seed():
    Player.objects.create(name="Ada Lovelace", email="ada@example.org")
    output = run(
        "create_game",
        "--player",
        "ADA@example.org,bao@example.org",
        "--player",
        "chen@example.org",
        "--name",
        "chen@example.org=Chen Li",
        "--seed",
        "very-secret-seed",
        "--game-name",
        "Friday",
    )
    game = Game.objects.get(pk=created_id(output))
    assert "very-secret-seed" not in output
    assert rng.seed_digest("very-secret-seed") in output and game.seed_hash in output
    assert "seat 0  red     Ada Lovelace <ada@example.org>" in output
    assert "seat 1  blue    bao <bao@example.org>" in output
    assert "seat 2  green   Chen Li <chen@example.org>" in output
    assert game.name == "Friday" and game.status == Game.Status.NEW
    assert Player.objects.count() == 3  # ADA@ is the existing ada@


def test_create_game_options_edition_first_emperor_board_file_and_start():
    output = run(
        "create_game",
        "--player",
        "a@x.org,b@x.org,c@x.org,d@x.org",
        "--edition",
        "designer",
        "--no-zero-card",
        "--negotiation",
        "--open-hands",
        "--adjacency",
        "own",
        "--first-emperor",
        "green",
        "--board",
        str(CHINA),
        "--start",
    )
    game = Game.objects.get(pk=created_id(output))
    assert game.status == Game.Status.RUNNING and game.edition == "designer"
    assert game.options == {
        "zero_card": False,
        "negotiation": True,
        "open_hands": True,
        "adjacency": "own",
        "ricefield_extra": "may",
        "temple_draw": "may",
    }
    assert game.board == str(CHINA.resolve())
    assert services.config_of(game).first_emperor == 2
    by_lot = cli.create_game(["a@x.org", "b@x.org", "c@x.org"], first_seat="lot", seed="l")
    assert services.config_of(by_lot).first_emperor is None


def test_create_game_refusals_are_command_errors_and_keep_no_new_players():
    with pytest.raises(CommandError, match="3 to 6"):
        run("create_game", "--player", "a@x.org,b@x.org")
    with pytest.raises(CommandError, match="first-emperor must be one of red, blue, green or lot"):
        run("create_game", "--player", "a@x.org,b@x.org,c@x.org", "--first-emperor", "orange")
    with pytest.raises(CommandError, match="not an email"):
        run("create_game", "--player", "a@x.org,b@x.org,nobody")
    with pytest.raises(CommandError, match="Cannot load the board"):
        run("create_game", "--player", "a@x.org,b@x.org,c@x.org", "--board", "atlantis")
    with pytest.raises(CommandError, match="EMAIL=NAME"):
        run("create_game", "--player", "a@x.org,b@x.org,c@x.org", "--name", "Ada")
    assert not Player.objects.exists() and not Game.objects.exists()


def test_show_game_draws_the_board_players_turn_hand_and_last_events():
    game = running_game(3, seed="show")
    play_defaults(game, 12)
    state = services.head_state(game)
    spectator = run("show_game", str(game.pk), "--log", "4")
    assert f"Game {game.pk}" in spectator and "running" in spectator
    for index in state.in_play():
        province = state.board.provinces[index]
        assert re.search(rf"^\s+{province.number} {province.name}\b", spectator, re.M)
    assert re.search(r"^  red     Ada <ada@example.org>.*VP chips 0  chips: .* score \d+", spectator, re.M)
    waiting = wl.view(state, None)["pending"][0]
    assert f"Waiting for: {waiting['colour']} ({waiting['kind']}" in spectator
    assert "As red" not in spectator and "seed:" not in spectator
    assert "Last 4 event(s):" in spectator
    last = game.events.order_by("-seq").first()
    assert last is not None
    assert re.search(rf"#{last.seq}\s+\S+ \S+ default\s+deadline\s+\w+", spectator)
    as_red = run("show_game", str(game.pk), "--as", "red", "--log", "0")
    assert "As red: hand influence" in as_red and "Last" not in as_red
    with pytest.raises(CommandError, match="has no seat 'orange'"):
        run("show_game", str(game.pk), "--as", "orange")
    with pytest.raises(CommandError, match="There is no game 999"):
        run("show_game", "999")


def test_show_game_narrates_the_public_log_and_hides_other_seats_sealed_choices():
    game = running_game(3, seed="show")
    seat = whose_turn(game)
    services.submit(game, seat, "place Ningxia")
    sealed = None
    while sealed is None:
        result = services.apply_default(game, whose_turn(game))
        if result.events[0].command_text.startswith("bid"):
            sealed = result.events[0]
    colour = game.seats.get(position=sealed.seat).colour
    lines = cli.event_lines(game, 50)
    assert any('"place Ningxia"' in line for line in lines)
    assert any("places a marker in Ningxia (4)." in line for line in lines)
    assert not any(sealed.command_text in line for line in lines)
    assert any(f"{colour:<7} (sealed)" in line for line in lines)
    other = (sealed.seat + 1) % 3
    assert not any(f'"{sealed.command_text}"' in line for line in cli.event_lines(game, 50, other))
    mine = cli.event_lines(game, 50, sealed.seat)
    assert any(f'"{sealed.command_text}"' in line for line in mine)
    assert any(line.strip().startswith("(You sealed:") for line in mine)
    moderator = run("show_game", str(game.pk), "--moderator", "--log", "50")
    assert f'"{sealed.command_text}"' in moderator


def test_replay_game_prints_ok_and_the_final_scores(settings):
    settings.GAMES_SNAPSHOT_EVERY = 10
    game = play_defaults(running_game(3, edition="designer", seed="replay-ok"))
    output = run("replay_game", str(game.pk))
    assert output.startswith(f"OK: game {game.pk} replays from zero to the head at #{game.head_seq}")
    result = wl.outcome(services.head_state(game))
    assert result is not None
    assert f"{result.rank[0]}. red {result.scores[0]}" in output.splitlines()[1]


def test_replay_game_fails_loudly_when_a_snapshot_does_not_match_the_events(settings):
    settings.GAMES_SNAPSHOT_EVERY = 5
    game = play_defaults(running_game(3, seed="tamper"), 10)
    snap = Snapshot.objects.filter(game=game).order_by("-seq").first()
    assert snap is not None
    snap.state["vp"] = [v + 3 for v in snap.state["vp"]]
    snap.save()
    with pytest.raises(CommandError, match=rf"FAILED the replay check.*snapshot #{snap.seq}.* in: vp\."):
        run("replay_game", str(game.pk))


def test_export_writes_the_header_extras_and_only_the_moves_in_effect(tmp_path):
    game = running_game(3, seed="exp", name="League 1")
    for _ in range(4):
        seat = whose_turn(game)
        services.submit(
            game,
            seat,
            wl.format_command(services.head_state(game), wl.legal(services.head_state(game), seat)[0]),
        )
    services.rollback(game, 4, by=None, reason="misclick")
    services.apply_default(game, whose_turn(game))
    target = tmp_path / "g.txt"
    err = StringIO()
    call_command("export_game", str(game.pk), "-o", str(target), stdout=StringIO(), stderr=err)
    assert "not finished" in err.getvalue() and "seed" in err.getvalue()
    text = target.read_text()
    assert text == cli.export_record(game) == run("export_game", str(game.pk))
    header, body = text.split("\n\n")
    assert "seed: exp" in header and "name: League 1" in header
    assert (
        "players: red=Ada <ada@example.org>, blue=Bao <bao@example.org>, green=Chen <chen@example.org>"
        in header
    )
    assert re.search(r"^created: \d{4}-\d\d-\d\dT", header, re.M)
    kept = [e for e in services.effective(game.events.order_by("seq")) if e.kind in services.MOVE_KINDS]
    assert len(kept) == 3 and game.events.filter(kind__in=services.MOVE_KINDS).count() == 5
    moves = [line for line in body.strip().splitlines() if not line.startswith("chance: ")]
    assert moves == [f"{game.seats.get(position=e.seat).colour}: {e.command_text}" for e in kept]
    # the chance the seed drew is written out (the start tiles, before the first move)
    assert body.startswith("chance: fill ") and body.count("chance: fill ") == 7


def test_round_trip_create_show_play_export_import_replay(tmp_path):
    output = run(
        "create_game",
        "--player",
        "ada@example.org,bao@example.org,chen@example.org",
        "--edition",
        "designer",
        "--seed",
        "round-trip",
        "--start",
    )
    game = Game.objects.get(pk=created_id(output))
    assert "Waiting for: red (place)" in run("show_game", str(game.pk), "--as", "red")
    play_defaults(game)
    assert game.status == Game.Status.FINISHED
    assert "Final scores" in run("show_game", str(game.pk), "--log", "3")
    record = tmp_path / "game.txt"
    run("export_game", str(game.pk), "-o", str(record))

    output = run("import_game", str(record))
    copy = Game.objects.get(pk=created_id(output))
    assert copy.pk != game.pk and copy.status == Game.Status.FINISHED
    assert f"now at event #{copy.head_seq}, finished" in output
    assert [s.player.email for s in copy.seats.order_by("position")] == [
        "ada@example.org",
        "bao@example.org",
        "chen@example.org",
    ]
    assert set(copy.events.filter(kind=Event.Kind.COMMAND).values_list("source", flat=True)) == {"system"}
    assert copy.seed_hash == game.seed_hash
    original, imported = services.head_state(game), services.head_state(copy)
    assert wl.outcome(imported) == wl.outcome(original) is not None
    assert imported.to_json() == original.to_json()
    assert (
        run("replay_game", str(copy.pk)).splitlines()[1] == run("replay_game", str(game.pk)).splitlines()[1]
    )
    body = record.read_text().split("\n\n")[1]
    assert cli.export_record(copy).split("\n\n")[1] == body


def test_import_without_a_players_line_uses_placeholder_players():
    config = wl.Config(wl.load_board("china"), ("red", "blue", "green", "yellow"), "kosmos")
    text = "\n".join(
        [
            "# White Lotus game record",
            "edition: kosmos",
            "colours: red blue green yellow",
            f"first_emperor: {config.colours[0]}",
            "seed: placeholder",
            "",
            "red: place 4",
        ]
    )
    game = cli.import_record(text, name="from mail")
    assert [s.player.email for s in game.seats.order_by("position")] == [
        f"{c}@import.invalid" for c in config.colours
    ]
    assert game.name == "from mail" and game.status == Game.Status.RUNNING
    assert game.events.get(seq=3).command_text == "place 4"


def test_import_names_an_illegal_line_and_keeps_nothing(tmp_path):
    game = running_game(3, seed="bad")
    play_defaults(game, 3)
    lines = cli.export_record(game).splitlines()
    lines[-1] = lines[-1].split(":")[0] + ": place Atlantis"
    record = tmp_path / "bad.txt"
    record.write_text("\n".join(lines) + "\n")
    games_before, players_before = Game.objects.count(), Player.objects.count()
    with pytest.raises(CommandError, match=rf"line {len(lines)} \(\w+: place Atlantis\).*no province"):
        run("import_game", str(record))
    with pytest.raises(CommandError, match="Cannot read"):
        run("import_game", str(tmp_path / "missing.txt"))
    assert (Game.objects.count(), Player.objects.count()) == (games_before, players_before)


def test_import_refuses_a_record_whose_players_line_seats_someone_twice():
    text = cli.export_record(running_game(3, seed="twice"))
    text = text.replace("green=Chen <chen@example.org>", "green=Ada again <ada@example.org>")
    before = Game.objects.count()
    with pytest.raises(services.GameError, match="only one seat"):
        cli.import_record(text)
    assert Game.objects.count() == before


def test_parse_players_reads_names_with_commas():
    assert cli.parse_players("red=Lovelace, Ada <ada@x.org>, blue=Bao <bao@x.org>") == {
        "red": ("Lovelace, Ada", "ada@x.org"),
        "blue": ("Bao", "bao@x.org"),
    }
