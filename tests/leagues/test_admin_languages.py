"""The moderators' admin read by a German and by a French league moderator: every page they
work with (the lists, a game's audit page, its state at an event, the rollback page, each act's
confirmation, the league's audit page) in their language, no English word left.

The English vocabulary is read from the service's catalogue, not kept by hand: every word of
four letters or more that its English side uses and that no translation into the language
uses.  What a moderator reads as prose is looked at; names, codes, commands, payloads and the
moderators' own reasons are not.
"""

from __future__ import annotations

import html as htmllib
import re
from datetime import timedelta
from functools import cache
from pathlib import Path

import pytest
from django.contrib import admin
from django.test import Client
from django.urls import reverse
from django.utils import timezone, translation

from games import services
from games.models import Player
from leagues.models import League
from leagues.seating import seat_round
from tests.catalogues import catalogue_paths
from tests.leagues.helpers import moderator_user, season_of

pytestmark = pytest.mark.django_db

ROOT = Path(__file__).resolve().parents[2]
WORD = re.compile(r"[^\W\d_]{4,}")
NOT_WORDS = re.compile(r"\{[^{}]*\}|%\([^)]*\)[sd]|<[^>]*>|&\w+;")
# the same word in both languages, or the game's own name for a thing
SHARED = frozenset({"lotus", "chips", "online", "link", "links", "email", "mail", "mails", "seed", "china"})
NAMES = ("Ada", "Bao", "Chen", "Gus", "Fens Cup", "Autumn", "nina", "Game \\d+", "Partie \\d+")
REASON = "R7"  # a moderator's own words are theirs: a reason in no language


def _po_entries(path: Path) -> list[tuple[str, list[str]]]:
    text = path.read_text("utf-8")
    entries = []
    for block in text.split("\n\n"):
        strings: dict[str, str] = {}
        key = ""
        for line in block.splitlines():
            match = re.match(r'^(msgid|msgid_plural|msgstr(?:\[\d\])?) "(.*)"$', line)
            if match:
                key = match.group(1)
                strings[key] = match.group(2)
            elif line.startswith('"') and key:
                strings[key] += line[1:-1]
        if strings.get("msgid"):
            english = strings["msgid"] + " " + strings.get("msgid_plural", "")
            entries.append((english, [v for k, v in strings.items() if k.startswith("msgstr")]))
    return entries


def _words(text: str) -> set[str]:
    return {w.lower() for w in WORD.findall(NOT_WORDS.sub(" ", text))}


@cache
def english_only(language: str) -> frozenset[str]:
    english: set[str] = set()
    native: set[str] = set()
    for path in catalogue_paths(language):
        for msgid, translations in _po_entries(path):
            english |= _words(msgid)
            for translated in translations:
                native |= _words(translated)
    # a word the language's own Django admin says is the language's ("actions" in French)
    for _, translations in _po_entries(
        Path(admin.__file__).parent / "locale" / language / "LC_MESSAGES" / "django.po"
    ):
        for translated in translations:
            native |= _words(translated)
    return frozenset(english - native - SHARED)


def readable(page: str) -> str:
    """What a moderator reads as prose: markup, code, payloads, typed text, names left out."""
    page = re.sub(r"(?is)<(script|style|code|pre|textarea|svg|select)\b.*?</\1>", " ", page)
    page = re.sub(r"(?is)<(div|span) id=\"user-tools\".*?</\1>", " ", page)
    page = re.sub(r'(?is)\b(?:href|src|action|name|id|class|for|data-[\w-]+|type)="[^"]*"', " ", page)
    text = htmllib.unescape(re.sub(r"<[^>]+>", "\n", page))
    lines = [line.strip() for line in text.splitlines() if line.strip() and "@" not in line]
    prose = "\n".join(lines)
    for name in NAMES:
        prose = re.sub(rf"(?<!\w){name}(?!\w)", " ", prose)
    return prose


def english_in(page: str, language: str) -> list[str]:
    vocabulary = english_only(language)
    found = []
    for line in readable(page).splitlines():
        hits = sorted({w for w in WORD.findall(line) if w.lower() in vocabulary})
        if hits:
            found.append(f"{', '.join(hits)}: {line[:100]}")
    return found


def test_the_vocabulary_holds_the_admins_english_words():
    for language in ("de", "fr"):
        assert {"rollback", "undone", "deadline", "whose"} <= english_only(language), language


def test_the_reading_leaves_out_names_codes_and_reasons():
    page = "<p>Bao: <code>place Dadu</code> <textarea>a long reason</textarea></p><p>undone by</p>"
    assert english_in(page, "de") == ["undone: undone by"]


@pytest.fixture(autouse=True)
def no_language_left_behind():
    """The pages activate the moderator's language in this thread: leave none to later tests."""
    yield
    translation.deactivate()


@pytest.fixture
def walked():
    """A league game of three with some history: moves, a seat handed on, a rollback past it,
    a pause; its moderator; the pages to read."""
    league = League.objects.create(name="Fens Cup", slug="fens")
    season = season_of(league, ["Ada", "Bao", "Chen"])
    game = seat_round(season, seed="admin-languages")[0]
    for _ in range(3):
        services.apply_default(game, services.rules_of(game).pending(services.head_state(game))[0].seat)
    game.refresh_from_db()
    target = game.head_seq
    gus = Player.objects.create(name="Gus", email="gus@example.org")
    services.replace_seat(game, 1, gus, by=None, reason=REASON)
    services.apply_default(game, services.rules_of(game).pending(services.head_state(game))[0].seat)
    game.refresh_from_db()
    services.rollback(game, target, by=None, reason=REASON)
    game.refresh_from_db()
    nina = moderator_user("nina", league)

    def admin(name, *args):
        return reverse(f"admin:{name}", args=args)

    act = "games_game_action"
    until = (timezone.now() + timedelta(days=9)).strftime("%Y-%m-%dT%H:%M")
    pages = [
        (admin("index"), {}),
        (admin("games_game_changelist"), {}),
        (admin("games_game_audit", game.pk), {}),
        (admin("games_game_state", game.pk, target), {}),
        (admin("games_game_rollback", game.pk, 2), {}),
        (admin("games_event_changelist"), {}),
        (admin("games_player_changelist"), {}),
        (admin("leagues_league_changelist"), {}),
        (admin("leagues_season_changelist"), {}),
        (admin("leagues_season_change", season.pk), {}),
        (admin("games_event_change", game.events.get(seq=target).pk), {}),
        (admin("games_recorddraft_changelist"), {}),
        (admin("leagues_league_audit", league.pk), {}),
        (admin(act, game.pk, "pause"), {"reason": REASON}),
        (admin(act, game.pk, "extend"), {"reason": REASON, "until": until}),
        (admin(act, game.pk, "bot"), {"reason": REASON, "position": 2}),
        (
            admin(act, game.pk, "replace"),
            {"reason": REASON, "position": 0, "email": "zoe@example.org", "name": "Gus"},
        ),
        (
            admin(act, game.pk, "time"),
            {
                "reason": REASON,
                "hours_per_decision": "12",
                "grace_hours": "0",
                "warn_after_defaults": "3",
                "vacation_days": "14",
            },
        ),
    ]
    return nina, pages


@pytest.mark.parametrize("language", ["de", "fr"])
def test_a_moderator_reads_the_admin_in_their_language(walked, language):
    nina, pages = walked
    client = Client(HTTP_ACCEPT_LANGUAGE=language)
    client.force_login(nina)
    found = []
    for address, data in pages:
        # an act's confirmation is the answer to the audit page's form, a POST
        response = client.post(address, data) if data else client.get(address)
        assert response.status_code == 200, (address, response.status_code)
        page = response.content.decode()
        assert f'lang="{language}"' in page, address
        found += [f"{address}: {line}" for line in english_in(page, language)]
    assert not found, "\n".join(found)


def test_the_game_list_names_and_filters_games_by_their_name_in_the_language(walked):
    nina, _ = walked
    client = Client(HTTP_ACCEPT_LANGUAGE="de")
    client.force_login(nina)
    listed = client.get(reverse("admin:games_game_changelist")).content.decode()
    assert listed.count("Der weiße Lotus") >= 2  # the column and the filter
    assert "?rules=whitelotus" in listed
    shown = client.get(reverse("admin:games_game_changelist"), {"rules": "verbotenestadt"})
    assert shown.context["cl"].result_count == 0
