"""The commands of a reply to a seat's address, applied together or refused together.

``inbound`` has found the seat and checked the sender; ``apply`` reads the mail's lines in
its game's notation and sorts them: table talk (``say …``, ``press``), mail settings
(``preferences``), ``help``/``status``/``log``, ``vacation``/``back``, and the moves, which go
through ``games.services.submit``.  The whole mail commits or nothing of it does: a refusal
(the failing line, why, and what is legal now) answers a mail with a bad line, with too many
lines, with none, or a reply to a decision that is no longer current.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from django.db import transaction

from games import services
from games.models import Event, Game, Press, Seat
from games.rules.base import Message, Rules
from games.services import bots, deadlines
from games.services import press as table_talk
from notifications.inbound import hints, press
from notifications.inbound.parsing import ParsedMail
from notifications.models import InboundMail, OutboundMail
from notifications.outbound import outbox
from notifications.services import preferences
from notifications.services.mailwords import AWAY, MAIL_WORDS, TOPICS, key
from notifications.services.prose import split_prose, split_trailing_prose

MAX_COMMAND_LINES = 30  # a mail with more is refused whole: nobody plays 30 moves at once
# characters of a failing line quoted back: a 100,000-character line is not mailed back whole,
# and "  > " with 60 characters fits the mail's 76 columns unbroken
QUOTED_LINE = 60
# (at most 6 digits: "vacation" and 400 nines overflowed timedelta past every refusal)
_VACATION = re.compile(
    r"^\S+\s+(\d{1,6}(?:[.,]\d{1,3})?)(?:\s+(?:days?|tage?n?|jours?|d))?\s*$", re.IGNORECASE
)
# mails that put a new decision to a seat (a rollback puts the game back: older prompts are moot)
PROMPTS = ("invitation", "decision", "rolled_back")
# mails about one decision: a reply to one of them is checked against the newest prompt
ABOUT_A_DECISION = (*PROMPTS, "reminder")


def apply(mail: InboundMail, parsed: ParsedMail, game: Game, seat: Seat) -> tuple[str, str]:
    def refuse(reason: Message, line: str = "") -> tuple[str, str]:
        # the English for the log and the mail's fallback; the mail says ``refusal`` in the
        # reader's language when it is sent (emails.error)
        message = reason.render()
        context: dict[str, Any] = {
            "failing_line": quote(line, QUOTED_LINE),
            "message": message,
            "refusal": reason.to_data(),
        }
        if said:  # nothing of the mail was said either
            context["press_held"] = len(said)
        outbox.answer(mail, "error", seat.player.email, context, **where)
        return InboundMail.Status.REFUSED, message

    where: dict[str, Any] = {"game": game, "seat": seat.position, "in_reply_to": parsed.message_id}
    rules = services.rules_of(game)  # the mail's lines are read in its game's notation
    command_lines, said = press.split(
        parsed.reply, lambda line: _command_word(line, rules), _addressee_words(rules)
    )
    if not said:
        command_lines = list(parsed.lines)
    names = _board_names(rules, services.head_state(game)) if command_lines else []
    lines, ignored = split_trailing_prose(command_lines, MAIL_WORDS, names, rules)
    if said and not split_prose(lines, MAIL_WORDS, names, rules)[0]:
        lines, ignored = [], command_lines  # talk and a sign-off: the sign-off is prose
    # a line that starts like talk but is not ("Say hi to Bao", "Sag mal: …") is prose only
    # after the last command; anywhere else (or alone) the answer says how to talk
    unshaped = [line for line in lines if press.talk_like(line)]
    incomplete = [message.line for message in said if not message.complete]
    if unshaped or incomplete:
        return refuse(
            Message("Write say, whom it is for, a colon and your message, e.g.: say all: hello"),
            (incomplete + unshaped)[0],
        )
    if not lines and not said:
        return refuse(
            Message("I found no command in your mail. Write one command per line, above the quoted text.")
        )
    if len(lines) > MAX_COMMAND_LINES:
        return refuse(
            Message(
                "Your mail has {count} command lines; I take at most {most} at once, so none was applied.",
                count=len(lines),
                most=MAX_COMMAND_LINES,
            )
        )
    topics = [TOPICS[_word(line, rules)] for line in lines if _word(line, rules) in TOPICS]
    away = [line for line in lines if _word(line, rules) in AWAY]
    wishes = [line for line in lines if preferences.is_setting(line)]
    moves = [
        line
        for line in lines
        if _word(line, rules) not in TOPICS
        and _word(line, rules) not in AWAY
        and not preferences.is_setting(line)
    ]
    settings: list[preferences.Setting] = []
    for line in wishes:
        try:
            settings.append(preferences.parse(line))
        except preferences.BadSetting:
            return refuse(  # preferences.USAGE, in the reader's language
                Message(
                    "Write one of: mail decisions, mail all, mail digest, picture on, picture off "
                    "(add 'here' to set it for this game only)."
                ),
                line,
            )
    back = [line for line in away if AWAY[_word(line, rules)] == "back"]
    away = [line for line in away if line not in back]
    if moves and not back and game.seats.filter(position=seat.position, bot_since__isnull=False).exists():
        return refuse(
            Message(
                "The bot plays your seat now. To play yourself again, write back on the first "
                "line of your reply, then your moves."
            ),
            moves[0],
        )
    if moves:
        stale = _outdated(game, seat.position, parsed)
        if stale is not None:
            return refuse(stale)
    cleared: list[dict[str, Any]] = []  # games whose own setting a setting for all cleared
    try:
        with transaction.atomic():  # the whole mail or nothing
            # under the game's lock, so that the mails written after this head are this mail's
            head = Game.objects.select_for_update().values_list("head_seq", flat=True).get(pk=game.pk)
            for setting in settings:  # first: "mail all" beside a move already holds for its mails
                cleared += preferences.apply_by_mail(seat.player, game, setting)
            # talk before the moves: it is said at the head the sender saw (and a last move's
            # "well played" is not refused because that move ended the game)
            spoken = [_say(game, seat.position, message, parsed.message_id) for message in said]
            for line in back:  # first: the moves of a mail that takes the seat back are its player's
                _away(game, seat.position, line, parsed.message_id, rules)
            if moves:
                services.submit(
                    game,
                    seat.position,
                    "\n".join(moves),
                    source=Event.Source.MAIL,
                    inbound_message_id=parsed.message_id,
                )
            for line in away:
                _away(game, seat.position, line, parsed.message_id, rules)
    except services.IllegalMove as error:  # the reason alone: the mail shows the menu itself
        # "Did you mean" in the reader's language, setting words explained (``hints``)
        return refuse(hints.for_reader(error.text, error.line, rules, seat.player.language), error.line)
    except services.GameError as error:
        return refuse(error.text, (back + away)[0] if (back or away) and not moves else "")
    for topic in dict.fromkeys(topics):
        outbox.answer(mail, topic, seat.player.email, {"topic": topic, "ignored": ignored}, **where)
    if settings:  # the answer confirms the setting as it now stands
        context = {"topic": "preferences", "ignored": ignored, "cleared": cleared}
        outbox.answer(mail, "preferences", seat.player.email, context, **where)
    note = f"; ignored after the commands: {' | '.join(ignored)}" if ignored else ""
    if spoken:  # the confirmation tells the ignored lines too: no status answer for them
        _tell_said(mail, seat, head, spoken, ignored, where)
        note += "; said: " + " | ".join(_said_note(p) for p in spoken)
    elif ignored and not topics and not settings:
        _tell_ignored(mail, seat, head, ignored, where)
    if moves or back or away or settings or spoken:
        return InboundMail.Status.APPLIED, f"applied: {' | '.join(back + moves + away + wishes)}{note}"
    return InboundMail.Status.ANSWERED, f"answered: {', '.join(topics)}{note}"


def _tell_ignored(
    mail: InboundMail, seat: Seat, head: int, ignored: list[str], where: dict[str, Any]
) -> None:
    """The trailing prose a mail's commands were applied without is said in the mail they
    cause the sender (still unsent: written in this transaction), else in a status answer."""
    caused = list(OutboundMail.objects.filter(game=seat.game, seat=seat.position, seq__gt=head))
    for row in caused:
        row.context = {**row.context, "ignored": ignored}
        row.save(update_fields=["context"])
    if not caused:
        # the answer's subject says the mail was carried out, not that the player asked for the board
        context = {"topic": "status", "ignored": ignored, "carried_out": True}
        outbox.answer(mail, "status", seat.player.email, context, **where)


def _say(game: Game, seat: int, message: press.Said, message_id: str) -> Press:
    """Store one message of table talk and write its mails; a refusal names its line."""
    try:
        spoken = table_talk.say(game, seat, message.whom, message.text, inbound_message_id=message_id)
    except services.GameError as error:
        raise services.IllegalMove(error.text, line=message.line, text=error.text) from None
    press.relay(game, spoken)
    return spoken


def _tell_said(
    mail: InboundMail, seat: Seat, head: int, spoken: list[Press], ignored: list[str], where: dict[str, Any]
) -> None:
    """The sender's confirmation (and the prose lines ignored, if any): in the mails this mail
    caused them (still unsent) or its answers, else in a short answer of its own."""
    said = {"said": [p.pk for p in spoken], **({"ignored": ignored} if ignored else {})}
    rows = list(
        OutboundMail.objects.filter(game=seat.game, seat=seat.position, seq__gt=head).exclude(kind="press")
    ) + list(OutboundMail.objects.filter(key__startswith=f"in{mail.pk}:"))
    for row in rows:
        row.context = {**row.context, **said}
        row.save(update_fields=["context"])
    if not rows:
        outbox.answer(mail, "press_sent", seat.player.email, said, **where)


def _said_note(spoken: Press) -> str:
    return (
        f"{'all' if spoken.to_all else ' '.join(str(s) for s in spoken.to_seats)} ({len(spoken.text)} chars)"
    )


def _addressee_words(rules: Rules) -> Callable[[str], bool]:
    """Whether a word may name whom table talk is for: ``all`` in any language, or a seat's
    colour in any of the game's languages (a colour not in this game too: ``say purple: …``
    is talk, refused with the seats there are)."""
    folded = set(table_talk.ALL_WORDS)
    for colour in rules.seat_colours:
        folded |= table_talk.spellings(rules, colour)

    def addressee(word: str) -> bool:
        return rules.notation.words.key(word) in folded

    return addressee


def _command_word(line: str, rules: Rules) -> bool:
    """Whether a line starts with a command word (it ends a message of table talk above it)."""
    word = _word(line, rules)
    if not word:
        return False
    return (
        rules.notation.words.keyword(word) is not None
        or key(word) in MAIL_WORDS
        or preferences.is_setting(line)
    )


def quote(line: str, most: int = QUOTED_LINE) -> str:
    """Typed text as a refusal quotes it: at most ``most`` characters and an ellipsis."""
    return line if len(line) <= most + 1 else line[:most] + "…"


def _board_names(rules: Rules, state: Any) -> list[str]:
    """The names on the game's board a command may give (White Lotus: its provinces): the
    areas of the spectator's view, so trailing prose is told from a mistyped command."""
    return [str(area["name"]) for area in rules.view(state, None).get("areas", ()) if "name" in area]


def _word(line: str, rules: Rules) -> str:
    # as the game's notation reads it: "help" with a zero-width space is help
    words = rules.notation.clean(line).split()
    return words[0].lower() if words else ""


def _away(game: Game, seat: int, line: str, message_id: str, rules: Rules) -> None:
    """``vacation 5 days`` (``urlaub 5 tage``, ``vacances 5 jours``) or ``back`` (from a
    vacation, or from the bot that plays the seat: ``games.services.bots``)."""
    if AWAY[_word(line, rules)] == "back":
        if game.seats.filter(position=seat, bot_since__isnull=False).exists():
            bots.take_back(game, seat, inbound_message_id=message_id)
            return
        deadlines.end_vacation(game, seat, inbound_message_id=message_id)
        return
    match = _VACATION.match(rules.notation.clean(line).strip())
    if match is None:
        raise services.IllegalMove(
            Message("Write the days you will be away, e.g.: vacation 5 days"), line=line
        )
    days = float(match.group(1).replace(",", "."))
    deadlines.start_vacation(game, seat, days, inbound_message_id=message_id)


def _outdated(game: Game, seat: int, parsed: ParsedMail) -> Message | None:
    """Why a reply answers a decision that is no longer current (None if it does not): the
    mail it answers (its In-Reply-To) asked for a decision, and the seat has been put a
    newer one since.  A reply to anything else (a sealed confirmation, a notice, an error
    answer) is taken as meant for the decision at hand."""
    answered = OutboundMail.objects.filter(
        game=game, seat=seat, message_id=parsed.in_reply_to, kind__in=ABOUT_A_DECISION
    ).first()
    if answered is None:
        return None
    newer = OutboundMail.objects.filter(game=game, seat=seat, kind__in=PROMPTS, seq__gt=answered.seq).exists()
    # while the bot played the seat, its decisions were put to the bot (no mail was written):
    # a hand-over after the answered mail makes it as old as a newer prompt would
    newer = newer or game.events.filter(kind=Event.Kind.BOT_SEATED, seat=seat, seq__gt=answered.seq).exists()
    if not newer:
        return None
    state = services.head_state(game)
    waiting = any(d.seat == seat for d in services.rules_of(game).pending(state))
    now = (
        Message("It is your move now: see the menu below.")
        if waiting
        else Message("It is not your move now.")
    )
    return Message(
        "Your mail answers an earlier decision (event #{seq}); the game has moved on since. {now}",
        seq=answered.seq,
        now=now,
    )
