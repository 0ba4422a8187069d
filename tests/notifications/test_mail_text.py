"""What every mail says and how its text part is laid out, for every kind of
notifications.outbound.emails.KINDS, in English, German and French.

A small fixed game (tests/notifications/mailkinds.py) is rendered once for the module: every
kind of mail for a seat that must decide and for one that need not, then the mails of the
game's end, the league's, the moderators' and the answers to ``join``.  The tests check

* that no mail has an empty phrase where a placeholder was empty ("to .", ": .", "()",
  double spaces), in its subject, text and HTML, and that each states the seat's situation:
  its decision, or whose move it is;
* that every line of every text part fits 80 columns (at most 78) and the footer follows
  RFC 3676's "-- " separator, each URL on a line of its own, the HTML in the reader's language;
* the text parts and subjects against golden files (tests/notifications/golden/<language>/).
  A change meant to alter them regenerates them with
  ``REGENERATE_GOLDEN_MAILS=1 pytest tests/notifications/test_mail_text.py``; look at the diff.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from dataclasses import dataclass
from html import unescape
from pathlib import Path

import pytest
from django.db import transaction
from django.test import override_settings
from django.utils import translation

from games import services
from games.presentation import steps
from games.presentation.typography import french_typography
from games.rules import whitelotus as wl
from games.services import links
from notifications.models import OutboundMail
from notifications.outbound import emails, plaintext
from tests.notifications.helpers import check_layout
from tests.notifications.mailkinds import (
    BOT_KINDS,
    LANGUAGES,
    MIDGAME_KINDS,
    READY_KINDS,
    TALK_KINDS,
    account_mails,
    bot_mails,
    digest_mail,
    fixed_game,
    frozen,
    handed_over_mails,
    in_a_league,
    masked,
    moderator_mails,
    play_out,
    seat_mail,
    speak,
    welcome_mails,
)

pytestmark = pytest.mark.django_db  # (the module's fixture renders from a game it rolls back)

GOLDEN = Path(__file__).parent / "golden"
REGENERATE = os.environ.get("REGENERATE_GOLDEN_MAILS") == "1"
SETTINGS = {
    "SITE_URL": "https://lotus.test",
    "REPLY_DOMAIN": "lotus.test",
    "REPLY_PREFIX": "play",
    "MESSAGE_ID_DOMAIN": "lotus.test",
}
# the words a seat that must bid is told, and those that name the bidders, per language
DECISION = {"en": "make a sealed bid for {area}", "de": "geheim Einfluss für {area} bieten"}
DECISION["fr"] = "miser de l’influence en secret pour {area}"
NOT_YOUR_MOVE = {
    "en": "It is not your move: {who} must",
    "de": "Du bist nicht am Zug: {who} müssen",
    "fr": "Ce n’est pas à vous de jouer : {who} doivent",
}
AND = {"en": " and ", "de": " und ", "fr": " et "}
# kinds whose text does not speak of the seat's situation: a security notice, the game's end
NO_SITUATION = ("wrong_sender", "game_over", "standings")


@dataclass(frozen=True)
class Mail:
    name: str  # "<kind>.<role>" (role: deciding, waiting, ...)
    language: str
    kind: str
    subject: str
    text: str
    html: str
    golden: str  # the text, with the run's random keys and ids masked
    player_page: str = ""  # the link to the recipient's own page, if the mail goes to a player


@dataclass(frozen=True)
class Facts:
    """What the engine says about the fixed game, to check the mails against."""

    area: str  # the province being bid for, with its number: "Ningxia (4)"
    deciding: str  # colour of the seat that must bid
    bidders: dict[str, list[tuple[str, str]]]  # per language: (colour, name) of each bidder


@pytest.fixture(scope="module")
def rendered(
    django_db_setup: None, django_db_blocker: pytest.FixtureRequest
) -> Iterator[tuple[list[Mail], Facts]]:
    """Every mail, rendered once; the game is rolled back afterwards."""
    unblocked = django_db_blocker.unblock()  # type: ignore[attr-defined]
    with unblocked, override_settings(**SETTINGS), frozen(), transaction.atomic():
        mails, facts = _render_all()
        transaction.set_rollback(True)
    services.clear_caches()  # the rolled-back game's id may be reused: forget its cached states
    steps.clear_cache()
    yield mails, facts


def _render_all() -> tuple[list[Mail], Facts]:
    table = fixed_game()
    game = table.game
    state = services.head_state(game)
    assert state.phase.name == "bidding"
    province = state.board.provinces[state.phase.area]
    bidders = [d.seat for d in wl.pending(state)]
    names = {s.position: s.player.name for s in game.seats.select_related("player")}
    facts = Facts(
        area=f"{province.name} ({province.number})",
        deciding=state.config.colours[table.deciding],
        bidders={},
    )
    for language in LANGUAGES:
        with translation.override(language):
            facts.bidders[language] = [
                (translation.gettext(state.config.colours[s].capitalize()), names[s]) for s in bidders
            ]
    out: list[Mail] = []

    def add(name: str, language: str, mail: OutboundMail) -> None:
        result = emails.render(mail)
        reader = mail.player
        page = links.player_page_url(reader) if reader is not None else ""
        out.append(
            Mail(
                name,
                language,
                mail.kind,
                result.subject,
                result.text,
                result.html,
                masked(result.text, game),
                page,
            )
        )

    for language in LANGUAGES:
        for holder in game.seats.select_related("player"):
            speak(holder.player, language)
        for kind in MIDGAME_KINDS:
            add(f"{kind}.deciding", language, seat_mail(kind, game, table.deciding))
            add(f"{kind}.waiting", language, seat_mail(kind, game, table.waiting))
        add("invitation.takeover", language, seat_mail("invitation", game, table.deciding, replacing=True))
    digest = digest_mail(game, table.waiting)
    for language in LANGUAGES:
        speak(game.seats.get(position=table.waiting).player, language)
        add("digest.daily", language, OutboundMail.objects.select_related("player").get(pk=digest.pk))
        answered, refused = account_mails(game, game.seats.get(position=table.waiting).player)
        add("account.settings", language, answered)
        add("account.refused", language, refused)
    # the deciding seat bids: its confirmation
    services.submit(game, table.deciding, wl.legal(state, table.deciding)[0])
    game.refresh_from_db()
    for language in LANGUAGES:
        speak(game.seats.get(position=table.deciding).player, language)
        add("sealed.bid", language, seat_mail("sealed", game, table.deciding))
    for language in LANGUAGES:  # the waiting seat handed over: its former player's mails
        for mail in handed_over_mails(game, table.waiting, language):
            add(f"{mail.kind}.former", language, mail)
    in_a_league(game)
    play_out(game)
    for language in LANGUAGES:
        for holder in game.seats.select_related("player"):
            speak(holder.player, language)
        for seat in (table.deciding, table.waiting):
            add(f"game_over.seat{seat}", language, seat_mail("game_over", game, seat))
            add(f"standings.seat{seat}", language, seat_mail("standings", game, seat))
        joined, refused = welcome_mails(game.seats.get(position=table.waiting).player)
        add("welcome.joined", language, joined)
        add("welcome.refused", language, refused)
    for mail in moderator_mails(game):
        add(f"{mail.kind}.moderators", "en", mail)
    bot_table = fixed_game()  # a game of its own, so the mails above stay as they were
    for language in LANGUAGES:
        for name, mail in bot_mails(bot_table, language):
            add(name, language, mail)
    return out, facts


# --- what the mails say -------------------------------------------------------------------------

EMPTY = [
    (re.compile(r"\s[.,;:]"), "a space before punctuation"),  # "to ." / "Red: ." / "( )"
    (re.compile(r"\(\s*\)"), "empty brackets"),
    (re.compile(r"\b(?:to|for|of|by|your|zu|für|pour|de|à)\s*[.:]"), "a sentence that stops short"),
    (re.compile(r"[:,]\s*[.,]"), "an empty item"),
    (re.compile(r"\S {2,}\S"), "double spaces"),
]
# French puts a (no-break) space before : ; ? ! (games.presentation.typography): not an empty phrase
FRENCH_SPACE = re.compile(r"[ \u00a0\u202f]([:;!?])")


def prose_lines(text: str) -> list[str]:
    """The lines of a text part that are sentences: not the board's rows, the menu, the
    command examples or the score table, whose columns are aligned with spaces."""
    lines = []
    for line in text.splitlines():
        if not line.strip() or line.startswith(" ") or re.match(r"\d+ ", line) or line.startswith("#"):
            continue
        lines.append(line)
    return lines


def html_sentences(html: str) -> list[str]:
    """The HTML part as the reader sees its sentences: paragraphs and headings, tags stripped
    (not the preformatted board and command lists)."""
    html = re.sub(r"<pre.*?</pre>|<code>.*?</code>", "X", html, flags=re.DOTALL)
    found = re.findall(r"<(p|h3|li|td|strong)\b[^>]*>(.*?)</\1>", html, flags=re.DOTALL)
    return [" ".join(unescape(re.sub(r"<[^>]+>", " ", body)).split()) for _, body in found]


def empty_phrases(line: str, language: str) -> list[str]:
    if language == "fr":
        line = FRENCH_SPACE.sub(r"\1", line)
    return [f"{why}: {line!r}" for pattern, why in EMPTY if pattern.search(line)]


@pytest.mark.slow
def test_every_mail_kind_is_rendered_in_every_language_for_both_seats(rendered):
    mails, _ = rendered
    kinds = {m.kind for m in mails}
    assert kinds == set(emails.KINDS) - {*READY_KINDS, *TALK_KINDS}, set(emails.KINDS) - kinds
    for language in LANGUAGES:
        names = {m.name for m in mails if m.language == language}
        for kind in MIDGAME_KINDS:
            assert {f"{kind}.deciding", f"{kind}.waiting"} <= names


def test_every_mail_to_a_player_ends_with_the_link_to_their_own_page(rendered):
    mails, _ = rendered
    words = {"en": "Your games and settings:", "de": "Deine Partien und Einstellungen:"}
    words["fr"] = "Vos parties et vos réglages\u00a0:"  # French typography: a no-break space
    kinds = set()
    for mail in mails:
        where = f"{mail.language} {mail.name}"
        if mail.kind in ("bounce", "missed_moderators"):  # to the moderators: no player, no page
            assert "/me/" not in mail.text + mail.html, where
            continue
        assert mail.player_page, where
        footer = mail.text.split(f"\n{plaintext.SIGNATURE}\n", 1)[1]
        assert footer.endswith(f"{words[mail.language]}\n{mail.player_page}\n"), f"{where}:\n{footer}"
        assert f'{words[mail.language]} <a href="{mail.player_page}">' in mail.html, where
        kinds.add(mail.kind)
    # the ready window's mails are not in the golden run: tests/games/test_ready_window.py
    assert kinds == set(emails.KINDS) - {"bounce", "missed_moderators", *READY_KINDS, *TALK_KINDS}


def test_no_mail_has_an_empty_phrase_in_its_subject_text_or_html(rendered):
    mails, _ = rendered
    problems = []
    for mail in mails:
        where = f"{mail.language} {mail.name}"
        problems += [f"{where} subject: {p}" for p in empty_phrases(mail.subject, mail.language)]
        for line in prose_lines(mail.text):
            problems += [f"{where} text: {p}" for p in empty_phrases(line, mail.language)]
        for sentence in html_sentences(mail.html):
            problems += [f"{where} html: {p}" for p in empty_phrases(sentence, mail.language)]
        assert "None" not in mail.text + mail.subject, where
    assert not problems, "\n".join(problems)


def test_the_empty_phrase_check_finds_the_broken_sentences_it_is_for():
    for broken in ("It is your turn to . What you can do now:", "Du bist am Zug: .", "Score:  7"):
        assert empty_phrases(broken, "en"), broken
    assert not empty_phrases("Ce n'est pas à vous de jouer : Bleu doit miser.", "fr")


def test_a_seat_that_must_decide_is_told_its_decision_in_every_mail(rendered):
    mails, facts = rendered
    for mail in mails:
        if not mail.name.endswith(".deciding") or mail.kind in NO_SITUATION:
            continue
        decision = DECISION[mail.language].format(area=facts.area)
        assert decision in " ".join(mail.text.split()), f"{mail.language} {mail.name}:\n{mail.text}"
        assert decision in " ".join(html_sentences(mail.html)), f"{mail.language} {mail.name}"


def test_a_seat_that_need_not_decide_is_told_whose_move_it_is(rendered):
    mails, facts = rendered
    for mail in mails:
        if not mail.name.endswith(".waiting") or mail.kind in NO_SITUATION:
            continue
        bidders = [f"{colour} ({name})" for colour, name in facts.bidders[mail.language]]
        who = ", ".join(bidders[:-1]) + AND[mail.language] + bidders[-1]
        told = NOT_YOUR_MOVE[mail.language].format(who=who)
        assert told in " ".join(mail.text.split()), f"{mail.language} {mail.name}:\n{mail.text}"
        assert told in " ".join(html_sentences(mail.html)), f"{mail.language} {mail.name}"
        assert "What you can do now:" not in mail.text


def test_subjects_lead_with_what_to_do_and_end_with_the_games_name(rendered):
    mails, facts = rendered
    subjects = {(m.language, m.name): m.subject for m in mails}
    game = "Autumn Lotus League: 2026 Autumn · 1.1"
    for (language, name), subject in subjects.items():
        assert not subject.startswith("[White Lotus]"), subject
        if not name.startswith(("welcome", "bounce", "standings", "missed_moderators", "account")):
            named = french_typography(game) if language == "fr" else game
            assert subject.endswith(f" · {named}"), subject
    area = facts.area
    assert subjects["en", "decision.deciding"] == f"Your move: make a sealed bid for {area} · {game}"
    assert (
        subjects["de", "decision.deciding"] == f"Du bist am Zug: geheim Einfluss für {area} bieten · {game}"
    )
    assert subjects["en", "error.deciding"] == f"Refused: You cannot bid 99 · {game}"
    assert subjects["fr", "sealed.waiting"] == french_typography(
        f"Scellé : votre choix est enregistré · {game}"
    )
    assert subjects["de", "sealed.bid"] == f"Geheim hinterlegt: dein Gebot ist da · {game}"
    assert (
        subjects["en", "reminder.deciding"]
        == f"Reminder: make a sealed bid for {area}, due Wed 09:00 · {game}"
    )
    assert re.fullmatch(
        rf"Game over: you placed [1-4](st|nd|rd|th) · {game}", subjects["en", "game_over.seat0"]
    )
    assert re.fullmatch(rf"Spielende: du bist [1-4]\. geworden · {game}", subjects["de", "game_over.seat0"])


# --- how the text is laid out -------------------------------------------------------------------


def test_every_text_part_fits_80_columns_with_its_footer_after_the_rfc_3676_separator(rendered):
    mails, _ = rendered
    for mail in mails:
        check_layout(mail.text, f"{mail.language} {mail.name}")


def test_a_menu_alternative_is_never_broken_inside_a_name(rendered):
    mails, _ = rendered
    menus = 0
    for mail in mails:
        lines = mail.text.splitlines()
        with translation.override(mail.language):
            title = translation.gettext("What you can do now:")
        heading = next((i for i, line in enumerate(lines) if line == title), None)
        if heading is None:
            continue
        menus += 1
        menu = lines[heading + 1 : lines.index("", heading)]
        assert menu and all(line.startswith("  ") for line in menu), mail.name
        assert menu[0].split()[0] in ("bid", "biete", "mise"), menu  # one command kind per line
    assert menus >= 3 * 8


def test_the_html_part_carries_the_readers_language(rendered):
    mails, _ = rendered
    for mail in mails:
        assert f'<html lang="{mail.language}">' in mail.html, f"{mail.language} {mail.name}"


def test_the_text_parts_and_subjects_are_the_golden_ones(rendered):
    mails, _ = rendered
    changed = []
    for language in LANGUAGES:
        folder = GOLDEN / language
        ours = [m for m in mails if m.language == language and m.kind not in BOT_KINDS]
        files = {f"{m.name}.txt": m.golden for m in ours}
        files["subjects.txt"] = "".join(f"{m.name}: {m.subject}\n" for m in ours)
        if REGENERATE:
            folder.mkdir(parents=True, exist_ok=True)
            for old in folder.glob("*.txt"):
                old.unlink()
            for name, text in files.items():
                (folder / name).write_text(text, encoding="utf-8")
            continue
        kept = {p.name for p in folder.glob("*.txt")}
        assert kept == set(files), f"{language}: golden files missing or extra: {kept ^ set(files)}"
        changed += [
            f"{language}/{n}" for n, t in files.items() if (folder / n).read_text(encoding="utf-8") != t
        ]
    assert not changed, (
        f"mails differ from their golden files (REGENERATE_GOLDEN_MAILS=1 to accept): {changed}"
    )


def test_every_golden_text_fits_80_columns_and_has_its_footer_after_the_separator():
    texts = [p for p in GOLDEN.glob("*/*.txt") if p.name != "subjects.txt"]
    assert len(texts) >= 3 * (2 * len(MIDGAME_KINDS) + 1)
    for path in texts:
        check_layout(path.read_text(encoding="utf-8"), str(path.relative_to(GOLDEN)))
