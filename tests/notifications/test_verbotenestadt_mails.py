"""Die Verbotene Stadt's mails, as a player reads them: whole games played through the service
by bots, every mail sent and read in English, German and French (80 columns, no English left
in another language's sentences, the decision first in the subject, the partial's facts)."""

from __future__ import annotations

import html
import re
from datetime import timedelta

import pytest
from django.core import mail as django_mail

from games import services
from games.models import Game, PendingDecision
from games.rules import registry
from notifications import sweep
from notifications.inbound.quotes import strip_reply
from notifications.models import InboundMail, OutboundMail
from notifications.outbound import emails
from notifications.services import mailwords, tokens
from tests.notifications.helpers import compose, deliver_pending, receive
from tests.notifications.vsgames import new_game

pytestmark = pytest.mark.django_db

vs = registry.get("verbotenestadt")
# sentences of this slice a German or French reader must not get in English
ENGLISH = (
    "Your dial (only you see it)",
    "Your dial (secret)",
    "Still to answer",
    "Every sealed answer is in",
    "Answers in:",
    "Your answer is sealed",
    "Your sealed answer is asked",
    "Your cards:",
    "It is your move",
    "Sealed:",
    "The re-bribe window",
    "The challenge:",
    "A whole turn in one mail",
    "For example:",
    "Final places",
    "Other commands",
    "set a secret dial",
    "move an official",
)


def play(game: Game, moves: int | None = None, *, deliver: bool = False) -> None:
    """The bots answer every decision through the service (the first seat that owes one);
    ``deliver``: each move's mails are sent before the next move, as the worker would."""
    state = services.head_state(game)
    done = 0
    while vs.outcome(state) is None and (moves is None or done < moves):
        decision = vs.pending(state)[0]
        services.submit(
            game, decision.seat, vs.about.Bot(f"mail-{decision.seat}").choose(state, decision.seat)
        )
        if deliver:
            deliver_pending()
        state = services.head_state(game)
        done += 1


def sent_messages() -> dict[str, django_mail.EmailMultiAlternatives]:
    return {m.extra_headers["Message-ID"].strip("<>"): m for m in django_mail.outbox}  # type: ignore[misc]


@pytest.mark.slow
def test_every_mail_of_a_whole_game_reads_well_in_its_player_s_language():
    """Each mail as it was sent (at its event, with its deadline), in its reader's language."""
    game = new_game(picture=True)
    deliver_pending()
    play(game, deliver=True)
    sent = sent_messages()
    kinds: set[str] = set()
    windows = {"rebribe": 0, "challenge": 0}
    pictures = 0
    outcome = vs.outcome(services.head_state(game))
    for row in OutboundMail.objects.filter(game=game).exclude(seat=None).order_by("pk"):
        message = sent[row.message_id]
        player = game.seats.get(position=row.seat).player
        text, subject, body_html = message.body, message.subject, message.alternatives[0][0]
        flat = " ".join(text.split())
        where = (row.kind, row.seat, row.seq, player.language)
        kinds.add(row.kind)
        assert all(len(line) <= 78 for line in text.splitlines()), where
        assert f"{player.name}," in text.splitlines()[0], where  # "Hello Ada,"
        assert "None" not in text and ".." not in text.replace("...", ""), where
        assert "(s)" not in text and "Zug/Züge" not in text, where  # "1 move(s)" read as a form
        assert "your hand" not in text, where  # White Lotus's word
        assert not re.search(r"(?<=: )1 (moves|Züge|coups)\b", flat), where  # "Fate dice: 1 moves"
        assert body_html.count("<html") == 1
        # the reply example in the reader's language, as the menu above it (not English first)
        if player.language == "fr" and "par exemple :" in flat:
            assert re.search(
                r"par exemple : (soudoie|garde|déplace|pas|plan|arrête|crois|doute|prends|épargne)\b", flat
            )
            assert "(ou:" not in flat
        # the service's words in the reader's language too (the parser knows them)
        other = {"en": "help, status", "de": "hilfe, stand (", "fr": "aide, état ("}
        assert other[player.language] in flat, where
        if player.language != "en":
            for english in ENGLISH:
                assert english not in text + subject, (where, english)
        if row.kind == "sealed":
            # a dial stays secret when its window closes: the mail must not promise a reveal
            assert "revealed together" not in text and "révélés" not in text and "aufgedeckt" not in text
            if player.language == "en":
                assert "Your answer is sealed: nobody else sees it." in flat, flat
        if row.kind == "reveal":
            # a dial window's close shows no dial: the mail must not say the choices are revealed
            assert "Revealed" not in subject and "are revealed" not in text, where
            if player.language == "en":
                assert subject.startswith("Answers in: the sealed window has closed"), subject
                assert "Every sealed answer is in" in flat and "stays secret" in flat
        decision = row.context.get("decision")
        if row.kind == "decision":
            kinds.add(decision)
            prefix = {"en": ("Your move:", "Sealed:"), "de": ("Du bist am Zug:", "Versiegelt:")}
            prefix["fr"] = ("À vous :", "Scellé :")
            move, sealed = prefix[player.language]
            # French typography puts a no-break space before the colon: read as a space
            assert " ".join(subject.split()).startswith(
                sealed if decision in ("dial", "rebribe", "challenge") else move
            ), where
        if row.kind == "decision" and player.language == "en" and decision in windows:
            windows[decision] += 1
            if decision == "rebribe":
                assert "The re-bribe window:" in flat, flat
                assert "you keep your dial" in flat or "a new dial is set for you by lot" in flat
            else:
                assert "The challenge:" in flat and "you believe" in flat, flat
                # the official with its colours: "who moved by into" read as an English word
                assert re.search(r"who moved [rybgk]{2} \(\w+/\w+\) into", subject), subject
            # every seat answers at once: nobody is "to move", and neither is the reader
            assert "It is your move" not in text and "Your sealed answer is asked (" in flat, flat
            # every seat answers at once: nobody is "to move"
            assert "To move:" not in text and "Still to answer (sealed, all at once):" in flat, flat
            assert sum(line.startswith("Your dial") for line in text.splitlines()) <= 1, text
            # the window's deadline, a short one (12 hours at most)
            deadline = re.search(r"(?:by|Deadline:) (\d{4}-\d\d-\d\d \d\d:\d\d)", flat)
            assert deadline is not None, flat
        if row.seat == 0 and "cid:" in body_html:
            pictures += 1  # Ada wants the picture (a mail leaves out a map she has seen)
        if row.kind == "game_over":
            heading = {"en": "Final places", "de": "Die Plätze", "fr": "Classement final"}[player.language]
            assert heading in flat
            assert '"vs-mail"' in flat or "„vs-mail“" in flat or "« vs-mail »" in flat
            winner = outcome.rank.index(1)
            assert f"{outcome.scores[winner]} " in flat
            if outcome.rank[row.seat] == 1 and player.language == "en":
                assert subject.startswith("Game over: you placed 1st")
            # the groups each seat scored, counted as words count them; no "0 single" form
            assert not re.search(r"\b0 (single|pair|triple|suit|Einzel|Paar|Dreier|Anzug|carte|paire)", flat)
            assert not re.search(r"\b([2-9]|1\d) (single|pair|triple|suit|carte|paire|triplet)\b", flat), flat
            assert "suit groups" not in flat
            if player.language == "fr":
                assert re.search(r"\d cartes? : \d", flat), flat  # the French space before a colon
    assert {"invitation", "decision", "game_over", "dial", "move", "rebribe", "challenge"} <= kinds
    assert {"sealed", "reveal"} & kinds  # every mail is wanted: the dials' window is told
    assert all(windows.values()), windows
    assert pictures >= 1


def test_the_first_mail_asks_for_the_dial_without_the_generic_leftovers():
    game = new_game()
    deliver_pending()
    row = OutboundMail.objects.get(game=game, seat=0, kind="invitation")
    rendered = emails.render(row)
    assert rendered.subject.startswith("New game, you play North: set a secret dial to an official")
    assert "Hello Ada," in rendered.text
    assert "choice None" not in rendered.text
    assert "board.." not in rendered.text.replace("\n", " ")
    assert "Every mail shows the board, what you hold" in rendered.text
    # every seat sets its dial at once: the mail asks for a sealed answer, not "your move"
    assert "Your sealed answer is asked (North): set a secret dial to an official" in rendered.text
    assert "It is your move" not in rendered.text
    assert "Your dial is not set yet." in rendered.text
    assert "Moves this turn" not in rendered.text  # no turn has begun: "0 moves" said nothing
    assert "Still to answer (sealed, all at once): North Ada, East Bernd" in rendered.text
    assert "dial rr" in rendered.text  # the example from the menu
    # the settings as this game has them: no White Lotus years
    assert "every mail: each reveal and each move of the others" in " ".join(rendered.text.split())
    assert "year" not in rendered.text and "year" not in rendered.html
    bernd = OutboundMail.objects.get(game=game, seat=1, kind="invitation")
    assert "jede Aufdeckung und jeder Zug der anderen" in " ".join(emails.render(bernd).text.split())


def test_a_move_mail_explains_a_plan_with_an_example_that_parses():
    game = new_game()
    play(game, moves=4)  # the three dials, the start
    deliver_pending()
    row = OutboundMail.objects.filter(game=game, kind="decision", context__decision="move").first()
    assert row is not None
    rendered = emails.render(row)
    assert rendered.subject.startswith("Your move: move an official (target pavilion ")
    example = re.search(r"For example: (plan .*)", rendered.text)
    assert example is not None, rendered.text
    state = services.state_at(game, row.seq)
    plan = vs.parse_command(state, example.group(1))
    assert plan.kind == "plan" and plan.stop
    # the dial once (the text board's line, with its colours), not again in the partial
    assert sum(line.startswith("Your dial") for line in rendered.text.splitlines()) == 1, rendered.text
    assert re.search(r"Your dial \(secret\): [rybgk]{2} \(\w+/\w+\)", rendered.text)
    assert "To move:" in rendered.text  # a turn: one player moves
    assert "A whole turn in one mail" in html.unescape(rendered.html)
    # the HTML says the dial and the target once (the text board in it has them)
    page = html.unescape(rendered.html)
    assert page.count("Your dial (") == 1 and page.count("arget: pavilion") == 1, page
    # in German the example is written in German words
    bernd = game.seats.get(position=1)
    row.seat = 1
    german = emails.render(row)
    if bernd.player.language == "de" and "Zum Beispiel: plan" in german.text:
        assert "halt" in german.text.split("Zum Beispiel: plan", 1)[1].splitlines()[0]


@pytest.mark.slow
def test_a_partner_game_tells_each_partnership_its_result():
    game = new_game(4, seed="vs-partners", partners=True)
    play(game)
    rows = [r for r in deliver_pending() if r.kind == "game_over"]
    outcome = vs.outcome(services.head_state(game))
    row = next(r for r in rows if r.player.language == "en")
    text = " ".join(emails.render(row).text.split())
    assert "Partners North (Ada) and South (Claire)" in text
    assert f"{outcome.scores[0]} points together" in text
    assert "own " in text


def reply(game: Game, seat: int, body: str) -> InboundMail:
    holder = game.seats.select_related("player").get(position=seat)
    return receive(compose(tokens.reply_address(holder), holder.player.email, body))


def test_replies_in_german_and_french_reach_the_engine_and_a_wrong_one_is_refused_in_french():
    game = new_game()
    deliver_pending()
    # the dials: German words for Bernd, French for Claire, with a closing and a quote below
    reply(game, 0, "dial rg\n\nThanks!\nAda\n\n> It is your move (north)")
    reply(game, 1, "besteche rot/grün\n\nDanke\n\n> Du bist am Zug")
    state = services.head_state(game)
    assert state.sealed[0] == "rg" and state.sealed[1] == "rg"
    refused = reply(game, 2, "soudoie violet/vert")
    assert refused.status == InboundMail.Status.REFUSED
    answer = deliver_pending()[-1]
    assert answer.kind == "error"
    text = " ".join(emails.render(answer).text.split())
    assert "n'est pas un fonctionnaire" in text or "fonctionnaire" in text, text
    assert "soudoie l’un de" in text  # the legal alternatives, in French
    reply(game, 2, "soudoie jaune/noir")  # the last dial: the start player is found, the first turn begins
    state = services.head_state(game)
    mover = vs.pending(state)[0].seat
    assert vs.pending(state)[0].kind == "move"
    # a plan in the mover's language, taken from the mail that asked for it
    asked = OutboundMail.objects.filter(game=game, seat=mover, kind="decision").latest("pk")
    example = re.search(r"(?:For example|Zum Beispiel|Par exemple) ?: (.+)", emails.render(asked).text)
    assert example is not None
    before = game.events.count()
    reply(game, mover, example.group(1))
    assert game.events.count() > before
    assert (
        game.events.filter(kind="command", seat=mover)
        .latest("seq")
        .command_text.startswith(example.group(1).split()[0])
    )


def test_a_wrong_answer_in_the_first_dial_window_is_refused_without_the_re_bribe_window():
    """ "believe" while the first dials are owed: the refusal says to set the dial, not to
    "keep it in the re-bribe window" (there is no dial yet to keep)."""
    game = new_game()
    deliver_pending()
    assert reply(game, 0, "believe").status == InboundMail.Status.REFUSED
    refusal = next(m for m in deliver_pending() if m.kind == "error")
    rendered = emails.render(refusal)
    assert "Set your secret dial now" in rendered.subject + rendered.text
    assert "re-bribe" not in rendered.text
    assert "dial one of:" in rendered.text  # the menu, with the officials to name


def test_help_status_log_reminder_and_a_moderator_s_notice_speak_of_the_game(settings):
    game = new_game()
    deliver_pending()
    reply(game, 0, "dial rg")
    for body in ("hilfe", "stand", "protokoll"):  # Bernd writes German
        reply(game, 1, body)
    answers = {m.kind: m for m in deliver_pending() if m.seat == 1}
    assert {"help", "status", "log"} <= set(answers)
    help_text = emails.render(answers["help"]).text
    assert "besteche <Beamter>" in help_text and "plan <Beamter> <Richtungen>" in help_text
    status = emails.render(answers["status"])
    assert status.subject.startswith("Stand: du bist am Zug"), status.subject
    assert "Deine Bestechungstafel ist noch nicht eingestellt." in status.text
    log_text = " ".join(emails.render(answers["log"]).text.split())
    assert "Nord hat geantwortet." in log_text
    assert ": rg." not in log_text  # North's sealed answer is North's alone
    owed = PendingDecision.objects.owed().filter(game=game, seat=2).get()
    sweep.send_reminders(owed.remind_at + timedelta(minutes=1))
    reminder = next(m for m in deliver_pending() if m.kind == "reminder" and m.seat == 2)
    rendered = emails.render(reminder)
    assert " ".join(rendered.subject.split()).startswith("Rappel : régler le cadran secret"), rendered.subject
    services.pause(game, by=None, reason="maintenance")
    notices = [m for m in deliver_pending() if m.kind == "paused"]
    assert len(notices) == 3
    for notice in notices:
        text = emails.render(notice).text
        assert "None" not in text and all(len(line) <= 80 for line in text.splitlines())


def test_quote_stripping_knows_every_game_s_command_words():
    for line in ("glaube", "plan rr n; stop", "besteche rot/grün", "soudoie rg", "doubt"):
        assert mailwords.may_be_command_word(line), line
    assert strip_reply("Thanks!\nglaube\n\n> Du bist am Zug") == "Thanks!\nglaube"
