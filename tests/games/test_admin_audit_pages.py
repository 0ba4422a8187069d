"""The audit page of a long game: folded by year, filtered by seat and kind, the deadline each
seat owes, and "roll back to here" with a confirmation of what it undoes."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse
from django.utils import timezone

from games import services
from games.models import Event, Game, Player
from tests.games.factories import running_game, whose_turn
from tests.games.moderating import confirmed_act

pytestmark = pytest.mark.django_db


def audit(game):
    return reverse("admin:games_game_audit", args=[game.pk])


def confirm(game, seq):
    return reverse("admin:games_game_rollback", args=[game.pk, seq])


def play(game, moves):
    for _ in range(moves):
        services.apply_default(game, whose_turn(game))
    game.refresh_from_db()


def until_year(game, year):
    """Default moves until the game is in ``year``."""
    for _ in range(600):
        if services.rules_of(game).view(services.head_state(game), None).get("year") == year:
            return
        services.apply_default(game, whose_turn(game))
    pytest.fail(f"year {year} not reached")


def test_the_log_is_folded_by_year_with_only_the_latest_year_open(mod):
    game = running_game(3, seed="folds")
    until_year(game, 2)
    play(game, 2)
    html = mod.get(audit(game)).content.decode()
    folds = re.findall(r'<details class="wl-fold" id="fold-\d+"( open)?>\s*<summary>(Year \d+)', html)
    assert [label for _, label in folds] == ["Year 1", "Year 2"]
    assert [bool(opened) for opened, _ in folds] == [False, True]
    # every event is in exactly one fold
    assert len(re.findall(r'<tr id="event-\d+"', html)) == game.events.count()


def test_the_log_filters_by_seat_and_by_kind(mod):
    game = running_game(4, seed="filters")
    play(game, 6)
    blue = game.seats.get(colour="blue").position
    kind = game.events.filter(seat=blue).first().kind  # the defaults played for blue
    html = mod.get(audit(game), {"seat": blue, "kind": kind}).content.decode()
    shown = [int(seq) for seq in re.findall(r'<tr id="event-(\d+)"', html)]
    expected = list(game.events.filter(seat=blue, kind=kind).order_by("seq").values_list("seq", flat=True))
    assert len(expected) < game.events.count() - 2
    assert shown == expected and shown
    assert f"{len(expected)} of {game.events.count()} events" in html
    assert f'<option value="{blue}" selected>' in html
    # nonsense is no filter at all
    everything = mod.get(audit(game), {"seat": "99", "kind": "drop table"}).content.decode()
    assert len(re.findall(r'<tr id="event-\d+"', everything)) == game.events.count()


def test_the_deadline_shown_is_the_one_the_seat_owes(mod):
    game = running_game(4, seed="deadline")
    due = game.decisions.owed().get()
    html = mod.get(audit(game)).content.decode()
    cell = re.search(r'<td id="deadlines">(.*?)</td>', html, re.S)
    assert cell is not None
    assert "—" not in cell.group(1)
    assert timezone.localtime(due.deadline_at).strftime("%Y-%m-%d %H:%M") in cell.group(1)
    assert game.seats.get(position=due.seat).colour in cell.group(1)


def test_roll_back_to_here_asks_first_and_lists_what_it_undoes(mod, moderator):
    game = running_game(4, seed="roll-here")
    play(game, 5)
    head = game.head_seq
    target = head - 3
    html = mod.get(audit(game)).content.decode()
    assert confirm(game, target) in html
    assert confirm(game, head) not in html  # nothing after the head to undo

    page = mod.get(confirm(game, target)).content.decode()
    undone = [int(s) for s in re.findall(r'<tr id="undone-(\d+)"', page)]
    assert undone == list(range(target + 1, head + 1))
    assert "3 events will be undone" in page
    assert game.events.count() == head  # looking changed nothing

    refused = mod.post(confirm(game, target), {"to_seq": target, "reason": ""})
    assert refused.status_code == 200 and game.events.count() == head  # a reason is needed

    unconfirmed = mod.post(confirm(game, target), {"to_seq": target, "reason": "wrong province"})
    assert 'id="undone"' in unconfirmed.content.decode()  # no token: the page, nothing done
    stale = mod.post(confirm(game, target), {"to_seq": target, "reason": "wrong province", "token": "x:y"})
    assert 'id="confirm-again"' in stale.content.decode()  # a token that does not hold: nothing done
    assert game.events.count() == head
    confirmed_act(mod, confirm(game, target), {"to_seq": target, "reason": "wrong province"})
    event = game.events.order_by("-seq").first()
    assert (event.kind, event.payload, event.actor, event.reason) == (
        Event.Kind.ROLLED_BACK,
        {"to_seq": target},
        moderator,
        "wrong province",
    )


def test_roll_back_to_an_undone_event_or_before_the_start_is_refused_on_the_page(mod):
    game = running_game(3, seed="roll-refused")
    play(game, 3)
    created = game.events.get(kind=Event.Kind.CREATED).seq
    page = mod.get(confirm(game, created)).content.decode()
    assert 'id="rollback-refusal"' in page and 'id="rollback-confirm"' not in page
    services.rollback(game, game.head_seq - 2, by=None, reason="test")
    game.refresh_from_db()
    undone = game.head_seq - 1  # undone by the rollback just made
    page = mod.get(confirm(game, undone)).content.decode()
    assert "undone by a rollback already" in page
    assert game.status == Game.Status.RUNNING


def test_the_rollback_page_keeps_a_seat_replacement_apart_and_the_seat_stays_handed_on(mod):
    """A rollback takes moves back, never a seat: the page lists the replacement as kept, the
    rollback leaves the new player in the seat, and the log says the replacement stands."""
    game = running_game(4, seed="roll-kept")
    play(game, 2)
    target = game.head_seq
    gus = Player.objects.create(name="Gus", email="gus@example.org")
    replaced = services.replace_seat(game, 1, gus, by=None, reason="left the league").events[0]
    play(game, 2)
    page = mod.get(confirm(game, target)).content.decode()
    undone = [int(s) for s in re.findall(r'<tr id="undone-(\d+)"', page)]
    kept = [int(s) for s in re.findall(r'<tr id="kept-(\d+)"', page)]
    assert kept == [replaced.seq] and replaced.seq not in undone
    assert undone == [s for s in range(target + 1, game.head_seq + 1) if s != replaced.seq]
    assert "2 events will be undone" in page and "1 event will stay as it is" in page

    confirmed_act(mod, confirm(game, target), {"to_seq": target, "reason": "wrong province"})
    assert game.seats.get(position=1).player == gus
    html = mod.get(audit(game)).content.decode()
    row = re.search(rf'<tr id="event-{replaced.seq}" class="([^"]*)".*?</tr>', html, re.S)
    assert row is not None and "wl-undone" not in row.group(1)
    assert "stands: a rollback does not undo this" in row.group(0)
    # rolling back further still lists it as standing: the earlier rollback went past it too
    earlier = mod.get(confirm(game, target - 1)).content.decode()
    assert re.findall(r'<tr id="kept-(\d+)"', earlier) == [str(replaced.seq)]
