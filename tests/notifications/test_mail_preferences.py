"""How many mails a player gets (``notifications.services.preferences``): by default one when they must
decide, the rest told in that mail's news; ``mail all``, ``mail digest``, ``picture off``,
set by mail in English, German and French; and the board picture drawn once per event."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import timedelta
from typing import Any

import pytest
from django.core import mail as django_mail
from django.utils import timezone

from games import services
from games.models import Game
from games.presentation import seatview
from games.presentation.picture import Drawn
from games.rules import whitelotus as wl
from games.rules.base import LogEntry
from notifications.models import BoardPicture, InboundMail, MailPreference, OutboundMail
from notifications.outbound import digests, pictures
from notifications.services import preferences
from tests.games.factories import players, running_game, whose_turn
from tests.notifications.helpers import (
    a_digest_is_due,
    compose,
    deliver_pending,
    email_of,
    flat,
    parts,
    receive,
    reply_to_of,
    sent_to,
)

pytestmark = pytest.mark.django_db

Mode = MailPreference.Mode


def everyone(game: Game, mode: str) -> None:
    for seat in game.seats.all():
        MailPreference.objects.create(player_id=seat.player_id, mode=mode)


def play_to_a_reveal(game: Game) -> tuple[list[int], LogEntry, wl.State]:
    """Default moves until sealed choices are revealed; the seats that get no decision then
    (they would be mailed the reveal alone), the reveal's log entry and the state after it."""
    while True:
        state = services.head_state(game)
        decision = wl.pending(state)[0]
        command = wl.default(state, decision.seat)
        after, log = wl.apply(state, decision.seat, command)
        services.submit(game, decision.seat, command)
        deliver_pending()
        revealed = [e for e in log if e.kind in ("bids", "sides")]
        if revealed:
            deciding = {d.seat for d in wl.pending(after)}
            idle = [s for s in range(after.players) if s not in deciding]
            if idle:
                return idle, revealed[0], after


def play_until_decision_mail(game: Game, seat: int) -> OutboundMail:
    """Default moves until ``seat`` is sent a decision mail; that mail."""
    seen = OutboundMail.objects.filter(game=game, seat=seat, kind="decision").count()
    for _ in range(200):
        state = services.head_state(game)
        decision = wl.pending(state)[0]
        services.submit(game, decision.seat, wl.default(state, decision.seat))
        deliver_pending()
        mails = OutboundMail.objects.filter(game=game, seat=seat, kind="decision").order_by("seq")
        if mails.count() > seen:
            return mails.last()  # type: ignore[return-value]
    raise AssertionError("the seat was never asked again")


def test_by_default_a_reveal_is_told_in_the_next_decision_mail_not_mailed_alone():
    game = running_game(4, seed="prefs")
    deliver_pending()
    idle, reveal, after = play_to_a_reveal(game)
    assert not OutboundMail.objects.filter(game=game, kind__in=("reveal", "sealed", "year")).exists()
    seat = idle[0]
    mail = play_until_decision_mail(game, seat)
    assert wl.narrate(after, reveal) in flat(mail.text)
    assert mail.kind == "decision" and mail.status == OutboundMail.Status.SENT


def test_mail_all_sends_the_reveal_on_its_own():
    game = running_game(4, seed="prefs")
    everyone(game, Mode.ALL)
    deliver_pending()
    idle, reveal, after = play_to_a_reveal(game)
    for seat in idle:
        told = OutboundMail.objects.filter(game=game, seat=seat, kind="reveal").latest("seq")
        assert wl.narrate(after, reveal) in flat(told.text)
    assert OutboundMail.objects.filter(game=game, kind="sealed").exists()


def test_a_digest_is_one_daily_mail_for_all_games_and_decisions_stay_immediate():
    game = running_game(4, seed="prefs")
    digest_seat = 3
    player = game.seats.get(position=digest_seat).player
    other = services.create_game([player, *players(4)[:2]], seed="prefs-2")  # a second game, seat 0
    services.start_game(other)
    MailPreference.objects.create(player=player, mode=Mode.DIGEST)
    deliver_pending()
    play_to_a_reveal(game)

    def idle_with_news(g: Game, seat: int) -> bool:
        head = Game.objects.get(pk=g.pk).head_seq
        owes = seat in {d.seat for d in wl.pending(services.head_state(g))}
        return not owes and seatview.has_news(g, seat, head, seatview.told_up_to(g, seat, head))

    for g, seat in ((game, digest_seat), (other, 0)):  # both games: news, and nothing to decide
        while not idle_with_news(g, seat):
            state = services.head_state(g)
            decision = wl.pending(state)[0]
            services.submit(g, decision.seat, wl.default(state, decision.seat))
            deliver_pending()
    assert OutboundMail.objects.filter(game=game, seat=digest_seat, kind="decision").exists()
    today = timezone.now()
    assert digests.send_digests(today) == 1
    assert digests.send_digests(today) == 0  # one a day
    (digest,) = deliver_pending()
    assert digest.kind == "digest" and digest.to_email == player.email and digest.game is None
    names = sorted((g.name or f"Game {g.pk}" for g in (game, other)), key=lambda n: n)
    assert digest.subject == f"Your daily news · {', '.join(names)}"  # what, then the games
    parts = {(p.game_id, p.seat) for p in digest.digest_parts.all()}
    assert parts == {(game.pk, digest_seat), (other.pk, 0)}
    head = Game.objects.get(pk=game.pk).head_seq
    assert seatview.told_up_to(game, digest_seat, head) == head  # the next mail starts after it
    assert f"== {game.name or f'Game {game.pk}'} (Yellow) ==" in flat(digest.text)
    assert OutboundMail.objects.filter(kind="digest").count() == 1  # the others get none
    assert digests.send_digests(today + timedelta(days=1)) == 0  # nothing new since


def email_player(game: Game, seat: int) -> int:
    return game.seats.get(position=seat).player_id


def test_picture_off_by_mail_is_confirmed_and_the_next_decision_mail_has_no_picture():
    game = running_game(4, seed="prefs")
    deliver_pending()
    seat = whose_turn(game)
    receive(compose(reply_to_of(game, seat), email_of(game, seat), "picture off"))
    (confirmation,) = deliver_pending()
    assert confirmation.kind == "preferences"
    assert "Board picture: off" in flat(confirmation.text)
    assert "a mail when you must decide" in flat(confirmation.text)
    state = services.head_state(game)
    services.submit(game, seat, wl.default(state, seat))
    deliver_pending()
    mail = play_until_decision_mail(game, seat)
    message = next(
        m for m in sent_to(email_of(game, seat)) if m.extra_headers["Message-ID"] == f"<{mail.message_id}>"
    )
    assert "image/png" not in parts(message) and "cid:" not in mail.html
    other = next(m for m in OutboundMail.objects.filter(kind="decision").exclude(seat=seat))
    assert "cid:board." in other.html  # the others keep theirs


def test_settings_by_mail_in_german_and_french_for_all_games_or_this_one():
    game = running_game(4, seed="prefs")
    deliver_pending()
    receive(compose(reply_to_of(game, 1), email_of(game, 1), "Post alle hier\nBild aus"))
    receive(compose(reply_to_of(game, 2), email_of(game, 2), "courrier résumé"))
    bad = receive(compose(reply_to_of(game, 3), email_of(game, 3), "mail sometimes"))
    assert bad.status == InboundMail.Status.REFUSED and "mail decisions, mail all" in bad.outcome
    assert preferences.of(email_player(game, 1), game.pk) == preferences.Preferences(Mode.ALL, False, True)
    assert preferences.of(email_player(game, 1), None) == preferences.Preferences(Mode.DECISIONS, False)
    assert preferences.of(email_player(game, 2), None).mode == Mode.DIGEST
    assert preferences.of(email_player(game, 3), game.pk) == preferences.Preferences()


def test_the_confirmation_and_the_seat_page_speak_german():
    game = running_game(3, seed="prefs")
    deliver_pending()
    player = game.seats.get(position=0).player
    player.language = "de"
    player.save()
    receive(compose(reply_to_of(game, 0), player.email, "post täglich"))
    (confirmation,) = deliver_pending()
    assert "Deine Mail-Einstellungen sind jetzt:" in flat(confirmation.text)
    assert "einmal am Tag eine Mail mit Neuigkeiten" in flat(confirmation.text)
    from games.services.links import seat_page_url

    page = django_client_get(seat_page_url(game.seats.get(position=0)))
    # the seat page speaks its player's language too (issue 15), the setting included
    assert '<html lang="de">' in page and "einmal am Tag eine Mail mit Neuigkeiten" in page


def django_client_get(url: str) -> str:
    from urllib.parse import urlsplit

    from django.test import Client

    response = Client().get(urlsplit(url).path)
    assert response.status_code == 200
    return response.content.decode()


def test_a_moderators_notice_always_goes():
    game = running_game(4, seed="prefs")
    deliver_pending()
    services.pause(game, by=None, reason="a question about the rules")
    sent = deliver_pending()
    assert sorted((m.kind, m.seat) for m in sent) == [("paused", s) for s in range(4)]


def test_the_picture_is_drawn_once_per_event_for_four_seats(monkeypatch: pytest.MonkeyPatch) -> None:
    drawn: list[int] = []
    real = pictures.draw_of

    def counting(rules: Any, state: wl.State, names: Mapping[str, str], before: Drawn | None = None) -> Drawn:
        drawn.append(state.players)
        return real(rules, state, names, before)

    monkeypatch.setattr(pictures, "draw_of", counting)
    game = running_game(4, seed="prefs")
    everyone(game, Mode.ALL)
    sent = deliver_pending()
    assert [m.kind for m in sent] == ["invitation"] * 4
    assert len(drawn) == 1  # four mails, one picture
    pngs = {m.attachments[0].get_payload(decode=True) for m in django_mail.outbox}
    assert len(pngs) == 1 and BoardPicture.objects.filter(game=game).count() == 1
    play_to_a_reveal(game)
    events = set(
        OutboundMail.objects.filter(game=game, kind__in=pictures.NEW_BOARD).values_list("seq", flat=True)
    )
    mails = OutboundMail.objects.filter(game=game, kind__in=pictures.NEW_BOARD).count()
    assert mails > len(events)  # some events were told to several seats...
    assert len(drawn) == len(events)  # ...and drawn once each


def test_what_the_default_holds_back_and_what_always_goes():
    default, everything = preferences.Preferences(), preferences.Preferences(Mode.ALL)
    for kind in ("sealed", "year", "reveal"):
        assert not preferences.wanted(kind, 2, (), default)
        assert preferences.wanted(kind, 2, (), everything)
    assert preferences.wanted("defaulted", 2, [1, 2], default)  # the default hit this seat
    assert not preferences.wanted("defaulted", 2, [1], default)  # another's: told in the next mail
    for kind in ("decision", "invitation", "game_over", "reminder", "missed", "paused", "rolled_back"):
        assert preferences.wanted(kind, 2, (), default)


def test_the_news_of_a_mail_that_failed_is_told_again():
    game = running_game(4, seed="prefs")
    deliver_pending()
    idle, reveal, after = play_to_a_reveal(game)
    seat = idle[0]
    first = play_until_decision_mail(game, seat)
    assert wl.narrate(after, reveal) in flat(first.text)
    OutboundMail.objects.filter(pk=first.pk).update(status=OutboundMail.Status.FAILED)  # it bounced
    services.submit(game, seat, wl.default(services.head_state(game), seat))
    second = play_until_decision_mail(game, seat)
    assert wl.narrate(after, reveal) in flat(second.text)


def test_old_pictures_are_dropped_by_the_sweep_and_drawn_again_if_needed():
    game = running_game(3, seed="prefs")
    deliver_pending()
    assert BoardPicture.objects.filter(game=game).count() == 1
    BoardPicture.objects.update(created_at=timezone.now() - timedelta(days=4))
    assert pictures.prune() == 1 and not BoardPicture.objects.exists()


def test_mail_all_beside_a_sealed_bid_holds_for_that_bid():
    game = running_game(3, seed="prefs")
    deliver_pending()
    state = services.head_state(game)
    while not any(d.kind == "bid" for d in wl.pending(state)):
        decision = wl.pending(state)[0]
        services.submit(game, decision.seat, wl.default(state, decision.seat))
        state = services.head_state(game)
    deliver_pending()
    seat = next(d.seat for d in wl.pending(state) if d.kind == "bid")
    bid = wl.format_command(state, wl.legal(state, seat)[0])
    row = receive(compose(reply_to_of(game, seat), email_of(game, seat), f"mail all\n{bid}"))
    assert row.status == InboundMail.Status.APPLIED
    kinds = {m.kind for m in OutboundMail.objects.filter(game=game, seat=seat, status="pending")}
    assert kinds == {"sealed", "preferences"}


def test_the_invitation_tells_the_setting_and_how_to_change_it():
    running_game(3, seed="prefs")
    (invitation, *_) = deliver_pending()
    assert "Your mail settings: a mail when you must decide and at the game's end" in flat(invitation.text)
    assert "mail all, mail digest, picture on, picture off" in flat(invitation.text)


@pytest.mark.parametrize(
    ("language", "subject", "intro"),
    [
        ("en", "Your daily news", "Your daily news from the games where you have nothing"),
        ("de", "Deine Neuigkeiten des Tages", "aus den Partien, in denen du gerade nichts"),
        ("fr", "Vos nouvelles du jour", "des parties où vous n’avez rien à décider"),
    ],
)
def test_the_digest_speaks_the_readers_language(language, subject, intro):
    a_digest_is_due(language)
    assert digests.send_digests() == 1
    (digest,) = deliver_pending()
    assert subject in digest.subject and intro in flat(digest.text)


def test_the_digests_command_writes_them_now():
    from io import StringIO

    from django.core.management import call_command

    a_digest_is_due("en")
    out = StringIO()
    call_command("digests", stdout=out)
    assert out.getvalue().strip() == "1 digests written"
    (digest,) = OutboundMail.objects.filter(kind="digest")
    assert [(p.seat, p.since < p.seq) for p in digest.digest_parts.all()] == [(2, True)]


def test_a_seat_the_bot_plays_is_left_out_of_its_players_digest():
    from games.services import bots

    game = running_game(3, seed="digest-bot")
    player = game.seats.get(position=1).player
    MailPreference.objects.create(player=player, mode=Mode.DIGEST)
    kept = {(s.game_id, s.position) for s in preferences.digest_seats()}
    bots.hand_to_bot(game, 1, by=None, reason="dropped out")
    left = {(s.game_id, s.position) for s in preferences.digest_seats()}
    assert (game.pk, 1) in kept  # seat 0 places first: seat 1 owes nothing
    assert (game.pk, 1) not in left
