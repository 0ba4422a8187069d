"""The narration projection: rows written move by move, inline with the events, are the rows a
rebuild from the log writes (random games of both games, with deadline defaults and a
moderator's rollback), and they tell every seat, in every language, what replaying the game
tells it."""

from __future__ import annotations

import random
from io import StringIO
from typing import Any

import pytest
from django.core.management import call_command
from django.utils import translation
from django.utils.translation import gettext
from hypothesis import HealthCheck, given
from hypothesis import settings as examples
from hypothesis import strategies as st

from games import services
from games.models import Game, Narration
from games.presentation import words
from games.projections import narration
from tests.games.factories import players

pytestmark = pytest.mark.django_db


def new_game(rules: str, seed: str) -> Game:
    game = services.create_game(players(3), rules=rules, seed=seed)
    services.start_game(game)
    game.refresh_from_db()
    return game


def play(game: Game, rng: random.Random, moves: int, defaults: float = 0.1) -> None:
    """Random legal moves through the service, a deadline's default now and then."""
    rules = services.rules_of(game)
    for _ in range(moves):
        state = services.head_state(game)
        decisions = rules.pending(state)
        if not decisions or rules.outcome(state) is not None:
            break
        seat = rng.choice(decisions).seat
        if rng.random() < defaults:
            services.apply_default(game, seat)
        else:
            services.submit(game, seat, rng.choice(rules.legal(state, seat)))
    game.refresh_from_db()


def roll_back(game: Game, rng: random.Random) -> None:
    """A moderator's rollback to a random move in effect before the head (if there is one)."""
    kept = services.effective(game.events.order_by("seq"))
    moves = [e.seq for e in kept if e.kind in services.MOVE_KINDS and e.seq < game.head_seq]
    if moves:
        services.rollback(game, rng.choice(moves), by=None, reason="test")
        game.refresh_from_db()


def rows(game: Game) -> list[tuple[int, int, Any]]:
    return list(Narration.objects.filter(game=game).order_by("seq").values_list("seq", "seat", "lines"))


def news_as_before(game: Game, seat: int) -> list[str]:
    """What the mails told a seat of the whole game before the projection: every move in
    effect replayed, a default's line, then the engine's lines the seat may see (the old
    ``emails._seen`` and ``_default_news``, kept here as the reference)."""
    rules = services.rules_of(game)
    colours = {s.position: s.colour for s in game.seats.all()}
    told: list[str] = []
    before: Any = None
    for event, state, log in services.walk_all(game):
        if event.kind in services.MOVE_KINDS and event.seat is not None:
            if event.kind == "default":
                colour = words.colour(colours[event.seat])
                sealed = any(d.seat == event.seat and d.sealed for d in rules.pending(before))
                if sealed and event.seat != seat:
                    told.append(
                        gettext(
                            "{colour}'s deadline passed; the default was played for their sealed choice"
                        ).format(colour=colour)
                    )
                else:
                    told.append(
                        gettext("{colour}'s deadline passed; the default move was played: {command}").format(
                            colour=colour,  # the command in the reader's notation, as they write it
                            command=rules.format_command_in(
                                before,
                                rules.serial.command_from_dict(event.payload["command"]),
                                translation.get_language() or "en",
                            ),
                        )
                    )
            told += [rules.presentation.narrate(state, e, gettext) for e in log if e.visible_to(seat)]
        before = state
    return told


def replayed_news(game: Game, seat: int) -> list[str]:
    """What a seat is told of the whole game when the log is replayed (the mails' old way)."""
    lines = narration.replayed(game, 0, game.head_seq)
    return [m.render(translation.gettext) for _, told in lines for m in narration.messages(told, seat)]


@examples(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    rules=st.sampled_from(["whitelotus", "verbotenestadt"]),
    seed=st.integers(0, 10**6),
    before=st.integers(5, 120),
    after=st.integers(0, 40),
    rolls_twice=st.booleans(),
)
def test_rows_written_move_by_move_equal_the_rebuilt_ones(
    rules: str, seed: int, before: int, after: int, rolls_twice: bool
) -> None:
    rng = random.Random(seed)
    game = new_game(rules, f"narration-{seed}")
    play(game, rng, before)
    roll_back(game, rng)  # a moderator undoes the last moves, then the game goes on
    play(game, rng, after)
    if rolls_twice:  # and once more, maybe into the moves the first rollback undid
        roll_back(game, rng)
        play(game, rng, after // 2)
    written = rows(game)
    assert narration.stored(game, 0, game.head_seq) is not None  # rows hold every move in effect
    assert narration.rebuild(game) == len(written)
    assert rows(game) == written
    for seat in range(services.seats_of(game)):
        for language in ("en", "de", "fr"):
            with translation.override(language):
                told = narration.news(game, seat, 0, game.head_seq)
                assert told == replayed_news(game, seat) == news_as_before(game, seat)


def test_a_rollback_withdraws_the_lines_of_the_moves_it_undoes() -> None:
    game = new_game("whitelotus", "undo")
    play(game, random.Random(1), 12, defaults=0)
    kept = game.head_seq - 5
    services.rollback(game, kept, by=None, reason="test")
    assert max(seq for seq, _, _ in rows(game)) <= kept
    assert (
        Narration.objects.filter(game=game).count()
        == game.events.filter(kind__in=services.MOVE_KINDS, seq__lte=kept).count()
    )


def test_private_lines_reach_only_their_seat() -> None:
    game = new_game("verbotenestadt", "private")
    play(game, random.Random(2), 10, defaults=0)
    private = [line for _, _, lines in rows(game) for line in lines if line["to"] is not None]
    assert private, "a dial is told to its seat alone"
    for line in private:
        assert narration.visible(line, line["to"])
        assert not any(narration.visible(line, s) for s in range(3) if s != line["to"])
        assert not narration.visible(line, None)


def test_the_command_rebuilds_one_game_or_all() -> None:
    game = new_game("whitelotus", "command")
    play(game, random.Random(3), 8, defaults=0)
    written = rows(game)
    Narration.objects.filter(game=game).delete()
    out = StringIO()
    call_command("rebuild_narration", "--game", str(game.pk), stdout=out)
    assert rows(game) == written
    assert f"game {game.pk}: {len(written)} move(s) narrated" in out.getvalue()
    call_command("rebuild_narration", stdout=StringIO())
    assert rows(game) == written


def test_a_game_without_rows_is_told_from_its_log() -> None:
    """A game older than the projection (or before ``rebuild_narration``) still tells its news."""
    game = new_game("whitelotus", "old")
    play(game, random.Random(4), 10, defaults=0)
    told = narration.news(game, 0, 0, game.head_seq)
    Narration.objects.filter(game=game).delete()
    assert narration.stored(game, 0, game.head_seq) is None
    assert narration.news(game, 0, 0, game.head_seq) == told


def test_a_mail_about_an_event_a_later_rollback_undid_still_tells_its_moves() -> None:
    game = new_game("whitelotus", "later")
    play(game, random.Random(5), 12, defaults=0)
    seq = game.head_seq
    told = narration.news(game, 1, 0, seq)
    services.rollback(game, seq - 4, by=None, reason="test")
    assert narration.news(game, 1, 0, seq) == told


def test_show_game_tells_what_the_replay_told() -> None:
    """``manage.py show_game``'s narration reads the rows: the same lines as a replay gives."""
    from games import jobs

    game = new_game("verbotenestadt", "show")
    play(game, random.Random(6), 30)
    rules = services.rules_of(game)
    for seat, everything in ((None, False), (0, False), (1, False), (None, True)):
        replayed = {
            event.seq: jobs.Narrated(
                any(e.kind == "sealed" and e.private_to == event.seat for e in log),
                [rules.presentation.narrate(state, e) for e in log if everything or e.visible_to(seat)],
            )
            for event, state, log in services.walk(game)
        }
        assert jobs.narrated_log(game, seat, everything=everything) == replayed


def test_the_game_page_log_reads_rows_and_says_what_the_replay_said(
    monkeypatch: pytest.MonkeyPatch, settings: Any
) -> None:
    """A game's page at its head (``steps.at_head``) shows the log the replayed timeline shows,
    to spectators, seats and moderators, and replays nothing to do it."""
    from games.presentation import display, steps
    from games.rules import registry

    game = new_game("verbotenestadt", "page")
    play(game, random.Random(7), 60, defaults=0.2)
    assert game.head_seq > settings.GAMES_SNAPSHOT_EVERY
    rules = registry.get("verbotenestadt")
    real, calls = rules.apply, []

    def counting(*args: Any, **kwargs: Any) -> Any:
        calls.append(1)
        return real(*args, **kwargs)

    monkeypatch.setattr(rules, "apply", counting)
    steps.clear_cache()
    head = steps.at_head(game)
    # at most the moves since the latest snapshot (the head is not cached here: the test's
    # transaction never commits), where the replayed timeline applies every move
    assert len(calls) < settings.GAMES_SNAPSHOT_EVERY
    assert head.head.state == services.head_state(game)
    replayed = steps.timeline(game)
    assert len(head) == len(replayed)
    for reader, everything in ((None, False), (0, False), (2, False), (None, True)):
        fresh = (steps.Timeline(head.steps, head.rules), steps.Timeline(replayed.steps, replayed.rules))
        assert display.log_html(fresh[0], game, reader, everything=everything) == display.log_html(
            fresh[1], game, reader, everything=everything
        )
