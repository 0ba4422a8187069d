"""Die Verbotene Stadt through the whole service: its pages (game, seat, replay), the admin's
audit (hidden state for moderators only) and actions, records (export, import, create_game,
show_game), and a property test that no page shows a seat's dial or the order of the
face-down cards while the game runs."""

from __future__ import annotations

import random
import re
from datetime import timedelta
from io import StringIO
from typing import Any

import pytest
from django.core.management import call_command
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from games import jobs, services
from games.models import Event, Game, Player
from games.services import links
from tests.games.factories import players
from tests.games.helpers import RULES, play, text_of, vs_game
from tests.games.moderating import confirmed_act

pytestmark = pytest.mark.django_db


def entered(state: Any) -> bool:
    return bool(state.terrace) and state.phase == "move"


def dial_shown(html: str, code: str) -> bool:
    """Whether a page shows ``code`` as a seat's dial (the seat page's own dial box)."""
    return f'<dd class="dial"><code>{code}</code>' in html


def pile_shown(html: str, pile: Any) -> bool:
    order = ", ".join(f"{colour} {piece}" for colour, piece in pile)
    return order in text_of(html)


# --- pages -------------------------------------------------------------------------------------------


def test_the_game_page_shows_the_board_terrace_pavilions_cards_target_fate_and_whose_move(client):
    game = vs_game()
    state = play(game, until=entered)
    html = client.get(reverse("games:game", args=[game.pk])).content.decode()
    assert "Die Verbotene Stadt by mail" in html  # the header names the game
    assert re.search(r'<div id="board" class="board"[^>]*><svg', html)  # the board picture
    assert 'id="vs-terrace"' in html and f"{len(state.terrace)} official" in html
    for code in state.terrace:
        assert f'">{code}</code>' in html.split('id="vs-terrace"', 1)[1].split("</p>", 1)[0]
    for number, pile in enumerate(state.piles, start=1):
        assert f'data-number="{number}" data-cards-left="{len(pile)}"' in html
    assert 'id="vs-target"' in html and 'id="vs-fate"' in html
    assert f"pavilion {state.target} (" in html
    assert 'id="waiting"' in html and "move" in html
    view = services.rules_of(game).view(state, None)
    for p in view["players"]:
        assert f'data-colour="{p["colour"]}" data-score="{p["score"]["total"]}"' in html
        for card in p["cards"]:
            assert f'data-colour="{card["colour"]}" data-piece="{card["piece"]}"' in html
    assert f"<code>{game.seed_hash}</code>" in html  # the seed's hash, public from the start
    assert "influence" not in html and "VP chips" not in html  # nothing of White Lotus
    assert 'class="you"' not in html and 'id="menu"' not in html


def test_the_seat_page_shows_its_own_dial_menu_and_notation_and_no_other_dial(client):
    game = vs_game()
    state = play(game, until=entered)
    rules = services.rules_of(game)
    active = rules.pending(state)[0].seat
    seat = game.seats.get(position=active)
    html = client.get(links.seat_page_url(seat)).content.decode()
    own = state.dials[active]
    assert dial_shown(html, own)
    others = {d for s, d in enumerate(state.dials) if s != active and d != own}
    assert not any(dial_shown(html, d) for d in others)
    assert 'id="menu"' in html and "move " in html  # what it may send now
    assert 'id="notation"' in html and "<code>move rg n e</code>" in html
    other = game.seats.get(position=(active + 1) % 3)
    theirs = client.get(links.seat_page_url(other)).content.decode()
    assert dial_shown(theirs, state.dials[other.position]) and 'id="menu"' not in theirs
    assert "You have nothing to decide now." in theirs


def test_the_replay_steps_through_a_whole_game_with_narration_and_shows_everything_at_the_end(client):
    game = vs_game(2, seed="replay")
    state = play(game)
    assert game.status == Game.Status.FINISHED
    last = game.events.count()
    pages = {}
    narrated = 0
    for step in range(1, last + 1):
        response = client.get(reverse("games:replay-step", args=[game.pk, step]), {"fragment": "1"})
        assert response.status_code == 200, step
        html = response.content.decode()
        happened = html.split('id="replay-happened">', 1)[1].split("</div>", 1)[0]
        narrated += 'class="line' in happened
        pages[step] = html
    assert narrated >= last - 3  # created and started are summaries; every move is narrated
    final = client.get(reverse("games:replay-step", args=[game.pk, last])).content.decode()
    assert 'id="outcome"' in final and f"<code>{state.seed}</code>" in final
    assert "What each seat held" in final
    for s, dial in enumerate(state.dials):
        if dial:
            assert dial_shown(final, dial), s
    outcome = services.rules_of(game).outcome(state)
    assert outcome is not None
    ranks = re.findall(r'<td class="rank">(\d)</td>', final)
    assert [int(r) for r in ranks] == list(outcome.rank)


def test_white_lotus_pages_keep_their_own_header_and_partials(client):
    wl = services.create_game(players(3), seed="wl")
    services.start_game(wl)
    html = client.get(reverse("games:game", args=[wl.pk])).content.decode()
    assert re.search(r'<header class="site"><a [^>]*>White Lotus by mail</a>', html)
    assert 'id="notation"' not in html and "vs-state" not in html


# --- the admin ---------------------------------------------------------------------------------------


def admin_url(name: str, *args: Any) -> str:
    return reverse(f"admin:games_{name}", args=args)


def act(game: Game, action: str) -> str:
    return admin_url("game_action", game.pk, action)


def test_the_audit_shows_moderators_every_dial_with_its_commitment_and_the_face_down_order(mod, client):
    game = vs_game()
    state = play(game, until=entered)
    html = mod.get(admin_url("game_audit", game.pk)).content.decode()
    assert 'id="hidden-dials"' in html and 'id="hidden-piles"' in html
    for s, dial in enumerate(state.dials):
        assert f'<td class="dial"><code>{dial}</code></td>' in html, s
        assert f'<code class="commitment">{state.commitments[s]}</code>' in html
    for pile in state.piles:
        if pile:
            order = ", ".join(f"{c} {p}" for c, p in pile)
            assert f'<td class="pile">{order}</td>' in html
    # a staff user who is not a moderator sees none of it
    other = Client()
    from django.contrib.auth.models import User

    other.force_login(User.objects.create_user("staff", "staff@example.org", "pw", is_staff=True))
    refused = other.get(admin_url("game_audit", game.pk))
    assert refused.status_code in (403, 404)
    assert "hidden-piles" not in refused.content.decode()


def test_rollback_pause_extend_and_replace_through_the_admin(mod, moderator):
    game = vs_game()
    play(game, 6)
    rules = services.rules_of(game)
    before = rules.serial.state_to_dict(services.state_at(game, 4))
    response = confirmed_act(mod, act(game, "rollback"), {"to_seq": 4, "reason": "a wrong dial"}, follow=True)
    assert response.status_code == 200
    rolled = game.events.order_by("-seq").first()
    assert (rolled.kind, rolled.actor, rolled.payload) == (Event.Kind.ROLLED_BACK, moderator, {"to_seq": 4})
    assert rules.serial.state_to_dict(services.head_state(game)) == before

    confirmed_act(mod, act(game, "pause"), {"reason": "a dispute"})
    game.refresh_from_db()
    assert game.status == Game.Status.PAUSED
    confirmed_act(mod, act(game, "resume"), {"reason": "settled"})
    game.refresh_from_db()
    assert game.status == Game.Status.RUNNING

    until = (timezone.now() + timedelta(days=5)).replace(second=0, microsecond=0)
    confirmed_act(mod, act(game, "extend"), {"until": until.strftime("%Y-%m-%dT%H:%M"), "reason": "holiday"})
    assert set(game.decisions.owed().values_list("deadline_at", flat=True)) == {until}

    gus = Player.objects.create(name="Gus", email="gus@example.org")
    confirmed_act(mod, act(game, "replace"), {"position": 1, "email": "gus@example.org", "reason": "left"})
    assert game.seats.get(position=1).player == gus
    kinds = list(game.events.order_by("seq").values_list("kind", flat=True))[-5:]
    assert kinds == [
        Event.Kind.ROLLED_BACK,
        Event.Kind.PAUSED,
        Event.Kind.RESUMED,
        Event.Kind.DEADLINE_EXTENDED,
        Event.Kind.SEAT_REPLACED,
    ]
    play(game)  # the game plays on to its end after all that
    assert game.status == Game.Status.FINISHED
    assert mod.get(admin_url("game_audit", game.pk)).status_code == 200


# --- records and the operator's commands --------------------------------------------------------------


def test_export_and_import_round_trip_a_finished_game():
    game = vs_game(4, seed="record", options={"partners": True})
    state = play(game)
    assert game.status == Game.Status.FINISHED
    rules = services.rules_of(game)
    text = jobs.export_record(game)
    assert text.startswith("# Die Verbotene Stadt game record\nrules: verbotenestadt\n")
    copy = jobs.import_record(text, name="copy")
    assert copy.rules == RULES and copy.options["partners"] is True
    again = services.head_state(copy)
    assert rules.serial.state_to_dict(again) == rules.serial.state_to_dict(state)
    assert rules.outcome(again) == rules.outcome(state)
    assert jobs.export_record(copy).split("\n\n")[1] == text.split("\n\n")[1]


def test_export_game_and_import_game_commands(tmp_path):
    game = vs_game(2, seed="commands")
    state = play(game)
    out = StringIO()
    call_command("export_game", str(game.pk), stdout=out)
    path = tmp_path / "game.txt"
    path.write_text(out.getvalue())
    call_command("import_game", str(path), stdout=StringIO())
    copy = Game.objects.exclude(pk=game.pk).get()
    rules = services.rules_of(copy)
    assert rules.outcome(services.head_state(copy)).scores == rules.outcome(state).scores


def test_create_game_and_show_game_commands():
    out = StringIO()
    call_command(
        "create_game",
        "--player=a@example.org,b@example.org,c@example.org,d@example.org",
        "--rules",
        RULES,
        "--option",
        "partners=yes",
        "--start",
        stdout=out,
    )
    game = Game.objects.get()
    assert (game.rules, game.board, game.options["partners"]) == (RULES, "forbidden_city", True)
    assert game.status == Game.Status.RUNNING
    assert "Die Verbotene Stadt" in out.getvalue()
    shown = StringIO()
    call_command("show_game", str(game.pk), stdout=shown)
    text = shown.getvalue()
    assert "Die Verbotene Stadt" in text and "Waiting for:" in text and "Terrace of banishment" in text
    assert f"seed hash: {game.seed_hash}" in text
    mine = StringIO()
    call_command("show_game", str(game.pk), "--as", "east", stdout=mine)
    assert "you may:" in mine.getvalue() and "dial one of: rr" in mine.getvalue()
    assert "As east: window (kind dial, seats 0/1/2/3)" in mine.getvalue()  # no dial set yet
    services.submit(game, 1, "dial rg")
    mine = StringIO()
    call_command("show_game", str(game.pk), "--as", "east", "--log", "0", stdout=mine)
    (line,) = [line for line in mine.getvalue().splitlines() if line.startswith("As east: ")]
    assert "dial (code rg)" in line or "choice rg" in line, line
    other = StringIO()
    call_command("show_game", str(game.pk), "--as", "north", "--log", "0", stdout=other)
    assert "rg" not in other.getvalue().split("As north:", 1)[1].split("you may:")[0]
    play(game)
    end = StringIO()
    call_command("show_game", str(game.pk), stdout=end)
    assert "Final scores: " in end.getvalue() and "Winner(s): " in end.getvalue()
    assert f"seed: {services.head_state(game).seed}" in end.getvalue()


# --- the property: no page tells a secret while the game runs ----------------------------------------

DIAL_BOX = re.compile(r'<dd class="dial"><code>(\w\w)</code>')


def test_no_page_shows_a_dial_or_the_face_down_order_while_running_and_replays_are_deterministic(client):
    """Bots (random keys, so random games that end: purely random legal moves wander for
    thousands of moves) answer in random order within a sealed window; every ~12th decision
    every page is fetched and searched."""
    rng = random.Random(13)
    for round_, n in enumerate((2, 4)):
        game = vs_game(n, seed=f"prop{round_}", options={"partners": n == 4})
        rules = services.rules_of(game)
        bots = [rules.about.Bot(f"prop{rng.random()}:{s}") for s in range(n)]
        state = services.head_state(game)
        checked = 0
        while decisions := rules.pending(state):
            seat = rng.choice(decisions).seat
            services.submit(game, seat, bots[seat].choose(state, seat))
            state = services.head_state(game)
            if rules.outcome(state) is not None or rng.random() > 1 / 12:
                continue
            checked += 1
            steps = game.events.count()
            pages = {
                None: [
                    client.get(reverse("games:game", args=[game.pk])).content.decode(),
                    client.get(reverse("games:replay-step", args=[game.pk, steps])).content.decode(),
                    client.get(
                        reverse("games:replay-step", args=[game.pk, max(1, steps - 3)])
                    ).content.decode(),
                ]
            }
            for s in range(n):
                pages[s] = [client.get(links.seat_page_url(game.seats.get(position=s))).content.decode()]
            piles = [pile for pile in state.piles if len(pile) > 1]  # one card has no order
            for reader, htmls in pages.items():
                for html in htmls:
                    shown = set(DIAL_BOX.findall(html))
                    assert shown <= ({state.dials[reader]} if reader is not None else set()), (reader, shown)
                    assert "What each seat held" not in html
                    assert 'class="dial"' in html if reader is not None else 'class="dial"' not in html
                    assert not any(pile_shown(html, pile) for pile in piles), reader
                    for s in range(n):  # another seat's sealed answer or plan
                        if s != reader and state.plan and s == state.active:
                            assert 'class="plan"' not in html
        game.refresh_from_db()
        assert game.status == Game.Status.FINISHED
        assert checked, "no page was looked at"
        services.clear_caches()
        rebuilt, same = services.replay_game(game)
        assert same
        services.clear_caches()
        again = jobs.replay_game(game).state
        assert (
            rules.serial.state_to_dict(rebuilt)
            == rules.serial.state_to_dict(again)
            == rules.serial.state_to_dict(state)
        )
