"""The German and French catalogues of the mails: the service's (notifications/locale) and each
game's own (games/rules/<game>/locale).

Every entry is translated and none is fuzzy, the narration (<home>/locale_src/*.tsv) is in
its home's catalogue, the committed .mo files are what the .po files compile to, and a few strings come out
in German and French at run time.  No database needed."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path
from string import Formatter

import pytest
from django.template import Context, Template
from django.utils import translation
from django.utils.translation import gettext

from games.presentation import words
from games.rules import registry
from games.rules.whitelotus import textboard
from tests.catalogues import (
    BLOCK,
    GAMES,
    LANGUAGES,
    SERVICE,
    block_msgids,
    po_path,
    read_po,
    read_tsv,
    translations,
    unquote,
)

WHITE_LOTUS = registry.get("whitelotus")

ROOT = Path(__file__).resolve().parents[2]
HOMES = (SERVICE, *GAMES.values())


def plural_count(header: dict[str, object]) -> int:
    match = re.search(r"nplurals=(\d+);", str(header["msgstr"]))
    assert match, "the header has no Plural-Forms"
    return int(match.group(1))


def printf_names(text: str) -> list[str]:
    return sorted(re.findall(r"%\((\w+)\)s", text))


def brace_names(text: str) -> set[str]:
    return {name for _, name, _, _ in Formatter().parse(text) if name is not None}


@pytest.fixture(scope="module", params=LANGUAGES)
def catalogue(request: pytest.FixtureRequest) -> tuple[str, list[dict[str, object]]]:
    return request.param, read_po(po_path(request.param))


def test_every_entry_is_translated_and_none_is_fuzzy(catalogue):
    language, entries = catalogue
    header, *rest = entries
    assert header["msgid"] == ""
    assert f"Language: {language}\n" in str(header["msgstr"])
    assert len(rest) > 100
    for entry in entries:
        assert "fuzzy" not in entry["flags"], entry["msgid"]
        for translated in translations(entry):
            assert translated.strip(), f"{language}: {entry['msgid']!r} is not translated"


def test_plural_entries_have_every_form_the_language_has(catalogue):
    language, entries = catalogue
    header, *rest = entries
    plurals = [e for e in rest if "msgid_plural" in e]
    assert plurals, "the league mails count finished games in a plural entry"
    for entry in plurals:
        assert len(translations(entry)) == plural_count(header), f"{language}: {entry['msgid']!r}"


def test_msgids_are_unique_and_placeholders_are_kept(catalogue):
    language, entries = catalogue
    msgids = [(e.get("msgctxt"), e["msgid"]) for e in entries]
    assert len(msgids) == len(set(msgids))
    for entry in entries[1:]:
        msgid = str(entry["msgid"])
        for msgstr in translations(entry):
            assert printf_names(msgstr) == printf_names(msgid), f"{language}: {msgid!r}"
            assert brace_names(msgstr) == brace_names(msgid), f"{language}: {msgid!r}"
        if "msgid_plural" in entry:
            assert printf_names(str(entry["msgid_plural"])) == printf_names(msgid), msgid
        if "%" in msgid and "python-format" not in entry["flags"]:
            assert "%(" not in msgid, f"{language}: {msgid!r} lacks its python-format flag"


@pytest.mark.parametrize("home", HOMES, ids=lambda home: home.name)
@pytest.mark.parametrize("language", LANGUAGES)
def test_every_narration_entry_is_in_its_home_s_catalogue(home, language):
    """tools/merge_catalogue.py puts each TSV row into the catalogue beside it."""
    entries = read_po(po_path(language, home))
    by_msgid = {e["msgid"]: e for e in entries if "msgctxt" not in e}
    table = read_tsv(home, "narration", language) | read_tsv(home, "refusals", language)
    assert table or home.name == "verbotenestadt"  # its sentences are in its .po alone
    for english, translated in table.items():
        assert english in by_msgid, f"{language}: narration {english!r} is missing"
        entry = by_msgid[english]
        assert entry["msgstr"] == translated, f"{language}: {english!r}"
        if "%" in english:
            assert "python-format" not in entry["flags"], english


def test_the_white_lotus_narration_is_in_its_own_catalogue_not_the_service_s():
    """A game's sentences travel with it: the service's catalogue holds what every game shares."""
    for language in LANGUAGES:
        service = {str(e["msgid"]) for e in read_po(po_path(language))}
        own = read_tsv(GAMES["whitelotus"], "narration", language)
        assert "{colour} takes {area} ({building}) from {loser}." in own
        assert "{colour} takes {area} ({building}) from {loser}." not in service
        assert not {"temple", "emperor", "ricefield"} & service


def test_the_committed_mo_files_are_the_compiled_po_files(tmp_path):
    for language in LANGUAGES:
        mo = po_path(language).with_suffix(".mo")
        assert mo.exists(), f"{mo} is missing: run compilemessages"
        assert mo.stat().st_size > 1000
    msgfmt = shutil.which("msgfmt")
    if msgfmt is None:
        pytest.skip("no msgfmt here: the .mo files exist but cannot be compared with the .po")
    for language in LANGUAGES:
        fresh = tmp_path / f"{language}.mo"
        # the command compilemessages runs
        subprocess.run([msgfmt, "--check-format", "-o", fresh, po_path(language)], check=True)
        committed = po_path(language).with_suffix(".mo").read_bytes()
        assert fresh.read_bytes() == committed, f"{language}: django.mo is stale, run compilemessages"


@pytest.mark.parametrize(
    ("language", "expected"),
    [
        ("de", {"Red": "Rot", "palace": "Palast", "fort": "Festung", "emperor": "Kaiser"}),
        ("fr", {"Red": "Rouge", "palace": "palais", "ricefield": "rizière", "emperor": "empereur"}),
        ("en", {"Red": "Red", "palace": "palace", "fort": "fort", "emperor": "emperor"}),
    ],
)
def test_words_translate(language, expected):
    with translation.override(language):
        for english, translated in expected.items():
            assert gettext(english) == translated


def test_narration_sentences_translate_and_format():
    sentence = "{colour} becomes emperor with {palaces} palaces."
    with translation.override("de"):
        text = gettext(sentence).format(colour=gettext("Red"), palaces=2)
        assert text == "Rot wird mit 2 Palästen Kaiser."
    with translation.override("fr"):
        text = gettext(sentence).format(colour=gettext("Red"), palaces=2)
        assert text == "Rouge devient empereur avec 2 palais."


def test_words_module_translates():
    with translation.override("de"):
        assert words.colour("green") == "Grün"
        assert words.game_word(WHITE_LOTUS, "chip", "ricefield") == "Reisfeld"
        assert WHITE_LOTUS.presentation.decision_text(None, "place", gettext) == "einen Gebietsmarker setzen"
    with translation.override("fr"):
        assert words.colour("purple") == "Violet"
        assert (
            WHITE_LOTUS.presentation.decision_text(None, "bid", gettext) == "miser de l'influence en secret"
        )


TEMPLATE = (
    "{% load i18n %}{% blocktranslate with name=player %}Hello {{ name }},{% endblocktranslate %} "
    "{% blocktranslate %}It is your move ({{ colour }}): {{ decision_text }}.{% endblocktranslate %} "
    '{% translate "Other commands: help, status (board and hand), log (recent events)." %}'
)


@pytest.mark.parametrize(
    ("language", "expected"),
    [
        (
            "de",
            "Hallo Anna, Du bist am Zug (Rot): einen Gebietsmarker setzen. Weitere Befehle: "
            "hilfe, stand (Spielplan und Karten), protokoll (letzte Ereignisse).",
        ),
        (
            "fr",
            "Bonjour Anna, C'est à vous de jouer (Rouge) : placer un pion. Autres commandes : "
            "aide, état (plateau et main), journal (derniers événements).",
        ),
        (
            "en",
            "Hello Anna, It is your move (Red): place a control marker. Other commands: "
            "help, status (board and hand), log (recent events).",
        ),
    ],
)
def test_a_template_fragment_renders_in_the_language(language, expected):
    with translation.override(language):
        context = Context(
            {
                "player": "Anna",
                "colour": words.colour("red"),
                "decision_text": WHITE_LOTUS.presentation.decision_text(None, "place", gettext),
            },
            autoescape=False,
        )
        assert Template(TEMPLATE).render(context) == expected


def test_the_board_legend_translates():
    view = {
        "areas": [
            {
                "in_play": True,
                "number": 1,
                "name": "Xian",
                "lotus": True,
                "dragon": False,
                "building": "palace",
                "owner": "red",
                "markers": ["blue"],
            }
        ],
        "players": [
            {
                "colour": "red",
                "emperor": True,
                "chips": {"palace": 1},
                "vp_chips": 2,
                "score": {"total": 7},
            }
        ],
    }
    with translation.override("de"):
        lines = WHITE_LOTUS.text_board(view, {"red": "Anna"}, gettext)
    assert lines[0].split() == ["1", "Xian", "*", "Palast", "Rot", "[Blau]"]
    assert lines[1].strip() == "* Lotusgebiet   D Drache   [ ] Gebietsmarker"
    assert lines[3] == "Rot Anna (Kaiser): Chips Palast 1; Siegpunkt-Chips 2; Punkte 7"


TEMPLATES = ROOT / "notifications" / "templates"
TRANSLATE = re.compile(r'{%\s*translate\s+"((?:[^"\\]|\\.)*)"\s*%}')
GETTEXT = re.compile(r'\bgettext(?:_noop)?\(\s*"((?:[^"\\]|\\.)*)"\s*\)')
# the apps whose Python puts sentences into the mails (leagues: the standings and join answers)
PYTHON_SOURCES = ("notifications", "leagues")


def source_entries() -> dict[str, str | None]:
    """What makemessages would extract, read without GNU gettext: the translate and
    blocktranslate tags of the mail templates and the one-line gettext calls in Python, each
    msgid with its msgid_plural (None for a string without plural forms)."""
    found: dict[str, str | None] = {}
    # the mail templates, and each game's own mail partials (in its package)
    games = [folder / "notifications" for folder in registry.template_dirs()]
    for path in [p for folder in (TEMPLATES, *games) for p in folder.rglob("*")]:
        if path.is_file():
            text = path.read_text(encoding="utf-8")
            found |= {unquote(m): None for m in TRANSLATE.findall(text)}
            found |= dict(block_msgids(m) for m in BLOCK.findall(text))
    for app in PYTHON_SOURCES:
        for path in (ROOT / app).glob("*.py"):
            found |= {unquote(m): None for m in GETTEXT.findall(path.read_text(encoding="utf-8"))}
    return found


def source_msgids() -> set[str]:
    return set(source_entries())


def test_the_league_sentences_are_read_from_their_python():
    found = source_msgids()
    assert "There is no league '{slug}'." in found  # leagues/signup.py
    assert "Rating" in found  # leagues/mail.py, a heading of the standings table
    plural = "The standings of %(season)s after %(counter)s finished games:"
    assert source_entries()["The standings of %(season)s after %(counter)s finished game:"] == plural


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_string_the_mails_use_is_in_the_catalogue(language):
    """A string added to a template without running makemessages would go out in English
    (a game's own partials may have theirs in the game's own catalogue)."""
    games = [e for folder in game_catalogues() for e in read_po(game_po_path(folder, language))[1:]]
    entries = {str(e["msgid"]): e for e in [*games, *read_po(po_path(language))]}
    missing = sorted((source_msgids() | set(textboard.msgids())) - set(entries))
    assert not missing, f"not in the {language} catalogue (run makemessages): {missing}"
    for msgid, plural in source_entries().items():
        assert entries[msgid].get("msgid_plural") == plural, f"{language}: plural forms of {msgid!r}"


# -- each game's own catalogue (<package>/locale, registry.locale_dirs) ----------------------


def game_catalogues() -> list[Path]:
    """The locale folders of the registered games that bring their own, and of the games the
    tests register (tests/contract: Sealed Bids and Dealer's Draw, each with its own German
    and French)."""
    from contextlib import ExitStack

    from tests.contract import dealersdraw, sealedbids

    with ExitStack() as stack:
        for name, module in (("sealedbids", sealedbids), ("dealersdraw", dealersdraw)):
            if name not in registry.PACKAGES:
                stack.enter_context(registry.register(name, module))
        found = registry.locale_dirs()
    assert len(found) >= 2, "Sealed Bids and Dealer's Draw have their own catalogues"
    return found


def game_po_path(folder: Path, language: str) -> Path:
    return folder / language / "LC_MESSAGES" / "django.po"


def msgstrs(path: Path) -> dict[tuple[object, str], list[str]]:
    return {(e.get("msgctxt"), str(e["msgid"])): translations(e) for e in read_po(path)[1:]}


@pytest.mark.parametrize("language", LANGUAGES)
def test_each_game_catalogue_is_translated_keeps_placeholders_and_is_compiled(language, tmp_path):
    msgfmt = shutil.which("msgfmt")
    for folder in game_catalogues():
        path = game_po_path(folder, language)
        header, *rest = read_po(path)
        assert f"Language: {language}\n" in str(header["msgstr"]), path
        assert rest, f"{path} has no entries"
        for entry in rest:
            msgid = str(entry["msgid"])
            assert "fuzzy" not in entry["flags"], f"{path}: {msgid!r}"
            for msgstr in translations(entry):
                assert msgstr.strip(), f"{path}: {msgid!r} is not translated"
                assert printf_names(msgstr) == printf_names(msgid), f"{path}: {msgid!r}"
                assert brace_names(msgstr) == brace_names(msgid), f"{path}: {msgid!r}"
        mo = path.with_suffix(".mo")
        assert mo.exists(), f"{mo} is missing: run compilemessages in the game's package"
        if msgfmt is not None:
            fresh = tmp_path / f"{folder.parent.name}.{language}.mo"
            subprocess.run([msgfmt, "--check-format", "-o", fresh, path], check=True)
            assert fresh.read_bytes() == mo.read_bytes(), f"{mo} is stale: run compilemessages"


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_game_catalogue_contradicts_neither_the_service_s_nor_another_game_s(language):
    """The catalogues merge into one per language: a game's entry for a msgid the service (or
    another game) translates otherwise would be overridden by the service's (the settings put
    the service's catalogue first) or change the other game's words.  A game that needs its
    own wording of such a msgid says it in a context of its own (``msgctxt``)."""
    said = msgstrs(po_path(language))
    owner = dict.fromkeys(said, "notifications/locale")
    for folder in game_catalogues():
        for key, msgstr in msgstrs(game_po_path(folder, language)).items():
            if key in said:
                assert said[key] == msgstr, f"{folder}: {key[1]!r} is translated otherwise in {owner[key]}"
            said[key], owner[key] = msgstr, str(folder)
