"""Joining a season by mail: 'join <league>' to the service address."""

from __future__ import annotations

import pytest

from games.models import Player
from leagues.models import League, Membership
from notifications.models import InboundMail, OutboundMail
from tests.leagues.helpers import moderator_user, season_of
from tests.notifications.helpers import compose, deliver_pending, receive

pytestmark = pytest.mark.django_db

SERVICE = "play@lotus.test"


@pytest.fixture
def league():
    league = League.objects.create(name="Winter Cup", slug="winter")
    season_of(league, [])
    return league


def test_a_new_address_that_writes_join_becomes_a_member_and_is_welcomed(league):
    mail = receive(compose(SERVICE, "Iris Stone <iris@example.org>", "join winter", subject="sign me up"))
    assert mail.status == InboundMail.Status.APPLIED
    iris = Player.objects.get(email="iris@example.org")
    assert iris.name == "Iris Stone"
    assert Membership.objects.filter(player=iris, via=Membership.Via.MAIL).count() == 1
    [welcome] = deliver_pending()
    assert welcome.kind == "welcome" and welcome.to_email == "iris@example.org"
    assert "Welcome" in welcome.subject + welcome.text and "Winter Cup" in welcome.text


def test_joining_twice_keeps_one_membership(league):
    receive(compose(SERVICE, "iris@example.org", "join winter"))
    receive(compose(SERVICE, "iris@example.org", "JOIN Winter"))
    assert Membership.objects.count() == 1
    assert "already joined" in deliver_pending()[-1].text


def test_an_unknown_league_is_answered_with_the_open_leagues(league):
    mail = receive(compose(SERVICE, "iris@example.org", "join spring"))
    assert mail.status == InboundMail.Status.REFUSED
    [answer] = deliver_pending()
    assert "There is no league 'spring'" in answer.text and "winter (Winter Cup)" in answer.text
    assert not Membership.objects.exists()


def test_a_strangers_other_mail_is_still_stored_and_not_answered(league):
    # (prose around a real "join <league>" is ignored and the sender joins: see below)
    for body in ("buy cheap lotus", "buy cheap lotus\njoin the winter sale now"):
        mail = receive(compose(SERVICE, "spam@example.org", body))
        assert mail.status == InboundMail.Status.UNKNOWN
    assert not OutboundMail.objects.exists() and not Player.objects.exists()


def test_a_leagues_moderator_cannot_join_it(league):
    user = moderator_user("mia", league)
    Player.objects.create(name="Mia", email="mia@example.org", user=user)
    mail = receive(compose(SERVICE, "mia@example.org", "join winter"))
    assert mail.status == InboundMail.Status.REFUSED
    assert "moderates Winter Cup" in deliver_pending()[0].text
    assert not Membership.objects.exists()


def test_a_join_followed_by_prose_joins_and_says_what_was_ignored(league):
    # (a closing such as "thanks!" never gets here: the quote stripper drops it)
    mail = receive(compose(SERVICE, "iris@example.org", "join winter\n\nsee you soon!\nIris"))
    assert mail.status == InboundMail.Status.APPLIED
    assert "ignored, not commands: see you soon! | Iris" in mail.outcome
    assert Membership.objects.count() == 1
    [welcome] = deliver_pending()
    assert "I ignored these lines, which are not commands: see you soon! / Iris" in welcome.text
    assert "<code>Iris</code>" in welcome.html


def test_a_greeting_above_the_join_joins_and_says_what_was_ignored(league):
    mail = receive(compose(SERVICE, "iris@example.org", "Hi,\njoin winter\n\nsee you soon!\nIris"))
    assert mail.status == InboundMail.Status.APPLIED
    assert "ignored, not commands: Hi, | see you soon! | Iris" in mail.outcome
    assert Membership.objects.count() == 1
    [welcome] = deliver_pending()
    assert "I ignored these lines, which are not commands: Hi, / see you soon! / Iris" in welcome.text


def test_a_join_followed_by_another_command_is_no_join(league):
    for body in (
        *("join winter\njoin spring", "join winter\njion spring", "join winter\nplace 3"),
        *("place 3\njoin winter", "Hi,\njion spring\njoin winter"),
    ):
        mail = receive(compose(SERVICE, "iris@example.org", body))
        assert mail.status == InboundMail.Status.UNKNOWN
    assert not Membership.objects.exists()


def test_join_autumn_then_thanks_joins(league):
    mail = receive(compose(SERVICE, "iris@example.org", "join winter\nthanks!"))
    assert mail.status == InboundMail.Status.APPLIED
    assert Membership.objects.count() == 1
