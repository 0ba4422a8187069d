"""Trailing prose after the commands (a thank-you, a sign-off, a name) is ignored and said;
a mistyped command anywhere still refuses the whole mail."""

from __future__ import annotations

import pytest

from games import services
from games.models import Game
from games.rules import whitelotus as wl
from games.rules.whitelotus.board import load_board
from notifications.models import InboundMail
from notifications.services import tokens
from notifications.services.mailwords import MAIL_WORDS
from notifications.services.prose import split_trailing_prose
from tests.games.factories import running_game, whose_turn
from tests.notifications.helpers import compose, deliver_pending, receive, sent_to

PROVINCES = [p.name for p in load_board().provinces]


def split(text: str) -> tuple[list[str], list[str]]:
    return split_trailing_prose(text.split("\n"), MAIL_WORDS, PROVINCES)


@pytest.mark.parametrize(
    "tail",
    [
        *("Dora", "thanks!", "Cheers, Max", "Best regards", "Thank you", "Danke", "Merci beaucoup"),
        *("Grüße Peter", "Mit freundlichen Grüßen", "Bonne chance", "Thanks a lot", "Paul", "Viel Glück"),
        "Peter Müller",
    ],
)
def test_a_sign_off_after_the_commands_is_prose(tail):
    assert split(f"place 3\nbid red 2\n{tail}") == (["place 3", "bid red 2"], [tail])


@pytest.mark.parametrize(
    "typo",
    [
        *("plase 12", "plase Hangzhu", "bidd red 3", "gvie blue 2 army", "sied rebels", "pas", "lea"),
        *("stauts", "vacaton 5 days", "bak"),
    ],
)
def test_a_plausible_misspelling_after_the_commands_stays_a_command(typo):
    assert split(f"place 3\n{typo}") == (["place 3", typo], [])


def test_a_name_that_resembles_a_command_needing_an_argument_is_prose_only_after_the_commands():
    # "Dora" suggests "dehors" (out), which needs a colour: alone after the commands it is prose
    assert split("out red\nDora") == (["out red"], ["Dora"])
    # above a command it is a line the engine must read, and refuse
    assert split("Dora\nout red") == (["Dora", "out red"], [])


def test_prose_between_commands_is_kept_for_the_engine_to_refuse():
    assert split("place 3\nthanks!\npass") == (["place 3", "thanks!", "pass"], [])


def test_a_mail_without_any_command_ignores_nothing():
    assert split("thanks!\nDora") == (["thanks!", "Dora"], [])


def test_status_and_vacation_words_count_as_commands():
    assert split("status\nCheers") == (["status"], ["Cheers"])
    assert split("urlaub 3 tage\nLG Anna") == (["urlaub 3 tage"], ["LG Anna"])


def test_a_huge_word_is_prose_without_costing_time():
    assert split("pass\n" + "a" * 100_000) == (["pass"], ["a" * 100_000])


# --- through the pipeline --------------------------------------------------------------------------


def started() -> Game:
    game = running_game(3, edition="kosmos", seed="mail")
    deliver_pending()
    return game


def reply(game: Game, seat: int, text: str) -> InboundMail:
    player = game.seats.get(position=seat).player
    return receive(compose(tokens.reply_address(game.seats.get(position=seat)), player.email, text))


def a_legal_command(game: Game, seat: int) -> str:
    state = services.head_state(game)
    return wl.Notation.format_command(state, wl.legal(state, seat)[0])


@pytest.mark.django_db
def test_a_move_followed_by_a_name_is_applied_and_the_ignored_line_is_said():
    game = started()
    seat = whose_turn(game)
    command = a_legal_command(game, seat)
    # (a closing such as "Thanks,\nDora" never gets here: the quote stripper drops it)
    row = reply(game, seat, f"{command}\n\nsee you soon!\nDora")
    assert row.status == InboundMail.Status.APPLIED, row.outcome
    assert "ignored after the commands: see you soon! | Dora" in row.outcome
    assert game.events.latest("seq").command_text == command
    deliver_pending()
    told = sent_to(game.seats.get(position=seat).player.email)[-1]
    assert "I ignored these lines after your commands: see you soon! / Dora" in told.body
    assert "<code>Dora</code>" in told.alternatives[0][0]
    # the other seats' mails say nothing of it
    for other in range(3):
        if other != seat:
            assert all(
                "I ignored" not in m.body for m in sent_to(game.seats.get(position=other).player.email)
            )


@pytest.mark.django_db
def test_a_mistyped_command_before_the_sign_off_still_refuses_the_whole_mail():
    game = started()
    seat = whose_turn(game)
    before = game.events.count()
    row = reply(game, seat, f"{a_legal_command(game, seat)}\nplase 3\nCheers, Max")
    assert row.status == InboundMail.Status.REFUSED
    assert "Did you mean 'place'?" in row.outcome
    assert game.events.count() == before


@pytest.mark.django_db
def test_a_closing_between_commands_refuses_the_whole_mail_and_loses_no_line():
    """The quote stripper cut at "thanks" and dropped what followed: the move above was applied
    and the bid silently lost. A mail is applied whole or not at all."""
    game = started()
    seat = whose_turn(game)
    before = game.events.count()
    row = reply(game, seat, f"{a_legal_command(game, seat)}\nthanks\nbid red 3")
    assert row.status == InboundMail.Status.REFUSED, row.outcome
    assert "'thanks' is not a command" in row.outcome
    assert game.events.count() == before


@pytest.mark.django_db
def test_a_name_above_the_commands_still_refuses_with_the_hint():
    game = started()
    seat = whose_turn(game)
    row = reply(game, seat, f"Dora\n{a_legal_command(game, seat)}")
    assert row.status == InboundMail.Status.REFUSED
    # the hint is the reader's: an English reader is not offered French "dehors" (issue 29)
    assert "'Dora' is not a command." in row.outcome
    assert "dehors" not in row.outcome


@pytest.mark.django_db
def test_status_followed_by_thanks_answers_and_says_what_was_ignored():
    game = started()
    seat = (whose_turn(game) + 1) % 3
    row = reply(game, seat, "status\ngood luck!")
    assert row.status == InboundMail.Status.ANSWERED
    deliver_pending()
    answer = sent_to(game.seats.get(position=seat).player.email)[-1]
    assert "I ignored these lines after your commands: good luck!" in answer.body


@pytest.mark.django_db
def test_a_move_that_mails_the_sender_nothing_gets_a_status_answer_saying_what_was_ignored():
    game = started()
    seat = whose_turn(game)
    player = game.seats.get(position=seat).player
    before = len(sent_to(player.email))
    reply(game, seat, f"{a_legal_command(game, seat)}\nDora")
    deliver_pending()
    mails = sent_to(player.email)[before:]
    assert len(mails) == 1
    assert "I ignored these lines after your commands: Dora" in mails[0].body
    # its subject says the mail was carried out: the player asked for no status
    assert mails[0].subject.startswith("Done: your mail is carried out, some lines ignored · ")


@pytest.mark.django_db
def test_status_asked_with_trailing_prose_keeps_the_status_subject():
    game = started()
    seat = (whose_turn(game) + 1) % 3
    reply(game, seat, "status\nDora")
    deliver_pending()
    answer = sent_to(game.seats.get(position=seat).player.email)[-1]
    assert answer.subject.startswith("Status: the board and your hand · ")


def test_the_closest_keyword_is_scored_once(monkeypatch):
    """words.closest_keyword_scored gives the keyword with its ratio: prose does not compare it
    again (this runs for every line of every mail)."""
    from difflib import SequenceMatcher

    from games.rules.whitelotus import words
    from notifications.services import prose

    assert words.closest_keyword_scored("plase") == ("place", SequenceMatcher(None, "plase", "place").ratio())
    assert words.closest_keyword_scored("xyzzy") is None
    compared: list[tuple[str, str]] = []

    def counted(a: str, b: str, floor: float = 0.0) -> float:
        compared.append((a, b))
        return 0.0

    monkeypatch.setattr(prose, "_ratio", counted)
    assert prose._resembled("plase", {}) == "game"  # place takes a province
    assert compared == []


def test_the_closest_keyword_is_the_one_a_full_comparison_with_every_spelling_finds():
    """closest_keyword_scored skips spellings by the ratio's cheap upper bounds: same answer."""
    from difflib import SequenceMatcher

    from games.rules.whitelotus import words

    spellings = [
        s for language in words.LANGUAGES for c in words.ENGLISH_KEYWORDS for s in words.KEYWORDS[language][c]
    ]
    typed = [*spellings, "plase", "bidd", "dora", "thanks", "xyzzy", "stauts", "gvie", "sied", "a", "nimmm"]
    typed += [s[:-1] for s in spellings] + [s[1:] + "x" for s in spellings]
    for word in typed:
        best: tuple[float, str] | None = None
        for spelled in spellings:
            score = SequenceMatcher(None, words.key(word), words.key(spelled)).ratio()
            if score >= 0.6 and (best is None or score > best[0]):
                best = (score, spelled)
        assert words.closest_keyword_scored(word) == ((best[1], best[0]) if best else None), word
