"""The league mails in the reader's language: a German player's standings after a league
game, a French player's answer to ``join``, rendered through notifications.outbound.emails when sent."""

from __future__ import annotations

import re

import pytest
from django.utils import translation

from games.models import Player
from leagues.mail import table_text
from leagues.models import League
from leagues.seating import seat_round
from notifications.models import OutboundMail
from notifications.outbound import sending
from tests.leagues.helpers import play_out, season_of
from tests.notifications.helpers import compose, deliver_pending, receive

pytestmark = pytest.mark.django_db

SERVICE = "play@lotus.test"


def speaks(name: str, language: str) -> Player:
    player = Player.objects.get(name=name)
    player.language = language
    player.save(update_fields=["language"])
    return player


def test_a_german_players_standings_mail_is_in_german():
    season = season_of(League.objects.create(name="Herbstliga", slug="herbst"), ["Ada", "Bao", "Chen"])
    anke = speaks("Ada", "de")
    game = seat_round(season, seed="de")[0]
    play_out(game)
    for row in OutboundMail.objects.filter(kind="standings"):
        sending.deliver(row.pk)
    sent = {m.to_email: m for m in OutboundMail.objects.filter(kind="standings")}
    assert len(sent) == 3
    german = sent.pop(anke.email)
    assert german.subject == f"Tabelle nach {game.name} · Herbstliga"
    assert german.text.startswith(f"Hallo Ada,\n\nDie Partie {game.name} ist zu Ende.")
    prose = " ".join(german.text.split())  # the text part is wrapped at 76 columns
    assert "Der Stand von Herbstliga: Autumn nach 1 beendeten Partie:" in prose
    assert re.search(
        r"Du bist auf Platz \d\. Punkte: \d, Partien: 1, Siege: [01], Wertung: -?\d+,\d\.", prose
    )
    assert re.search(r"#  Name +Partien +Siege +Punkte +Wertung +Verpasst\n", german.text)
    assert "bei Gleichstand bekommt jede Person" in prose and "Die Seite der Liga:\nhttps://" in german.text
    assert "<th>Partien</th>" in german.html and 'lang="de"' in german.html
    for english in ("You are in place", "finished game", "Points:", "The league page"):
        assert english not in german.text + german.html
    english = next(iter(sent.values()))
    assert "after 1 finished game:" in " ".join(english.text.split()) and "You are in place" in english.text


def test_a_french_players_welcome_answer_is_in_french():
    league = League.objects.create(name="Coupe d'hiver", slug="hiver")  # set with a French apostrophe
    season_of(league, [])
    Player.objects.create(name="Inès", email="ines@example.org", language="fr")
    receive(compose(SERVICE, "Inès <ines@example.org>", "join hiver"))
    receive(compose(SERVICE, "ines@example.org", "join printemps"))
    welcome, refusal = deliver_pending()
    assert welcome.subject == "Bienvenue dans Coupe d’hiver · Le Lotus blanc par courriel"
    assert " ".join(welcome.text.split()).startswith(
        "Bienvenue : votre inscription à Coupe d’hiver : Autumn est enregistrée."
    )
    assert "vous jouez vos coups en y répondant" in " ".join(welcome.text.split())
    # the footer: the service's name, then the link to the player's own page
    assert re.search(
        r"\n-- \nLe Lotus blanc par courriel\nVos parties et vos réglages\u00a0:\n\S+/me/\w+/\n$",
        welcome.text,
    )
    assert 'lang="fr"' in welcome.html and "Un modérateur répartit" in welcome.html
    assert (
        " ".join(refusal.subject.split()) == "Votre inscription : non inscrit · Le Lotus blanc par courriel"
    )
    text = " ".join(refusal.text.split())  # French typography's no-break spaces read as spaces
    assert "Il n’existe pas de ligue « printemps »." in text
    assert "par exemple « join hiver »" in text and "hiver (Coupe d’hiver)" in refusal.text


def test_an_unknown_address_is_answered_in_english():
    season_of(League.objects.create(name="Winter Cup", slug="winter"), [])
    receive(compose(SERVICE, "iris@example.org", "join winter"))
    [welcome] = deliver_pending()
    assert welcome.text.startswith("Welcome: you are in Winter Cup: Autumn.")


@pytest.mark.parametrize("language", ["en", "de", "fr"])
def test_the_text_table_keeps_its_columns_under_longer_headings(language):
    ada = {"name": "Ada", "played": 12, "wins": 3, "points": "20,5", "rating": "-3,1", "missed": 0}
    long = {"name": "Bartholomew Featherstonehaugh", "played": 2, "wins": 0, "points": "0", "rating": "—"}
    rows = [ada, {**long, "missed": 14}]
    with translation.override(language):
        lines = table_text(rows).splitlines()
    assert len({len(line) for line in lines}) == 1  # every column ends where its heading ends
    assert lines[2].split()[1] == "Bartholomew" and "…" in lines[2]
