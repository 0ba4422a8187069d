"""``manage.py verify_game`` and ``tools/verify_record.py`` on the exported record of a finished
game whose draws were mixed with its players' entropy: both verify it and say what they
checked; tampered copies fail with the reason; the script needs nothing but the standard
library and games/rules/."""

from __future__ import annotations

import subprocess
import sys
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command

from games import jobs, services
from games.models import Event, Game
from games.rules import rng
from notifications.models import OutboundMail
from notifications.outbound import emails
from tests.games.factories import players, whose_turn

pytestmark = pytest.mark.django_db

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "tools" / "verify_record.py"


def finished_mixed_game() -> Game:
    game = services.create_game(players(3), seed="verify-command", ready_hours=12)
    for seat in range(3):
        services.contribute(game, seat, f"noise {seat}", message_id=f"<m{seat}@player.test>")
    game.refresh_from_db()
    while game.status == Game.Status.RUNNING:
        services.apply_default(game, whose_turn(game))
        game.refresh_from_db()
    return game


_EXPORTED: list[str] = []  # the record, played once for the module (a whole game takes seconds)


@pytest.fixture
def record(tmp_path: Path) -> Path:
    if not _EXPORTED:
        _EXPORTED.append(jobs.export_record(finished_mixed_game()))
    path = tmp_path / "game.txt"
    path.write_text(_EXPORTED[0], encoding="utf-8")
    return path


def header(path: Path) -> dict[str, str]:
    lines = path.read_text(encoding="utf-8").partition("\n\n")[0].splitlines()
    return dict(line.split(": ", 1) for line in lines if ": " in line)


def script(path: Path) -> subprocess.CompletedProcess[str]:
    """The stand-alone script, run as a person would from the repository root, by a Python
    without site-packages (-S: no Django, nothing installed) and with the environment's
    Django settings removed."""
    env = {"PATH": "/usr/bin:/bin"}
    return subprocess.run(
        [sys.executable, "-S", str(SCRIPT), str(path)],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )


def tampered(path: Path, key: str, value: str) -> Path:
    lines = path.read_text(encoding="utf-8").splitlines()
    out = [f"{key}: {value}" if line.startswith(f"{key}:") else line for line in lines]
    copy = path.with_name(f"tampered-{key}.txt")
    copy.write_text("\n".join(out) + "\n", encoding="utf-8")
    return copy


def test_the_record_of_a_finished_mixed_game_carries_what_verifying_needs_and_its_page_offers_it(client):
    game = finished_mixed_game()
    text = jobs.export_record(game)
    _EXPORTED[:] = [text]
    started = game.events.get(kind=Event.Kind.STARTED)
    listed = " ".join(f"{s}={v}" for s, v in services.contributions_of(started))
    assert f"seed-hash: {game.seed_hash}\n" in text
    assert f"rng: {rng.RNG}\ndraws: {rng.MIXED}\nentropy: {listed}\n" in text
    assert "\nresult: 1 " in text
    public = client.get(f"/games/{game.pk}/record.txt").content.decode()
    assert "@" not in public.partition("\n\n")[0] and f"seed-hash: {game.seed_hash}" in public
    page = client.get(f"/games/{game.pk}/").content.decode()
    assert f'href="/games/{game.pk}/record.txt"' in page


def test_the_end_of_a_mixed_game_shows_the_server_seed_and_the_contributions_not_the_draw_seed(client):
    game = finished_mixed_game()
    seed = game.events.get(seq=1).payload["seed"]
    values = [v for _, v in services.contributions_of(game.events.get(kind=Event.Kind.STARTED))]
    page = client.get(f"/games/{game.pk}/").content.decode()
    mail = emails.render(OutboundMail.objects.filter(game=game, kind="game_over").first())
    for shown in (page, mail.text):
        assert seed in shown and all(v in shown for v in values)
        assert services.draw_seed_of(game) not in shown
    assert "python tools/verify_record.py record.txt" in mail.text


def test_verify_game_prints_what_it_verified(record):
    out = StringIO()
    call_command("verify_game", str(record), stdout=out)
    text = out.getvalue()
    assert "the seed matches the seed-hash published at the start" in text
    assert f"sha256(seed): {header(record)['seed-hash']}" in text
    for seat, value in (item.split("=") for item in header(record)["entropy"].split()):
        assert f"  {seat} {('red', 'blue', 'green')[int(seat)]:<7} {value}" in text
    assert "equal to the record's result line" in text and "OK: the record verifies." in text


def test_the_script_verifies_with_the_standard_library_alone(record):
    done = script(record)
    assert done.returncode == 0, done.stderr
    out = StringIO()
    call_command("verify_game", str(record), stdout=out)
    assert done.stdout.strip() == out.getvalue().strip()


@pytest.mark.parametrize(
    ("key", "value", "reason"),
    [
        ("seed", "not-the-seed", "does not match its commitment"),
        ("entropy", "0=" + "0" * 64, r"does not replay|not to the record's result"),
        ("rng", "mersenne/1", "unknown random generator"),
    ],
)
def test_a_tampered_record_fails_in_the_command_and_the_script(record, key, value, reason):
    copy = tampered(record, key, value)
    with pytest.raises(CommandError, match=reason):
        call_command("verify_game", str(copy), stdout=StringIO())
    done = script(copy)
    assert done.returncode == 1 and done.stderr.startswith("FAILED: ")


def test_a_tampered_move_fails(record):
    header, _, body = record.read_text(encoding="utf-8").partition("\n\n")
    moves = body.splitlines()
    moves[0] = moves[0].split(":")[0] + ": place Kunming"
    record.write_text(header + "\n\n" + "\n".join(moves) + "\n", encoding="utf-8")
    done = script(record)
    assert done.returncode == 1 and "does not replay" in done.stderr


def test_an_exported_mixed_game_imports_to_the_same_draws(record):
    copy = jobs.import_record(record.read_text(encoding="utf-8"))
    given = header(record)
    entropy = [(int(s), v) for s, v in (item.split("=") for item in given["entropy"].split())]
    assert services.draw_seed_of(copy) == rng.mixed_seed(given["seed"], entropy)
    assert copy.status == Game.Status.FINISHED
    assert jobs.export_record(copy).partition("\n\n")[2] == record.read_text().partition("\n\n")[2]


def test_a_running_games_record_is_not_published(client):
    game = services.create_game(players(3), seed="running")
    services.start_game(game)
    assert client.get(f"/games/{game.pk}/record.txt").status_code == 404


def cut_down(path: Path, keep_moves: int, drop: tuple[str, ...] = ()) -> Path:
    head, _, body = path.read_text(encoding="utf-8").partition("\n\n")
    head = "\n".join(line for line in head.splitlines() if line.split(":")[0] not in drop)
    copy = path.with_name("cut.txt")
    copy.write_text(head + "\n\n" + "\n".join(body.splitlines()[:keep_moves]) + "\n", encoding="utf-8")
    return copy


def test_a_cut_down_record_that_says_it_finished_fails(record):
    copy = cut_down(record, 5, drop=("result",))
    with pytest.raises(CommandError, match=r"says the game finished.*do not end the game"):
        call_command("verify_game", str(copy), stdout=StringIO())
    done = script(copy)
    assert done.returncode == 1 and "cut short" in done.stderr


def test_a_mixed_record_without_result_or_end_verifies_with_a_warning(record):
    copy = cut_down(record, 5, drop=("result", "finished"))
    done = script(copy)
    assert done.returncode == 0, done.stderr
    assert "Warning: the record has no 'result:' line and its moves do not end" in done.stdout


def test_show_game_gives_a_mixed_games_commitment_and_at_the_end_its_server_seed():
    game = services.create_game(players(3), seed="show-mixed", ready_hours=12)
    for seat in range(3):
        services.contribute(game, seat, f"noise {seat}", message_id=f"<s{seat}@player.test>")
    game.refresh_from_db()
    running = jobs.show_game(game)
    assert f"seed hash: {game.seed_hash}" in running and "seed: show-mixed" not in running
    while game.status == Game.Status.RUNNING:
        services.apply_default(game, whose_turn(game))
        game.refresh_from_db()
    over = jobs.show_game(game)
    assert f"seed hash: {game.seed_hash}  seed: show-mixed" in over
    assert services.draw_seed_of(game) not in over
