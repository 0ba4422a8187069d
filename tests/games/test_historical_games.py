"""Games played elsewhere (issue 17): a record written by hand from a table game, with its
chance and comments, imports, replays step by step on the web with its comments and exports
back to the same text; collections import all or nothing per game; games are entered line by
line (``manage.py enter_game``, the moderators' page); and every game played here exports
with its chance written out, so that it replays without the seed too."""

from __future__ import annotations

import io
import random
import re
from pathlib import Path
from typing import Any

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.urls import reverse
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games import jobs, services
from games.jobs import collection as collection_import
from games.models import Collection, Game, RecordDraft
from games.presentation import steps
from games.rules import records, registry
from tests.games.factories import running_game

pytestmark = pytest.mark.django_db

ROOT = Path(__file__).resolve().parents[2]
CLUB_NIGHT = ROOT / "docs" / "records" / "club-night-2024-03-14.txt"
WL = registry.get("whitelotus")


def club_night() -> str:
    return CLUB_NIGHT.read_text(encoding="utf-8")


def test_a_game_written_down_at_a_table_imports_and_exports_to_the_same_text():
    text = club_night()
    assert "seed:" not in text and "chance: draw " in text and "  # " in text
    game = jobs.import_record(text, origin=CLUB_NIGHT.name)
    assert game.status == Game.Status.FINISHED
    assert game.about == {
        "place": "Leipzig, Germany",
        "date": "2024-03-14",
        "event": "Club night, Brettspielclub Leipzig",
        "source": "scoresheet kept by Katrin Vogel",
        "file": CLUB_NIGHT.name,
    }
    assert [s.player.name for s in game.seats.order_by("position")] == [
        "Katrin Vogel",
        "Tomás Ribeiro",
        "Hyun-woo Park",
    ]
    assert jobs.export_record(game) == text
    assert jobs.export_record(game, public=True) == text  # no addresses to leave out
    from notifications.models import OutboundMail

    assert not OutboundMail.objects.exists()  # nothing is written to a placeholder address


def test_its_page_says_where_when_and_by_whom_it_was_played(client):
    game = jobs.import_record(club_night(), origin=CLUB_NIGHT.name)
    page = client.get(reverse("games:game", args=[game.pk])).content.decode()
    about = page[page.index('id="about"') : page.index("</section>", page.index('id="about"'))]
    for said in ("Leipzig, Germany", "2024-03-14", "Club night, Brettspielclub Leipzig", "Katrin Vogel"):
        assert said in about
    assert "scoresheet kept by Katrin Vogel" in about and CLUB_NIGHT.name in about


def test_its_replay_shows_each_comment_beside_its_step_and_the_chance_drawn(client):
    game = jobs.import_record(club_night())
    timeline = steps.timeline(game)
    commented = {
        step.number: pages_comments
        for step in timeline.steps
        if (pages_comments := _comments(timeline, step))
    }
    first_move = next(s for s in timeline.steps if s.event.kind == "command")
    assert commented[first_move.number] == ["Year 1", "Katrin opens in the north, away from the crowd"]
    page = client.get(reverse("games:replay-step", args=[game.pk, first_move.number])).content.decode()
    assert "Katrin opens in the north, away from the crowd" in page and 'id="replay-comments"' in page
    assert "Lots for the first emperor: Katrin drew the longest straw." in commented[1]
    assert "Katrin wins." in commented[len(timeline)][-1]
    setup = client.get(reverse("games:replay-step", args=[game.pk, 1])).content.decode()
    assert "<code>first red</code>" in setup and "<code>fill Ningxia ricefield</code>" in setup
    drawing = next(s for s in timeline.steps if "draw village" in _chance(timeline, s))
    assert "drawn blind from the cloth bag" in " ".join(_comments(timeline, drawing))


def _comments(timeline: Any, step: Any) -> list[str]:
    from games.presentation import display

    return display.step_comments(timeline, step)


def _chance(timeline: Any, step: Any) -> list[str]:
    from games.presentation import display

    return display.step_chance(timeline, step)


def test_a_wrong_line_is_named_with_what_was_legal_there():
    text = club_night().replace("chance: fill Chengdu palace", "chance: fill Chengdu temple", 1)
    with pytest.raises(jobs.JobError) as refused:
        jobs.import_record(text)
    said = str(refused.value)
    assert re.search(r"line 22 \(chance: fill Chengdu temple\): There are not that many temple tiles", said)
    assert "Legal there: chance: fill Chengdu village" in said
    assert not Game.objects.exists()


# -- collections ----------------------------------------------------------------------------------


def test_a_collection_imports_each_game_on_its_own_and_the_archive_filters_by_it(tmp_path, client):
    folder = tmp_path / "club"
    folder.mkdir()
    (folder / "1-table-2.txt").write_text(club_night(), encoding="utf-8")
    broken = club_night().replace("blue: place Yanan", "blue: place Dadu", 1)
    second = club_night().replace("name: Club night, table 2", "name: Club night, table 3")
    (folder / "2-two-tables.txt").write_text(second + "\n" + broken, encoding="utf-8")
    running_game(3)  # a game of the service, in no collection
    collection, items = collection_import.import_collection([folder], "Club nights 2024")
    report = collection_import.report(collection, items)
    assert [bool(i.game) for i in items] == [True, True, False]
    assert re.search(
        r"REFUSED .*2-two-tables.txt:\d+: Not a valid game record: line \d+ \(blue: place Dadu\)", report
    )
    assert report.endswith(
        "Club nights 2024: 2 of 3 record(s) imported, 1 refused (nothing of them was kept)."
    )
    assert Game.objects.filter(collection=collection).count() == 2 and Game.objects.count() == 3
    page = client.get(reverse("games:index"), {"collection": collection.slug}).content.decode()
    assert "Club night, table 2" in page and "Club night, table 3" in page
    assert "Game 1" not in page and f'value="{collection.slug}"' in page


def test_import_collection_command_reports_and_fails_when_a_record_is_refused(tmp_path):
    (tmp_path / "bad.txt").write_text("# White Lotus game record\ncolours: red\n\n", encoding="utf-8")
    out = io.StringIO()
    with pytest.raises(CommandError):
        call_command("import_collection", str(tmp_path), "--collection", "Broken", stdout=out)
    assert "REFUSED" in out.getvalue() and "bad.txt" in out.getvalue()
    assert Collection.objects.get().slug == "broken"


# -- entering a game by hand ---------------------------------------------------------------------


def _lines_of(text: str, upto: str) -> list[str]:
    """The record's lines up to (and with) the first line that starts with ``upto``."""
    lines = text.splitlines()
    end = next(i for i, line in enumerate(lines) if line.startswith(upto))
    return lines[: end + 1]


def test_enter_game_answers_each_line_saves_and_continues(tmp_path, monkeypatch):
    draft = tmp_path / "club.txt"
    start = _lines_of(club_night(), "green: place Songpan")
    first, rest = start[:20], start[20:]

    def enter(lines: list[str]) -> str:
        monkeypatch.setattr("sys.stdin", io.StringIO("\n".join(lines) + "\n"))
        out = io.StringIO()
        call_command("enter_game", str(draft), stdout=out)
        return out.getvalue()

    said = enter([*first, "red: place Ningxia"])
    assert "refused: line 21 (red: place Ningxia): the setup still needs chance first" in said
    assert "chance: fill Chengdu village" in said  # what was legal there
    assert draft.read_text().splitlines() == first
    said = enter([*rest, "board", "legal"])
    assert "Continuing" in said and "Katrin Vogel" in said  # the board, with the players' names
    assert "ok: Blue places a marker in Yanan (10)." in said
    assert "red: place <province>" in said
    assert draft.read_text().splitlines() == start


def test_a_moderator_enters_a_game_line_by_line_and_imports_it(mod):
    record = RecordDraft.objects.create(name="Club night")
    url = reverse("admin:games_recorddraft_enter", args=[record.pk])
    header, body = club_night().split("\n\n", 1)
    mod.post(url, {"lines": header + "\n"})
    page = mod.post(url, {"lines": "\n"}).content.decode()
    assert "Waiting for chance: The first emperor is drawn by lot here" in page
    page = mod.post(url, {"lines": "red: place Ningxia"}).content.decode()
    assert "Refused: line" in page and "chance: first red" in page
    page = mod.post(url, {"lines": body}).content.decode()
    assert "The game is over" in page
    record.refresh_from_db()
    assert record.text == club_night()
    assert "Ningxia" in mod.post(url, {"action": "board"}).content.decode()
    response = mod.post(url, {"action": "import"})
    record.refresh_from_db()
    assert record.game is not None and response["Location"] == reverse("games:game", args=[record.game.pk])
    assert jobs.export_record(record.game) == club_night()


def test_the_entry_page_is_for_moderators_only(client, django_user_model):
    record = RecordDraft.objects.create(name="Club night")
    staff = django_user_model.objects.create_user("staff", "s@example.org", "pw", is_staff=True)
    client.force_login(staff)
    response = client.get(reverse("admin:games_recorddraft_enter", args=[record.pk]))
    assert response.status_code == 403


# -- every game played here: chance written out --------------------------------------------------


def _play(game: Game, chooser: random.Random) -> Any:
    rules = services.rules_of(game)
    state = services.head_state(game)
    while rules.outcome(state) is None:
        decision = chooser.choice(rules.pending(state))
        menu = rules.legal(state, decision.seat)
        services.submit(game, decision.seat, chooser.choice(menu))
        state = services.head_state(game)
    return state


@settings(max_examples=4, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(edition=st.sampled_from(["kosmos", "designer"]), seed=st.integers(0, 10_000))
def test_every_finished_game_exports_with_its_chance_and_imports_to_the_same_game(edition, seed):
    game = running_game(3, edition=edition, seed=f"rt{seed}", first_seat=None)
    final = _play(game, random.Random(seed))
    text = jobs.export_record(game)
    assert "chance: first " in text and text.count("chance: fill ") >= 7
    copy = jobs.import_record(text)  # the seed checks every outcome written
    assert WL.serial.state_to_dict(services.head_state(copy)) == WL.serial.state_to_dict(final)
    seedless = re.sub(r"^(seed|seed-hash|rng|draws|entropy|result): .*\n", "", text, flags=re.M)
    elsewhere = jobs.import_record(seedless)
    replayed = services.head_state(elsewhere)
    assert records.same_game(WL, replayed, final)
    assert WL.outcome(replayed) == WL.outcome(final)
    assert elsewhere.status == Game.Status.FINISHED


def test_its_json_record_lists_chance_and_comments_and_imports_again(client):
    game = jobs.import_record(club_night())
    data = client.get(reverse("games:record-json", args=[game.pk])).json()
    assert data["format_version"] == 2
    assert {"chance": "first red"} in data["moves"]
    assert {
        "colour": "red",
        "command": "place Ningxia",
        "comment": "Katrin opens in the north, away from the crowd",
    } in data["moves"]
    assert {"comment": "Year 1"} in data["moves"]
    import json

    copy = jobs.import_record(json.dumps(data))
    assert records.same_game(WL, services.head_state(copy), services.head_state(game))


def test_a_finished_game_of_die_verbotene_stadt_exports_its_dice_and_cards_and_imports_without_its_seed():
    from tests.games.factories import players

    vs = registry.get("verbotenestadt")
    game = services.create_game(players(3), rules="verbotenestadt", seed="vs-round-trip")
    services.start_game(game)
    bots = [vs.about.Bot(f"rt:{s}") for s in range(3)]
    state = services.head_state(game)
    while vs.outcome(state) is None:
        seat = vs.pending(state)[0].seat
        services.submit(game, seat, bots[seat].choose(state, seat))
        state = services.head_state(game)
    text = jobs.export_record(game)
    for kind in ("officials", "pile red", "roll ", "pavilion "):
        assert f"chance: {kind}" in text
    seedless = re.sub(r"^(seed|seed-hash|rng|draws|entropy|result): .*\n", "", text, flags=re.M)
    copy = jobs.import_record(seedless)
    assert records.same_game(vs, services.head_state(copy), state)
    assert vs.outcome(services.head_state(copy)) == vs.outcome(state)
    assert jobs.export_record(copy).partition("\n\n")[2] == seedless.partition("\n\n")[2]


def test_comments_on_a_game_played_here_survive_its_export_and_import():
    game = running_game(3, seed="commented")
    _play(game, random.Random(3))
    lines = jobs.export_record(game).splitlines()
    body = lines.index("") + 1
    lines.insert(body, "# the opening, annotated")
    first_move = next(i for i, line in enumerate(lines) if line.startswith("red: "))
    lines[first_move] += "  # a classic"
    text = "\n".join(lines) + "\n"
    copy = jobs.import_record(text)
    again = jobs.export_record(copy).splitlines()
    assert "# the opening, annotated" in again and lines[first_move] in again
    assert any(line.startswith("created: ") for line in again)  # the service's own header, as before


def test_the_entry_page_speaks_the_moderators_language_and_says_taken_once(mod):
    record = RecordDraft.objects.create(name="Club night")
    url = reverse("admin:games_recorddraft_enter", args=[record.pk])
    header, body = club_night().split("\n\n", 1)
    german = {"HTTP_ACCEPT_LANGUAGE": "de"}
    mod.post(url, {"lines": header + "\n"}, **german)
    mod.post(url, {"lines": "\n"}, **german)
    page = mod.post(url, {"lines": "chance: first red"}, **german).content.decode()
    assert "Erfassung: Club night" in page and "Zeile(n) übernehmen" in page
    assert "Übernommen: first red" in page and "Taken:" not in page
    setup = "\n".join(line for line in body.splitlines() if line.startswith("chance: fill"))
    mod.post(url, {"lines": setup}, **german)
    page = mod.post(url, {"lines": "red: place Ningxia"}, **german).content.decode()
    assert "Rot setzt einen Gebietsmarker auf Ningxia (4)." in page and "places a marker" not in page
    page = mod.post(url, {"lines": "green: place Ningxia"}, **german).content.decode()  # blue's turn
    assert "Abgelehnt: Zeile" in page and "line " not in page.split("Abgelehnt:")[1][:300]
    assert "Als Nächstes: Blau (place)." in page and "Next:" not in page
