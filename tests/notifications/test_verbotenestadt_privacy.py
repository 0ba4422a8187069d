"""No mail to a seat of Die Verbotene Stadt shows another seat's dial, its sealed answer or
the order of the face-down cards while the game runs.

Random games are played through the service and their mails sent; then each mail is rendered
again from a state in which every other seat's secrets are different (another dial, another
sealed answer, the piles in another order): what the seat reads (subject, text, HTML) must be
the same.  And no sentence the engine said to one seat only reaches another."""

from __future__ import annotations

import dataclasses
import html
import random
from typing import Any

import pytest
from django.core import mail as django_mail
from django.utils import translation
from django.utils.translation import gettext

from games import services
from games.presentation import seatview
from games.rules import registry
from notifications.models import OutboundMail
from notifications.outbound import emails
from tests.notifications.helpers import deliver_pending
from tests.notifications.vsgames import new_game

pytestmark = pytest.mark.django_db

vs = registry.get("verbotenestadt")
CHECKED = 40  # mails re-rendered per game (spread over the game)


def play_at_random(game, rng: random.Random) -> None:
    """Bots and chance: a bot's choice or any legal command (a doubt, a wandering move)."""
    state = services.head_state(game)
    while vs.outcome(state) is None:
        decision = rng.choice(vs.pending(state))
        seat = decision.seat
        legal = vs.legal(state, seat)
        command = rng.choice(legal) if rng.random() < 0.3 else vs.about.Bot(f"p{seat}").choose(state, seat)
        services.submit(game, seat, command)
        state = services.head_state(game)


def others_changed(state: Any, seat: int) -> Any:
    """``state`` with every other seat's secrets changed: dial, sealed answer, pile order."""
    if state.phase == "finished":
        return state
    on_board = state.on_board()
    dials = list(state.dials)
    sealed = list(state.sealed)
    for other in range(len(dials)):
        if other == seat:
            continue
        if dials[other] is not None:
            dials[other] = next(c for c in on_board if c != dials[other])
        if other < len(sealed) and sealed[other] is not None:
            answer = sealed[other]
            swap = {"believe": "doubt", "doubt": "believe", "keep": on_board[0]}
            sealed[other] = swap.get(answer) or next(c for c in on_board if c != answer)
    piles = tuple(tuple(reversed(p)) for p in state.piles)
    return dataclasses.replace(state, dials=tuple(dials), sealed=tuple(sealed), piles=piles)


def private_lines(game, language: str) -> dict[int, set[str]]:
    said: dict[int, set[str]] = {}
    with translation.override(language):
        for _, state, log in services.walk(game):
            for entry in log:
                if entry.private_to is not None:
                    said.setdefault(entry.private_to, set()).add(
                        vs.presentation.narrate(state, entry, gettext)
                    )
    return said


@pytest.mark.slow
@pytest.mark.parametrize(("players", "seed", "options"), [(3, 1, {}), (4, 2, {"partners": True})])
def test_no_mail_to_a_seat_shows_another_seat_s_secrets(monkeypatch, players, seed, options):
    game = new_game(players, seed=f"vs-privacy-{seed}", **options)
    play_at_random(game, random.Random(seed))
    deliver_pending()
    sent = {m.extra_headers["Message-ID"].strip("<>"): m for m in django_mail.outbox}
    rows = list(OutboundMail.objects.filter(game=game).exclude(seat=None).order_by("pk"))
    assert len(rows) > CHECKED
    secrets = {lang: private_lines(game, lang) for lang in ("en", "de", "fr")}
    for row in rows:  # no private sentence of another seat, in the reader's language
        message = sent[row.message_id]
        text = message.subject + message.body + html.unescape(message.alternatives[0][0])
        mine = secrets[row.player.language].get(row.seat, set())
        for other, lines in secrets[row.player.language].items():
            if other != row.seat:
                for line in lines - mine:
                    assert line not in text, (row.kind, row.seat, other, line)
    real_seen = seatview.seen
    checked = 0
    for row in rows[:: max(1, len(rows) // CHECKED)]:
        state = services.state_at(game, row.seq)
        if state.phase == "finished":
            continue
        same = emails.render(row)

        def changed_seen(game_, seat, seq, since, _row=row):
            seen, news = real_seen(game_, seat, seq, since)
            if seat != _row.seat or seq != _row.seq:
                return seen, news
            altered = others_changed(seen.state, seat)
            view = seen.rules.view(altered, seat)
            return dataclasses.replace(seen, state=altered, view=view), news

        monkeypatch.setattr(seatview, "seen", changed_seen)
        other = emails.render(row)
        monkeypatch.setattr(seatview, "seen", real_seen)
        assert (other.subject, other.text, other.html) == (same.subject, same.text, same.html), (
            row.kind,
            row.seat,
            row.seq,
        )
        checked += 1
    assert checked > CHECKED // 2
