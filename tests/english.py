"""English a German or French reader should not meet: the vocabulary, read from the
catalogues and the games' own words, looked for in a text with its names, commands and
alternatives left out; and every page a player meets, to look for it in."""

from __future__ import annotations

import html as htmllib
import re
from functools import cache
from pathlib import Path

from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext

from games import jobs, services
from games.models import Game, Player
from games.rules import registry
from games.services import links
from leagues.models import League
from leagues.seating import seat_round
from notifications.services import mailwords
from tests.catalogues import catalogue_paths, read_po, translations
from tests.games.helpers import play, vs_game

ROOT = Path(__file__).resolve().parents[1]


RECORD = ROOT / "tests" / "engine" / "whitelotus" / "golden" / "kosmos-3p-french.txt"


WORD = re.compile(r"[^\W\d_]{4,}")


# what a word of the vocabulary is never looked for in: placeholders, markup, printf fields
NOT_WORDS = re.compile(r"\{[^{}]*\}|%\([^)]*\)[sd]|<[^>]*>|&\w+;")


# the same word in both languages (a reader meets it as theirs): the game's and the
# service's own terms, and words the catalogue's sentences happen not to use
SHARED = frozenset({"lotus", "chips", "online", "link", "links", "email", "mail", "mails", "seed", "orange"})


# the names the fixtures give; a name is never English to be translated
NAMES = ("Ada", "Bao", "Chen", "Dara", "Emma", "Felix", "Greta", "Club Lotus", "Herbst")


# "(or: bid green 0)" after a command written in the reader's language: command syntax
ALTERNATIVE = re.compile(r"\((?:or|oder|ou)\s?:[^()]*\)")


# "rot = red, blau = blue": the help's table of the English keywords a reader may also write
GLOSSARY = re.compile(r"(?<=\w) =\s+[^\W\d_]+(?:/[^\W\d_]+)*")


def words_of(text: str) -> set[str]:
    return {w.lower() for w in WORD.findall(NOT_WORDS.sub(" ", text))}


@cache
def english_only(language: str) -> frozenset[str]:
    """The words the English catalogue uses and no ``language`` translation does."""
    english: set[str] = set()
    native: set[str] = set()
    for entry in [e for path in catalogue_paths(language) for e in read_po(path)]:
        if not entry.get("msgid"):
            continue  # the header
        english |= words_of(str(entry["msgid"])) | words_of(str(entry.get("msgid_plural", "")))
        for translated in translations(entry):
            native |= words_of(translated)
    return frozenset(english - native - SHARED)


@cache
def native_spellings(language: str) -> frozenset[str]:
    """Every word of four letters or more the ``language`` translations write in prose, as
    written: a game's command word quoted in a sentence ("nord, ost, süd oder west") aside,
    which a reader meets only as what to type."""
    native: set[str] = set()
    for entry in [e for path in catalogue_paths(language) for e in read_po(path)]:
        for translated in translations(entry) if entry.get("msgid") else []:
            native |= set(WORD.findall(NOT_WORDS.sub(" ", translated)))
    return frozenset(native - command_words(language))


def command_words(language: str) -> set[str]:
    """What a reader of ``language`` types: every spelling of the games' word tables."""
    found: set[str] = set()
    for name in registry.names():
        tables = getattr(registry.get(name).notation.words, "TABLES", {})
        for table in tables.values():
            found |= {spelling for spellings in table.get(language, {}).values() for spelling in spellings}
    return found


@cache
def game_words(language: str) -> frozenset[str]:
    """The one-word ``MESSAGES`` of every registered game, as the engine writes them, that the
    ``language`` catalogues say otherwise and that no ``language`` translation writes so:
    "palace" (Palast), "west" in German (West, nach Westen), "village" not in French."""
    found: set[str] = set()
    with translation.override(language):
        for name in registry.names():
            for word in registry.get(name).about.MESSAGES:
                if WORD.fullmatch(word) and gettext(word) != word and word.lower() not in SHARED:
                    found.add(word)
    return frozenset(found - native_spellings(language))


def readable(text: str, names: tuple[str, ...] = NAMES) -> str:
    """What a reader reads as prose: markup, scripts, styles, code and commands left out."""
    text = re.sub(r"(?is)<(script|style|code|kbd|samp|svg)\b.*?</\1>", " ", text)
    # the time zones to choose from: places as the CLDR names them in the reader's language
    # (games.presentation.zonechoice; "North Dakota" and "Tell City" are names), an old zone name beside
    text = re.sub(r'(?is)<select\b[^>]*name="time_zone".*?</select>', " ", text)
    text = re.sub(r'(?is)\b(?:href|src|action|value|name|id|class|for|data-[\w-]+)="[^"]*"', " ", text)
    text = htmllib.unescape(re.sub(r"<[^>]+>", "\n", text))
    text = GLOSSARY.sub(" ", ALTERNATIVE.sub(" ", text))
    kept = []
    for line in text.splitlines():
        stripped = line.strip().lstrip("-*•").strip()
        if (
            not stripped
            or stripped.startswith(">")
            or mailwords.may_be_command_word(stripped)
            or "://" in stripped
            or "@" in stripped
        ):
            continue  # a command, the player's own mail quoted, a link, an address
        kept.append(stripped)
    prose = "\n".join(kept)
    for name in names:  # a name may be wrapped over two lines
        spaced = r"\s+".join(re.escape(part) for part in name.split())
        prose = re.sub(rf"(?<!\w){spaced}(?!\w)", " ", prose)
    return prose


def english_in(text: str, language: str, names: tuple[str, ...] = NAMES) -> list[str]:
    """The words of the English vocabulary in ``text``, each with the line it is on."""
    vocabulary = english_only(language)
    words = game_words(language)
    found = []
    for line in readable(text, names).splitlines():
        hits = sorted({w for w in WORD.findall(line) if w.lower() in vocabulary or w in words})
        if hits:
            found.append(f"{', '.join(hits)}: {line.strip()[:100]}")
    return found


def the_pages(language: str) -> list[tuple[str, str, int]]:
    """Every page a player meets, each as (what it is, its path, its status), with players who
    read ``language``: a league season's running game, a finished game (from a record), a
    running and a finished game of Die Verbotene Stadt."""
    for name in NAMES[:4]:
        Player.objects.create(email=f"{name.lower()}@example.org", name=name, language=language)
    league = League.objects.create(name="Club Lotus", slug="club")
    season = league.seasons.create(name="Herbst", ready_hours=0)
    for player in Player.objects.all():
        season.memberships.create(player=player)
    (running,) = seat_round(season, seed="vocabulary")
    rules = services.rules_of(running)
    for _ in range(12):
        state = services.head_state(running)
        seat = rules.pending(state)[0].seat
        services.submit(running, seat, rules.default(state, seat))
    finished = jobs.import_record(RECORD.read_text(encoding="utf-8"))
    for held, name in zip(finished.seats.order_by("position"), ("Emma", "Felix", "Greta"), strict=False):
        Player.objects.filter(pk=held.player_id).update(name=name)  # the record names nobody
    city = vs_game(3, seed="vocabulary")
    play(city, 20)
    city_over = vs_game(2, seed="vocabulary-end")
    play(city_over)
    assert finished.status == city_over.status == Game.Status.FINISHED
    Player.objects.update(language=language)  # a seat page speaks its player's language
    found = [
        ("home", "/", 200),
        ("archive", reverse("games:index"), 200),
        ("leagues", reverse("leagues:index"), 200),
        ("league", reverse("leagues:league", args=[league.slug]), 200),
        ("season", reverse("leagues:season", args=[league.slug, season.pk]), 200),
    ]
    for game, label in (
        (running, "game"),
        (finished, "finished"),
        (city, "city"),
        (city_over, "city-finished"),
    ):
        found += [
            (label, reverse("games:game", args=[game.pk]), 200),
            (f"{label}-replay", reverse("games:replay-step", args=[game.pk, 3]), 200),
            (f"{label}-seat", links.seat_page_url(game.seats.get(position=1)), 200),
        ]
    found += [
        ("me", links.player_page_url(Player.objects.get(name="Ada")), 200),
        ("old-seat-link", "/games/seat/no-such-key/", 404),
        ("not-found", "/no/such/page/", 404),
    ]
    return found
