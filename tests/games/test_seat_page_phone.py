"""The seat page as a phone player's place to play (issue 30): the decision in words at the
top, its deadline in the reader's language and zone, each legal command as a one-tap mail to
the seat, a board whose smallest text is 12 px, and the log folded by year or turn."""

from __future__ import annotations

import re
from datetime import timedelta
from urllib.parse import parse_qs, unquote, urlsplit

import pytest
import time_machine
from django.test import Client
from django.utils import timezone
from django.utils.html import escape

from games import services
from games.models import PendingDecision
from games.presentation import display
from games.services import links
from notifications.services import tokens
from tests.games.factories import running_game, whose_turn
from tests.games.helpers import play, vs_game

pytestmark = pytest.mark.django_db


def _seat_page(seat) -> str:
    response = Client().get(urlsplit(links.seat_page_url(seat)).path)
    assert response.status_code == 200
    return response.content.decode()


def _replies(html: str) -> list[tuple[str, dict[str, list[str]]]]:
    found = re.findall(r'<a class="reply" href="mailto:([^"?]+)\?([^"]+)">', html)
    return [(address, parse_qs(query.replace("&amp;", "&"))) for address, query in found]


def test_the_seat_to_move_reads_its_decision_and_deadline_first_and_answers_with_one_tap():
    game = running_game(3, seed="phone-top")
    seat = game.seats.get(position=whose_turn(game))
    owed = PendingDecision.objects.owed().get(game=game, seat=seat.position)
    PendingDecision.objects.filter(pk=owed.pk).update(
        deadline_at=timezone.now() + timedelta(hours=5, minutes=1)
    )
    html = _seat_page(seat)
    top = html[html.index('id="decision"') : html.index('id="board"')]
    assert "Your move (" in top and "Deadline:" in top and "in 5\xa0hours" in top
    state = services.head_state(game)
    rules = services.rules_of(game)
    assert rules.presentation.decision_text(rules.view(state, seat.position), owed.kind) in top
    replies = _replies(top)
    legal = {rules.format_command_in(state, c, "en") for c in rules.legal(state, seat.position)}
    assert replies and len(replies) == min(len(legal), 40)
    for address, query in replies:
        assert address == tokens.reply_address(seat)
        command = query["body"][0]
        assert command in legal
        assert rules.format_command_in(state, rules.parse_command(state, command), "en") == command


def test_a_german_player_reads_the_top_in_german_in_their_zone_with_commands_in_german():
    game = running_game(3, seed="phone-de")
    seat = game.seats.get(position=whose_turn(game))
    seat.player.language, seat.player.time_zone = "de", "Europe/Berlin"
    seat.player.save()
    with time_machine.travel("2026-11-28 09:00Z", tick=False):
        PendingDecision.objects.filter(game=game, seat=seat.position).update(
            deadline_at=timezone.now() + timedelta(hours=5)
        )
        html = _seat_page(seat)
    top = html[html.index('id="decision"') : html.index('id="board"')]
    assert "Du bist am Zug" in top and "Frist:" in top and "in 5\xa0Stunden" in top and "15:00" in top
    state = services.head_state(game)
    rules = services.rules_of(game)
    for _, query in _replies(top):
        assert rules.parse_command(state, query["body"][0]) in rules.legal(state, seat.position)
        assert unquote(query["body"][0]) == rules.format_command_in(
            state, rules.parse_command(state, query["body"][0]), "de"
        )


def test_a_seat_with_nothing_to_decide_is_told_so_at_the_top_and_gets_no_replies():
    game = running_game(3, seed="phone-idle")
    idle = game.seats.exclude(position=whose_turn(game)).first()
    html = _seat_page(idle)
    assert 'id="decision">You have nothing to decide now.' in html.replace('class="decision none" ', "")
    assert not _replies(html)


def test_die_verbotene_stadt_seat_page_has_its_decision_and_one_tap_replies_too():
    game = vs_game(3, seed="phone-vs")
    play(game, 4)
    state = services.head_state(game)
    rules = services.rules_of(game)
    deciding = rules.pending(state)[0].seat
    html = _seat_page(game.seats.get(position=deciding))
    replies = _replies(html[: html.index('id="board"')])
    assert replies
    for _, query in replies:
        assert rules.parse_command(state, query["body"][0]) in rules.legal(state, deciding)


@pytest.mark.parametrize(
    ("make", "reader"),
    [(lambda: running_game(3, seed="phone-board"), None), (lambda: vs_game(3, seed="phone-vsb"), 0)],
)
def test_the_game_and_seat_pages_write_the_board_out_in_the_readers_language(make, reader):
    game = make()
    rules = services.rules_of(game)
    state = services.head_state(game)
    names = display.names(list(game.seats.select_related("player")))
    if reader is None:
        html = Client().get(f"/games/{game.pk}/").content.decode()
        view = display.view_of(game, state, None)
    else:
        html = _seat_page(game.seats.get(position=reader))
        view = display.view_of(game, state, reader)
    start = html.index('id="board-text"')
    written = html[start : html.index("</pre>", start)]
    for line in rules.text_board(view, names, lambda text: text):
        assert escape(line) in written
    assert start < html.index('id="board"') < html.index('id="log"')  # on a phone it comes first


def test_the_log_is_folded_by_year_with_the_latest_open():
    game = running_game(3, seed="phone-log")
    while services.head_state(game).year < 2:
        services.apply_default(game, whose_turn(game))
        game.refresh_from_db()
    html = Client().get(f"/games/{game.pk}/").content.decode()
    parts = re.findall(r'<details class="log-part"( open)?><summary>([^<]*)', html)
    labels = [label.strip() for _, label in parts]
    assert labels[0] == "The start" and labels[1].startswith("Year 2 (emperor: ")  # year 1 opens the game
    assert [bool(opened) for opened, _ in parts] == [False] * (len(parts) - 1) + [True]
    replay = Client().get(f"/games/{game.pk}/replay/3/").content.decode()
    opened = re.findall(r'<details class="log-part"( open)?><summary>', replay)
    assert opened[0] == " open" and opened[-1] == " open"
