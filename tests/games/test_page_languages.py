"""The site's pages in English, German and French: every string of the public templates (and
of the Python that writes page text) is in both catalogues, translated; a page is in the
language its reader asked for (the browser's Accept-Language, the switcher's cookie) and a
seat page in its player's language and time zone."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse

from games.models import Game
from games.rules import registry
from games.services import links
from tests.catalogues import (
    BLOCK,
    LANGUAGES,
    block_msgids,
    catalogue_paths,
    read_po,
    translations,
    unquote,
)
from tests.games.factories import running_game

ROOT = Path(__file__).resolve().parents[2]
PAGE_TEMPLATES = (
    ROOT / "games" / "templates" / "games",
    ROOT / "leagues" / "templates" / "leagues",
    *(folder / "games" for folder in registry.template_dirs()),  # each game's own partials
)
PAGE_PYTHON = (
    ROOT / "games" / "web" / "archive.py",
    ROOT / "games" / "presentation" / "display.py",
    ROOT / "leagues" / "views.py",
)
TRANSLATE = re.compile(r"""{%\s*translate\s+(?:"((?:[^"\\]|\\.)*)"|'((?:[^'\\]|\\.)*)')(?:\s+\w+)*\s*%}""")
GETTEXT = re.compile(r'\b(?:gettext|gettext_lazy|gettext_noop|_)\(\s*"((?:[^"\\]|\\.)*)"\s*[,)]')


def page_msgids() -> dict[str, str]:
    """Each msgid the pages use, with where it is used."""
    return {msgid: where for msgid, (where, _) in page_entries().items()}


def page_entries() -> dict[str, tuple[str, str | None]]:
    """Each msgid the pages use: where, and its msgid_plural (None without plural forms)."""
    found: dict[str, tuple[str, str | None]] = {}
    for folder in PAGE_TEMPLATES:
        for path in sorted(folder.rglob("*.html")):
            text = path.read_text(encoding="utf-8")
            where = str(path.relative_to(ROOT))
            for double, single in TRANSLATE.findall(text):
                found.setdefault(unquote(double or single), (where, None))
            for body in BLOCK.findall(text):
                singular, plural = block_msgids(body)
                found.setdefault(singular, (where, plural))
    for path in PAGE_PYTHON:
        for msgid in GETTEXT.findall(path.read_text(encoding="utf-8")):
            found.setdefault(unquote(msgid), (str(path.relative_to(ROOT)), None))
    # the game's status and table talk as the pages say them ({% translate var %})
    for choices in (Game.Status, Game.Press):
        for label in choices.labels:
            found.setdefault(str(label), (f"games.models.Game.{choices.__name__}", None))
    for name in registry.names():  # and each game's editions (its page words)
        for label in registry.get(name).about.PAGE_WORDS.get("edition", {}).values():
            found.setdefault(label, (f"{name}.about.PAGE_WORDS", None))
    return found


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_string_of_the_pages_is_translated(language):
    # the catalogues as Django merges them: the service's first, then each game's own
    entries: dict[str, dict[str, object]] = {}
    for path in catalogue_paths(language):
        for e in read_po(path):
            entries.setdefault(str(e["msgid"]), e)
    missing = []
    for msgid, (where, plural) in sorted(page_entries().items(), key=lambda item: item[1][0]):
        entry = entries.get(msgid)
        if (
            entry is None
            or not all(translations(entry))
            or "fuzzy" in entry["flags"]  # type: ignore[operator,unused-ignore]
            or entry.get("msgid_plural") != plural
        ):
            missing.append(f"{where}: {msgid!r}" + (f" (plural {plural!r})" if plural else ""))
    assert not missing, f"{len(missing)} page strings have no {language} translation:\n" + "\n".join(missing)


def test_the_catalogue_test_reads_the_templates():
    found = page_msgids()
    assert "Leagues" in found and "Replay the game step by step" in found
    assert "You play %(colour)s (%(name)s)" in found


pytestmark = pytest.mark.django_db


def test_a_public_page_speaks_the_browsers_language():
    game = running_game(3, seed="lang-public")
    german = Client(headers={"accept-language": "de-DE,de;q=0.9,en;q=0.5"}).get(f"/games/{game.pk}/")
    assert '<html lang="de">' in german.content.decode() and "Spieler" in german.content.decode()
    french = Client(headers={"accept-language": "fr"}).get("/games/")
    assert '<html lang="fr">' in french.content.decode()
    english = Client(headers={"accept-language": "es"}).get("/games/")
    assert '<html lang="en">' in english.content.decode()


def test_the_switcher_sets_the_language_and_keeps_the_reader_on_the_page():
    game = running_game(3, seed="lang-switch")
    client = Client(headers={"accept-language": "en"})
    page = f"/games/{game.pk}/"
    html = client.get(page).content.decode()
    assert 'action="/i18n/setlang/"' in html and f'name="next" value="{page}"' in html
    response = client.post("/i18n/setlang/", {"language": "fr", "next": page})
    assert response.status_code == 302 and response["Location"] == page
    assert '<html lang="fr">' in client.get(page).content.decode()


def test_a_seat_page_speaks_its_players_language_and_zone_unless_the_reader_switched():
    game = running_game(3, seed="lang-seat")
    seat = game.seats.get(position=0)
    seat.player.language, seat.player.time_zone = "de", "Asia/Tokyo"
    seat.player.save()
    url = reverse("games:seat", args=[links.seat_key(seat)])
    response = Client(headers={"accept-language": "en"}).get(url)
    html = response.content.decode()
    assert '<html lang="de">' in html and response["Content-Language"] == "de"
    deadline = game.decisions.owed().get().deadline_at
    if deadline is not None:
        assert "JST" in html and "data-local" not in html.split("<main>")[1].split("</main>")[0]
    switched = Client()
    switched.cookies[settings.LANGUAGE_COOKIE_NAME] = "fr"
    assert '<html lang="fr">' in switched.get(url).content.decode()


def test_a_time_is_the_utc_instant_written_in_the_readers_zone_or_left_to_the_browser():
    from datetime import UTC, datetime

    from django.template import Context, Template
    from django.utils import timezone, translation

    moment = datetime(2026, 11, 23, 20, 5, tzinfo=UTC)
    tag = Template("{% load site %}{% when moment %}|{% when moment 'date' %}|{% when nothing %}")
    with translation.override("en"):
        public = tag.render(Context({"moment": moment, "nothing": None}))
    assert public == (
        '<time datetime="2026-11-23T20:05:00Z" data-local="datetime" '
        'data-pattern="{year}-{month}-{day} {hour}:{minute} {zone}">2026-11-23 20:05 UTC</time>|'
        '<time datetime="2026-11-23T20:05:00Z" data-local="date" data-pattern="{year}-{month}-{day}">'
        "2026-11-23</time>|—"
    )
    with translation.override("en"), timezone.override("Europe/Berlin"):  # one reader's page
        private = tag.render(Context({"moment": moment, "nothing": None}))
    assert private.startswith('<time datetime="2026-11-23T20:05:00Z">2026-11-23 21:05 CET</time>|')


def test_every_page_writes_a_moment_in_the_readers_pattern_and_zone_name():
    from datetime import UTC, datetime

    from django.template import Context, Template
    from django.utils import timezone, translation

    moment = datetime(2026, 11, 30, 0, 51, tzinfo=UTC)
    tag = Template("{% load site %}{% when moment %}")
    with translation.override("de"), timezone.override("Europe/Berlin"):  # a seat page, /me/
        german = tag.render(Context({"moment": moment}))
    assert german.endswith(">30.11.2026, 01:51 MEZ</time>")
    with translation.override("fr"), timezone.override("Europe/Paris"):
        french = tag.render(Context({"moment": moment}))
    assert french.endswith(">30/11/2026 01:51 UTC+1</time>")
    with translation.override("de"):  # a public page: UTC, and the pattern for the browser
        public = tag.render(Context({"moment": moment}))
    assert 'data-pattern="{day}.{month}.{year}, {hour}:{minute} {zone}">30.11.2026, 00:51 UTC<' in public


def test_a_zone_without_a_name_is_written_as_its_offset():
    from datetime import UTC, datetime
    from zoneinfo import ZoneInfo

    from django.utils import translation

    from games.presentation.timefmt import reader_time

    moment = datetime(2026, 11, 30, 0, 51, tzinfo=UTC)
    with translation.override("en"):
        assert reader_time(moment, ZoneInfo("Asia/Dubai")) == "2026-11-30 04:51 UTC+4"
        assert reader_time(moment, ZoneInfo("Asia/Kolkata")) == "2026-11-30 06:21 IST"
        assert reader_time(moment, ZoneInfo("UTC")) == "2026-11-30 00:51 UTC"


def test_a_sealed_decision_is_marked_sealed_once_in_every_language():
    from django.utils import translation

    from games.templatetags.site import sealed

    with translation.override("de"):
        assert (
            sealed("geheim Einfluss für Zhending (12) bieten", True)
            == "geheim Einfluss für Zhending (12) bieten"
        )
        assert sealed("die Bestechungstafel einstellen", True) == "die Bestechungstafel einstellen (geheim)"
        assert sealed("einen Gebietsmarker setzen", False) == "einen Gebietsmarker setzen"
    with translation.override("en"):
        assert sealed("make a sealed bid for Yanan (10)", True) == "make a sealed bid for Yanan (10)"


def test_the_header_switcher_names_each_language_in_itself_as_the_players_page_does():
    html = Client(headers={"accept-language": "de"}).get("/games/").content.decode()
    switcher = html.split('id="language-switch"')[1].split("</select>")[0]
    assert ">English</option>" in switcher and ">Deutsch</option>" in switcher
    assert ">Français</option>" in switcher and "Englisch" not in switcher


def test_a_french_page_gets_french_typography_and_an_english_one_does_not():
    game = running_game(3, seed="typo-fr")
    french = Client(headers={"accept-language": "fr"}).get(f"/games/{game.pk}/").content.decode()
    main = french.split("<main>")[1].split("</main>")[0]
    # the board written out is monospaced text, left as the mails carry it (typography.py: <pre>)
    main = re.sub(r"<pre\b.*?</pre>", "", main, flags=re.S)
    assert "\u00a0:" in main and not re.search(r"\w :", main.replace("\u00a0", "~"))
    english = Client(headers={"accept-language": "en"}).get(f"/games/{game.pk}/").content.decode()
    assert "\u00a0:" not in english and "\u202f" not in english  # (Django's "1\u00a0day" is its own)


def test_a_french_page_says_its_own_length_once_its_typography_is_set():
    """The no-break spaces make the page longer than the Content-Length CommonMiddleware wrote
    for it: a browser would cut the page short if the header kept the old length."""
    game = running_game(3, seed="typo-fr")
    response = Client(headers={"accept-language": "fr"}).get(f"/games/{game.pk}/")
    assert "\u00a0:" in response.content.decode()
    assert response["Content-Length"] == str(len(response.content))


def test_a_page_read_in_french_leaves_the_thread_in_the_language_it_was_in():
    """The reader's language is the request's alone: what the thread does next (a mail, the
    next test) speaks its own."""
    from django.utils import translation

    game = running_game(3, seed="lang-kept")
    with translation.override("de"):
        french = Client(headers={"accept-language": "fr"}).get(f"/games/{game.pk}/")
        assert '<html lang="fr">' in french.content.decode()
        assert translation.get_language() == "de"
    english = Client(headers={"accept-language": "en"})
    english.cookies[settings.LANGUAGE_COOKIE_NAME] = "fr"
    english.get("/games/")
    assert translation.get_language() == "en"
