"""Refusals in the player's language: every reason the engine and the service can give a player
(``games.rules.base.Message`` templates) has a German and a French entry, and a refused mail
says its reason in the reader's language, rendered when the mail is sent."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest
from django.utils import translation
from django.utils.translation import gettext

from games.rules import whitelotus as wl
from games.rules.base import IllegalCommand, Message, Word
from games.rules.whitelotus.commands import (
    Army,
    Bid,
    Command,
    First,
    Give,
    Out,
    PalaceChoice,
    Pass,
    Place,
    Take,
)
from games.rules.whitelotus.notation import COMMAND_LIST, SCRIPTS, SYNTAX
from games.rules.whitelotus.words import ENGLISH_KEYWORDS, KEYWORDS, spell
from notifications.models import InboundMail, OutboundMail
from tests.catalogues import GAMES, LANGUAGES, SERVICE, msgstrs, po_path, read_tsv
from tests.games.factories import running_game, whose_turn
from tests.notifications.helpers import compose, deliver_pending, receive, sent_to

ROOT = Path(__file__).resolve().parents[2]
# where the reasons a player may be told are written
SOURCES = [
    *sorted((ROOT / "games" / "rules" / "whitelotus").glob("*.py")),
    ROOT / "games" / "rules" / "commandline.py",  # the refusals every game's notation shares
    ROOT / "games" / "rules" / "chance.py",  # and every game's outcomes of chance
    ROOT / "games" / "rules" / "base.py",  # the defaults of the contract (no chance: nothing drawn)
    *sorted((ROOT / "games" / "services").glob("*.py")),
    ROOT / "games" / "store" / "heads.py",  # a game's state read from its events
    ROOT / "notifications" / "inbound" / "commands.py",
    ROOT / "notifications" / "inbound" / "readiness.py",
    ROOT / "notifications" / "inbound" / "hints.py",  # "Did you mean", setting words explained
]
LITERAL = Message.literal("").template  # said as it is: no entry


def message_calls() -> Iterator[tuple[Path, ast.Call, str]]:
    """Every ``Message("...")`` call of the sources, with its file and template (each form of
    a ``Message.counted(n, "one", "other")``)."""
    for path in SOURCES:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Call):
                continue
            if isinstance(node.func, ast.Name) and node.func.id == "Message":
                templates = node.args[:1]
            elif (
                isinstance(node.func, ast.Attribute)
                and node.func.attr == "counted"
                and getattr(node.func.value, "id", "") == "Message"
            ):
                templates = node.args[1:3]
            else:
                continue
            for template in templates:
                if isinstance(template, ast.Constant) and isinstance(template.value, str):
                    yield path, node, template.value


def written_templates() -> dict[str, str]:
    """Every ``Message("...")`` of the sources: template -> file."""
    found: dict[str, str] = {}
    for path, _node, template in message_calls():
        found.setdefault(template, path.name)
    return found


def home_of(english: str) -> Path:
    """The catalogue a refusal belongs in: White Lotus's when only its package says it, else
    the service's (the contract's, the notation's and the service's own reasons)."""
    written = {path for path, _node, template in message_calls() if template == english}
    ours = GAMES["whitelotus"]
    # no Message call: its notation's syntax lines, keywords, command list and script names
    return ours if all(path.is_relative_to(ours) for path in written) else SERVICE


def refusal_strings() -> set[str]:
    """What a refusal may pass to translate: the written templates, the syntax lines
    (``Write: bid <colour> <points>``), the keywords (``'bid' is not a move now``) and the
    script names of look-alike letters."""
    strings = {*written_templates(), *SYNTAX.values(), *ENGLISH_KEYWORDS, COMMAND_LIST, *SCRIPTS}
    return strings - {LITERAL}


def tables(language: str) -> dict[Path, dict[str, str]]:
    """The refusal TSVs: the service's and White Lotus's."""
    return {home: read_tsv(home, "refusals", language) for home in (SERVICE, GAMES["whitelotus"])}


def test_the_scan_finds_the_engine_services_and_inbound_reasons():
    found = written_templates()
    assert found["You cannot bid {amount}: you have {points} influence points."] == "contest.py"
    assert (
        found["This game is paused by a moderator; moves are not accepted until it resumes."]
        == "appending.py"
    )
    assert found["You are not on vacation in this game."] == "deadlines.py"
    assert found["It is not your move now."] == "commands.py"
    assert len(found) > 90


def flat(text: str) -> str:
    """The text with its lines joined: mails are wrapped at 76 columns."""
    return " ".join(text.split())


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_refusal_has_an_entry_in_the_catalogue(language):
    """Fails when a reason is added to the engine without its German and French: a reason
    only White Lotus gives is in its own catalogue, one the service gives in the service's (a
    game may use a shared one from there)."""
    found = tables(language)
    for english in refusal_strings():
        home = home_of(english)
        where = home if english in found[home] else SERVICE
        assert english in found[where], f"not in {home.name}/locale_src/refusals.{language}.tsv: {english!r}"
        entries = msgstrs(po_path(language, where))
        assert entries.get(english, "").strip(), f"{language}: {english!r} is not in {where.name}'s django.po"
        assert entries[english] == found[where][english], (
            f"{language}: django.po and the TSV differ on {english!r}"
        )


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_refusal_table_holds_no_reason_the_code_no_longer_gives(language):
    for home, table in tables(language).items():
        stale = sorted(set(table) - refusal_strings())
        assert not stale, f"{home.name}/locale_src/refusals.{language}.tsv: {stale}"


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_syntax_lines_translate_as_the_menus_write_them(language):
    with translation.override(language):
        for kind, line in SYNTAX.items():
            assert gettext(line) == wl.menu.syntax(kind, language)
        for keyword in ENGLISH_KEYWORDS:  # "army" is also the points word "Armee": case aside
            assert gettext(keyword).casefold() == spell(KEYWORDS, keyword, language).casefold()
        assert gettext(COMMAND_LIST) == ", ".join(spell(KEYWORDS, k, language) for k in ENGLISH_KEYWORDS)


PROBES: list[Command] = [
    Place(0),
    Place(37),
    Pass(),
    Bid(0, 99),
    Bid(1, 1),
    Out(2),
    Army(99),
    Take(3),
    First(1),
    PalaceChoice(5),
    Give(0, 1, army=False),
]


@pytest.mark.parametrize("edition", ["kosmos", "designer"])
def test_every_reason_met_in_play_is_catalogued(edition):
    """The scan above reads the sources; this plays a game, tries wrong commands at every
    decision and checks each reason's parts (templates and words) are translated."""
    state = wl.setup(wl.Config(wl.load_board("china"), ("red", "blue", "green", "yellow"), edition), "i18n")
    met: set[str] = set()
    step = 0
    while (decisions := wl.pending(state)) and step < 400:
        seat = decisions[0].seat
        if step % 3 == 0:
            for probe in PROBES:
                for who in (seat, (seat + 1) % state.players):
                    try:
                        wl.apply(state, who, probe)
                    except IllegalCommand as error:
                        met.update(error.text.templates())
        menu = wl.legal(state, seat)
        state, _ = wl.apply(state, seat, menu[(step * 7) % len(menu)])
        step += 1
    assert len(met) > 20
    with translation.override("de"):
        untranslated = sorted(m for m in met - {LITERAL} if gettext(m) == m and m not in ("{first}, {rest}",))
    assert not untranslated


def test_a_message_survives_the_outbox_and_falls_back_to_english_on_a_broken_translation():
    reason = Message(
        "You cannot place in {area}: {why}.",
        area="Xian",
        why=Message("{colour} already holds it", colour=Word("red")),
    )
    assert Message.from_data(reason.to_data()) == reason
    assert Message.from_data({"nonsense": 1}) is None
    assert (
        reason.render(lambda s: s.replace("{area}", "{province}"))
        == "You cannot place in Xian: red already holds it."
    )


# --- the mails ------------------------------------------------------------------------------


def _game_in(language: str):
    game = running_game(3, seed="mail")
    for seat in game.seats.select_related("player"):
        seat.player.language = language
        seat.player.save()
    deliver_pending()
    return game


def _refused(game, seat: int, body: str) -> OutboundMail:
    from notifications.services import tokens

    holder = game.seats.get(position=seat)
    row = receive(compose(tokens.reply_address(holder), holder.player.email, body))
    assert row.status == InboundMail.Status.REFUSED, row.outcome
    sent = deliver_pending()
    error = next(m for m in sent if m.kind == "error")
    assert error.context["message"] == row.outcome  # the English, for the log
    return error


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("language", "no_province", "not_yours"),
    [
        (
            "de",
            "Es gibt keine Provinz „Atlantis“. Schreib: setze <Provinz>",
            "Du hast gerade nichts zu entscheiden (am Zug: Rot).",
        ),
        (
            "fr",
            "Il n’y a pas de province « Atlantis ». Écrivez : pose <province>",
            "Vous n’avez rien à décider pour l’instant (à jouer : Rouge).",
        ),
        (
            "en",
            "There is no province 'Atlantis'. Write: place <province>",
            "Nothing is yours to decide now: waiting for Red.",
        ),
    ],
)
def test_a_refusal_mail_gives_the_reason_in_the_players_language(language, no_province, not_yours):
    game = _game_in(language)
    seat = whose_turn(game)
    assert seat == 0  # red places first
    _refused(game, seat, "place Atlantis")
    mail = sent_to(game.seats.get(position=seat).player.email)[-1]
    assert no_province in flat(mail.body)
    assert no_province.replace("<", "&lt;").replace(">", "&gt;").replace("'", "&#x27;") in flat(
        mail.alternatives[0][0]
    )
    other = game.seats.get(position=1)
    _refused(game, 1, "place Ningxia")
    assert not_yours in flat(sent_to(other.player.email)[-1].body)


@pytest.mark.django_db
def test_a_look_alike_letter_is_named_in_the_players_language():
    game = _game_in("de")
    _refused(game, 0, "setze Ningxi\u0430")  # Cyrillic a
    body = sent_to(game.seats.get(position=0).player.email)[-1].body
    assert (
        "Das „а“ in „Ningxiа“ ist ein kyrillischer Buchstabe: Schreib das Wort in lateinischen Buchstaben."
        in flat(body)
    )


@pytest.mark.django_db
def test_a_refusal_stored_before_reasons_were_messages_is_mailed_in_english():
    game = _game_in("de")
    error = _refused(game, 0, "place Atlantis")
    error.context = {"failing_line": "place Atlantis", "message": "There is no province 'Atlantis'."}
    from notifications.outbound import emails

    assert "There is no province 'Atlantis'." in flat(emails.render(error).text)


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("language", "expected"),
    [
        ("de", "„biete“ ist jetzt kein möglicher Zug: Gebietsmarker werden gesetzt."),
        ("fr", "« mise » n’est pas un coup possible maintenant : les pions sont en train d’être placés."),
    ],
)
def test_a_command_out_of_its_phase_is_named_by_the_readers_keyword(language, expected):
    game = _game_in(language)
    _refused(game, 0, "bid blue 3")
    assert expected in flat(sent_to(game.seats.get(position=0).player.email)[-1].body)


@pytest.mark.parametrize(
    ("language", "expected"),
    [
        ("en", "You cannot bid 99: you have 12 influence points."),
        ("de", "Du kannst nicht 99 bieten: Du hast 12 Einflusspunkte."),
        ("fr", "Vous ne pouvez pas miser 99 : vous avez 12 points d'influence."),
    ],
)
def test_the_bid_refusal_of_the_issue_reads_in_each_language(language, expected):
    from tests.engine.whitelotus.helpers import one_contest

    state, _ = one_contest(("blue", "green"))
    with pytest.raises(IllegalCommand) as caught:
        wl.apply(state, 1, wl.parse_command(state, "bid green 99"))
    assert str(caught.value).startswith(
        "You cannot bid 99: you have 12 influence points.\nWhat you can do now:"
    )
    with translation.override(language):
        assert caught.value.text.render(gettext) == expected


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_menu_phrase_has_its_german_and_french(language):
    """The menus (menu.py) are written per language in the engine itself, not through the
    catalogue: each language has every phrase and placeholder, with the same fields."""
    from string import Formatter

    from games.rules.whitelotus.menu import PHRASES, PLACEHOLDERS

    def fields(text: str) -> set[str]:
        return {name for _, name, _, _ in Formatter().parse(text) if name}

    assert set(PHRASES[language]) == set(PHRASES["en"])
    assert set(PLACEHOLDERS[language]) == set(PLACEHOLDERS["en"])
    for key, english in PHRASES["en"].items():
        assert fields(PHRASES[language][key]) == fields(english), key
        if key not in ("to", "or"):
            assert PHRASES[language][key] != english, f"{language}: {key!r} is still English"


def test_every_written_message_gets_exactly_the_fields_its_template_names():
    """A field without its argument would raise KeyError where a refusal was meant."""
    from string import Formatter

    wrong = []
    for path, node, template in message_calls():
        named = {name for _, name, _, _ in Formatter().parse(template) if name is not None}
        given = {k.arg for k in node.keywords}
        if named != given:
            wrong.append((path.name, node.lineno, template, sorted(given)))
    assert not wrong
