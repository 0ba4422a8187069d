"""A decision mail late in a long game renders without replaying the game: its news are read
from the narration projection, its state from the cached head or the latest snapshot (issue
26).  Counted by the engine's ``apply`` calls, which a replay makes one per move."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest
from django.conf import settings

from games import services
from games.rules import registry
from notifications.models import OutboundMail
from notifications.outbound import emails
from tests.games.factories import play_randomly, running_game

pytestmark = pytest.mark.django_db


@pytest.fixture
def applied(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[int]]:
    """The engine's ``apply`` calls made through the rules module (how the service replays)."""
    rules = registry.get("whitelotus")
    real = rules.apply
    calls: list[int] = []

    def counting(*args: Any, **kwargs: Any) -> Any:
        calls.append(1)
        return real(*args, **kwargs)

    monkeypatch.setattr(rules, "apply", counting)
    yield calls


def late_decision() -> OutboundMail:
    game = running_game(4, seed="late")
    play_randomly(game, random.Random(26), moves=150)
    assert game.head_seq > 140
    mail = OutboundMail.objects.filter(game=game, kind="decision").order_by("-seq").first()
    assert mail is not None and mail.seq > 140
    return mail


def test_a_late_decision_mail_renders_without_replaying_the_game(applied: list[int]) -> None:
    mail = late_decision()
    applied.clear()
    rendered = emails.render(mail)
    assert rendered.text
    assert applied == [], "the process that played the move has its head: nothing is replayed"


def test_a_worker_that_never_saw_the_game_replays_at_most_the_events_since_a_snapshot(
    applied: list[int],
) -> None:
    mail = late_decision()
    expected = emails.render(mail)
    services.clear_caches()  # another process: no head cached
    applied.clear()
    rendered = emails.render(mail)
    assert len(applied) < settings.GAMES_SNAPSHOT_EVERY
    assert (rendered.subject, rendered.text) == (expected.subject, expected.text)
