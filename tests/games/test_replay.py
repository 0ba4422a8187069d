"""The replay viewer: one step per event in effect, the board and scores after it, rollbacks
skipped, everything shown once the game is over, and imported records replay alike."""

from __future__ import annotations

import random
import re

import pytest
from django.test import Client
from django.urls import reverse

from games import jobs, services
from games.models import Event, Game
from games.presentation import steps
from games.rules import whitelotus as wl
from tests.games.factories import play_randomly, running_game

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _fresh_timelines() -> None:
    # timelines are kept per (game id, creation time, head): tests reuse ids and times
    steps.clear_cache()


def page(client: Client, game: Game, step: int | None = None, **params: str) -> str:
    url = (
        reverse("games:replay", args=[game.pk])
        if step is None
        else reverse("games:replay-step", args=[game.pk, step])
    )
    response = client.get(url, params)
    assert response.status_code == 200, response.status_code
    return response.content.decode()


def scores(html: str) -> dict[str, int]:
    return {
        c: int(s) for c, s in re.findall(r'class="player" data-colour="(\w+)" data-score="(-?\d+)"', html)
    }


def shown_seq(html: str) -> int:
    found = re.search(r'class="step" data-step="\d+" data-seq="(\d+)"', html)
    assert found is not None
    return int(found.group(1))


def public_scores(state: wl.State) -> dict[str, int]:
    return {p["colour"]: p["score"]["total"] for p in wl.view(state, None)["players"]}


def test_step_n_shows_the_state_after_the_nth_event_in_effect():
    game = running_game(4, seed="replay-n")
    play_randomly(game, random.Random(1), moves=60)
    kept = services.effective(game.events.order_by("seq"))
    client = Client()
    for n in (1, 2, 3, 17, 40, len(kept)):
        html = page(client, game, n)
        assert shown_seq(html) == kept[n - 1].seq
        assert scores(html) == public_scores(services.state_at(game, kept[n - 1].seq))
    assert client.get(reverse("games:replay-step", args=[game.pk, len(kept) + 1])).status_code == 404


def test_a_rolled_back_range_is_not_stepped_through():
    game = running_game(3, seed="replay-rollback")
    play_randomly(game, random.Random(2), moves=12)
    to_seq = game.head_seq - 6
    undone = set(game.events.filter(seq__gt=to_seq).values_list("seq", flat=True))
    services.rollback(game, to_seq, by=None, reason="a mistaken move")
    play_randomly(game, random.Random(3), moves=4)
    kept = services.effective(game.events.order_by("seq"))
    client = Client()
    seen = [shown_seq(page(client, game, n, fragment="1")) for n in range(1, len(kept) + 1)]
    assert seen == [e.seq for e in kept]
    assert not undone & set(seen)
    rollback_step = next(n for n, e in enumerate(kept, 1) if e.kind == Event.Kind.ROLLED_BACK)
    html = page(client, game, rollback_step)
    assert f"A moderator undid the moves after event #{to_seq}." in html
    assert "a mistaken move" not in html  # the reason may name a hidden choice: not during play
    assert scores(page(client, game, len(kept))) == public_scores(services.head_state(game))


def test_an_imported_record_replays_to_the_same_final_scores():
    game = running_game(3, seed="replay-import")
    final = play_randomly(game, random.Random(4))
    copy = jobs.import_record(jobs.export_record(game))
    client = Client()
    last = len(steps.timeline(copy))
    html = page(client, copy, last)
    assert scores(html) == public_scores(final)
    assert scores(html) == {c: s["total"] for c, s in wl.view(final, None)["outcome"]["scores"].items()}
    assert 'id="outcome"' in html


def test_a_finished_games_replay_shows_every_hand_and_the_whole_log():
    game = running_game(3, seed="replay-open")
    play_randomly(game, random.Random(5))
    html = page(Client(), game, 5)
    assert html.count('<dl class="hand"') == 3
    assert "(You sealed:" in html or "(You drew a" in html  # private lines, shown once it is over


def test_the_plain_replay_address_opens_the_first_step_and_the_slider_form_goes_to_its_step():
    game = running_game(3, seed="replay-form")
    play_randomly(game, random.Random(6), moves=5)
    client = Client()
    assert shown_seq(page(client, game)) == 1
    response = client.get(reverse("games:replay", args=[game.pk]), {"step": "4"})
    assert response.status_code == 302
    assert response["Location"] == reverse("games:replay-step", args=[game.pk, 4])
    for odd in ("²", "-1", "x"):  # not a step number: the first step, never an error
        response = client.get(reverse("games:replay", args=[game.pk]), {"step": odd})
        assert response.status_code == 200, (odd, response.status_code)
        assert shown_seq(response.content.decode()) == 1


def test_the_fragment_is_the_step_alone_and_the_page_has_the_controls():
    game = running_game(3, seed="replay-fragment")
    play_randomly(game, random.Random(7), moves=5)
    client = Client()
    fragment = page(client, game, 3, fragment="1")
    assert "<html" not in fragment and 'id="board"' in fragment and 'data-step="3"' in fragment
    full = page(client, game, 3)
    for control in ("replay-prev", "replay-next", "replay-slider", "replay-step", "replay-link", "board"):
        assert f'id="{control}"' in full
    assert f'href="{reverse("games:replay-step", args=[game.pk, 2])}" rel="prev"' in full
    assert re.search(r'<li id="step-3" data-step="3" class="[^"]*\bcurrent\b', full)


def test_stepping_through_a_game_replays_it_once(monkeypatch: pytest.MonkeyPatch):
    game = running_game(3, seed="replay-once")
    play_randomly(game, random.Random(8), moves=30)
    applied = 0
    original = wl.apply

    def counting(*args: object, **kw: object) -> object:
        nonlocal applied
        applied += 1
        return original(*args, **kw)  # type: ignore[arg-type]

    monkeypatch.setattr(wl, "apply", counting)
    client = Client()
    for n in range(1, 20):
        page(client, game, n)
    moves = game.events.filter(kind__in=services.MOVE_KINDS).count()
    assert applied == moves  # one replay for all 19 pages
