"""Every registered game, Sealed Bids (tests.contract.sealedbids: the contract's required names
and nothing else) and Dealer's Draw (tests.contract.dealersdraw: those and chance's six), both
registered by these tests alone, goes through the whole service by
mail: created, started, its seats invited, a decision mailed in English, German and French, a
reply by mail applied and a wrong one refused, its game, seat and replay pages shown, its record
exported and imported, played to the end by defaults and by its bot, its game-over mail sent."""

from __future__ import annotations

from collections.abc import Iterator
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest
from django.core import mail as django_mail
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext

from games import jobs, services
from games.models import Game, Player
from games.presentation import display as pages
from games.presentation.picture import has_picture
from games.rules import registry
from games.rules.base import IllegalCommand, view_problems
from games.services import links
from notifications.models import InboundMail, MailPreference, OutboundMail
from notifications.outbound import emails
from notifications.services import tokens
from tests.catalogues import po_path, read_po, translations
from tests.contract import dealersdraw, sealedbids
from tests.contract.helpers import registered
from tests.notifications.helpers import compose, deliver_pending, receive

pytestmark = pytest.mark.django_db

MINIMAL = "sealedbids"
# the games the tests register: the required names alone, and those with chance's six
TEST_GAMES = {MINIMAL: sealedbids, "dealersdraw": dealersdraw}
GAMES = (*registry.names(), *(name for name in TEST_GAMES if name not in registry.PACKAGES))
LANGUAGES = ("en", "de", "fr")
NAMES = ("Ada", "Bernd", "Claire", "Dana", "Emil", "Fleur")


@pytest.fixture(params=GAMES)
def rules_name(request: pytest.FixtureRequest) -> Iterator[str]:
    if request.param in TEST_GAMES and request.param not in registry.PACKAGES:
        with registered(request.param, TEST_GAMES[request.param]):
            yield request.param
    else:
        yield request.param


def players(n: int, picture: bool = False) -> list[Player]:
    """Readers of English, German and French in turn, each told of every move; with
    ``picture`` the first wants the board picture in its mails."""
    out = []
    for i, name in enumerate(NAMES[:n]):
        player = Player.objects.create(
            email=f"{name.lower()}@contract.example.org", name=name, language=LANGUAGES[i % 3]
        )
        MailPreference.objects.create(player=player, game=None, mode="all", picture=picture and i == 0)
        out.append(player)
    return out


def new_game(rules_name: str, picture: bool = False) -> Game:
    rules = registry.get(rules_name)
    n = max(3, min(rules.player_counts)) if 3 in rules.player_counts else min(rules.player_counts)
    game = services.create_game(players(n, picture), rules=rules_name, seed="contract", first_seat=0)
    services.start_game(game)
    game.refresh_from_db()
    return game


def rendered(kind: str, game: Game) -> dict[str, str]:
    """The text of the mails of ``kind`` of the game, by reader's language (the first of each)."""
    found: dict[str, str] = {}
    for mail in OutboundMail.objects.filter(game=game, kind=kind).order_by("pk"):
        text = emails.render(mail).text  # (finds the seat's player for a row written without)
        found.setdefault(mail.player.language if mail.player else "en", text)
    return found


class _Text(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []

    def handle_data(self, data: str) -> None:
        self.parts.append(data)


def shown(html: str) -> str:
    """The text a reader of the page sees, its character references read (a title with an
    apostrophe is written ``&#x27;`` in the HTML), every run of blanks one space."""
    parser = _Text()
    parser.feed(html)
    parser.close()
    return " ".join(" ".join(parser.parts).split())


def reply(game: Game, seat: int, body: str) -> InboundMail:
    holder = game.seats.select_related("player").get(position=seat)
    return receive(compose(tokens.reply_address(holder), holder.player.email, body))


def play_out(game: Game, choose: Any) -> None:
    rules = services.rules_of(game)
    state = services.head_state(game)
    for _ in range(3000):
        owed = rules.pending(state)
        if not owed:
            break
        seat = owed[0].seat
        for seen in (None, *range(len(rules.view(state, None)["players"]))):
            assert not view_problems(rules.view(state, seen), seen, False)
        services.submit(game, seat, choose(rules, state, seat))
        state = services.head_state(game)
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    assert rules.outcome(state) is not None
    for seen in (None, 0):
        assert not view_problems(rules.view(state, seen), seen, True)


def test_a_game_is_created_started_and_every_seat_invited_in_its_language(rules_name: str) -> None:
    game = new_game(rules_name)
    rules = registry.get(rules_name)
    assert game.status == Game.Status.RUNNING
    invitations = OutboundMail.objects.filter(game=game, kind="invitation")
    assert invitations.count() == game.seats.count()
    texts = rendered("invitation", game)
    assert set(texts) == set(LANGUAGES)
    for text in texts.values():
        assert text.strip()
    assert rules.title in texts["en"]
    for language in ("de", "fr"):  # the title its own catalogue gives it, the service's else
        with translation.override(language):
            title = gettext(rules.title)
        assert title in texts[language], (language, title)
        if title != rules.title:
            assert rules.title not in texts[language], (language, rules.title)


def test_the_decision_mail_reads_in_english_german_and_french(rules_name: str) -> None:
    game = new_game(rules_name)
    rules = services.rules_of(game)
    state = services.head_state(game)
    # moves by the defaults until a reader of each language has been asked for a decision
    for _ in range(60):
        if set(rendered("decision", game)) == set(LANGUAGES):
            break
        seat = rules.pending(state)[0].seat
        services.submit(game, seat, rules.default(state, seat))
        state = services.head_state(game)
    mails = rendered("decision", game)
    assert set(mails) == set(LANGUAGES)
    for text in mails.values():
        assert len(text.splitlines()) > 5
    if rules_name == MINIMAL:  # the game's own words, from its own catalogue
        flowing = {language: " ".join(text.split()) for language, text in mails.items()}  # unwrapped
        for language, said in OWN_WORDS.items():
            for english, translated in said.items():
                assert translated in flowing[language], (language, translated)
                assert english not in flowing[language], (language, english)
                assert english in flowing["en"], english


def asked_for(rules: Any) -> set[str]:
    """Every msgid a game played to the end by its defaults asks the reader's ``translate``
    for: its title and colours, its narration, its text board, its decisions, its phases and
    page words, its final scores' parts, the refusal of a command it cannot read."""
    asked: set[str] = set()

    def record(text: str) -> str:
        asked.add(text)
        return text

    players = min(rules.player_counts)
    config = rules.serial.make_config(
        rules.serial.load_board(rules.about.default_board), players, rules.about.editions[0], {}, None
    )
    state = rules.setup(config, "asked")
    asked.update((rules.title, *rules.seat_colours))
    for words in rules.about.PAGE_WORDS.values():  # its codes as the pages word them
        asked.update(words.values())
    try:
        rules.parse_command(state, "xyzzy 99")
    except IllegalCommand as refused:
        refused.text.render(record)
    while owed := rules.pending(state):
        view = rules.view(state, owed[0].seat)
        rules.text_board(view, {}, record)
        rules.presentation.decision_text(view, owed[0].kind, record)
        rules.presentation.phase_text(view, record)
        state, log = rules.apply(state, owed[0].seat, rules.default(state, owed[0].seat))
        for entry in log:
            rules.narration(state, entry).render(record)
    rules.text_board(rules.view(state, None), {}, record)
    for row in rules.outcome(state).breakdown:
        rules.presentation.score_parts(dict(row)).render(record)
    return asked


def test_a_game_with_its_own_catalogue_has_german_and_french_for_all_it_says(rules_name: str) -> None:
    """What a game says is translated by its own catalogue or the service's; a game without a
    catalogue of its own lists what it says in ``MESSAGES``, which
    tests/engine/test_story_catalogue.py holds to the service's."""
    rules = registry.get(rules_name)
    package = Path(str(rules.module.__file__))
    own = package.with_name("locale")
    if package.name != "__init__.py" or own not in registry.locale_dirs():
        pytest.skip(f"{rules_name} has no catalogue of its own")
    asked = asked_for(rules)
    for language in ("de", "fr"):
        entries = [*read_po(po_path(language)), *read_po(own / language / "LC_MESSAGES" / "django.po")]
        translated = {str(e["msgid"]) for e in entries if all(t.strip() for t in translations(e))}
        missing = sorted(asked - translated)
        assert not missing, f"{rules_name}: no {language} entry for {missing}"


# Sealed Bids' words in its German and French catalogue (tests/contract/sealedbids/locale), as
# its decision mails say them after a round tied: its narration, its text board, its colours
OWN_WORDS = {
    "de": {
        "has made a sealed bid.": "hat verdeckt geboten.",
        "The bids are shown:": "Die Gebote werden aufgedeckt:",
        "nobody wins the prize of 5.": "niemand gewinnt den Preis von 5.",
        "Round 2 of 5: the prize is 4.": "Runde 2 von 5: der Preis ist 4.",
        "0 points, 4 cards": "0 Punkte, 4 Karten",
        "Amber (Ada)": "Bernstein (Ada)",
        "Ivory 1": "Elfenbein 1",
    },
    "fr": {
        "has made a sealed bid.": "a misé en secret.",
        "The bids are shown:": "Les mises sont révélées :",
        "nobody wins the prize of 5.": "personne ne gagne le lot de 5.",
        "Round 2 of 5: the prize is 4.": "Manche 2 sur 5 : le lot est 4.",
        "0 points, 4 cards": "0 points, 4 cartes",
        "Amber (Ada)": "Ambre (Ada)",
        "Ivory 1": "Ivoire 1",
    },
}


def test_a_reply_by_mail_is_applied_and_a_wrong_one_refused(rules_name: str) -> None:
    game = new_game(rules_name, picture=True)
    rules = services.rules_of(game)
    sent = deliver_pending()
    assert all(row.status == OutboundMail.Status.SENT for row in sent)
    pictures = [m for m in django_mail.outbox if m.to == ["ada@contract.example.org"] and m.attachments]
    assert bool(pictures) == has_picture(rules_name)  # a game without a picture is mailed without one
    state = services.head_state(game)
    seat = rules.pending(state)[0].seat
    language = game.seats.get(position=seat).player.language
    events = game.events.count()
    refused = reply(game, seat, "xyzzy 99")
    assert refused.status == InboundMail.Status.REFUSED
    assert game.events.count() == events
    refusal = OutboundMail.objects.get(game=game, kind="error", seat=seat)
    assert "xyzzy" in emails.render(refusal).text
    move = rules.format_command_in(state, rules.default(state, seat), language)
    applied = reply(game, seat, f"{move}\n\nThanks!\n")
    assert applied.status == InboundMail.Status.APPLIED
    assert game.events.count() > events
    assert services.head_state(game) != state


def test_its_game_seat_and_replay_pages_are_shown(rules_name: str, client: Any) -> None:
    game = new_game(rules_name)
    rules = services.rules_of(game)
    state = services.head_state(game)
    seat = rules.pending(state)[0].seat
    services.submit(game, seat, rules.default(state, seat))
    for url in (
        reverse("games:game", args=[game.pk]),
        reverse("games:replay", args=[game.pk]),
        reverse("games:replay-step", args=[game.pk, 2]),
        reverse("games:seat", args=[links.seat_key(game.seats.get(position=seat))]),
    ):
        page = client.get(url)
        assert page.status_code == 200, url
    # a sealed choice is shown to its seat in the game's own words (by the generic partial of
    # the hand; a game with its own partial shows it its own way)
    sealed = rules.view(services.head_state(game), seat).get("sealed")
    if sealed and pages.partials(rules_name)["hand"] == "games/generic/_hand.html":
        html = client.get(reverse("games:seat", args=[links.seat_key(game.seats.get(position=seat))]))
        assert rules.presentation.sealed_text(sealed) in shown(html.content.decode())
    assert rules.title in shown(client.get(reverse("games:game", args=[game.pk])).content.decode())


def test_its_record_is_exported_and_imported_as_the_same_game(rules_name: str) -> None:
    game = new_game(rules_name)
    rules = services.rules_of(game)
    state = services.head_state(game)
    for _ in range(5):
        seat = rules.pending(state)[0].seat
        services.submit(game, seat, rules.default(state, seat))
        state = services.head_state(game)
    text = jobs.export_record(game)
    copy = jobs.import_record(text, name="copy")
    assert copy.rules == rules_name
    assert rules.serial.state_to_dict(services.head_state(copy)) == rules.serial.state_to_dict(state)


def test_it_is_played_to_the_end_by_defaults_and_the_game_over_mail_is_sent(rules_name: str) -> None:
    game = new_game(rules_name)
    play_out(game, lambda rules, state, seat: rules.default(state, seat))
    texts = rendered("game_over", game)
    assert set(texts) == set(LANGUAGES)
    assert 'The seed was ""' not in texts["en"]
    services.clear_caches()
    _, same = services.replay_game(game)
    assert same


def test_it_is_played_to_the_end_by_its_bot(rules_name: str) -> None:
    game = new_game(rules_name)
    play_out(game, lambda rules, state, seat: rules.about.Bot(f"contract:{seat}").choose(state, seat))
    assert OutboundMail.objects.filter(game=game, kind="game_over").exists()
