"""Table talk (press): ``say all: …``, ``say blue: …``, ``say blue green: …``.

What a game allows is its ``press`` option (``Game.Press``): ``full`` (to all and to chosen
seats), ``public`` (only to all) or ``none`` (gunboat).  A new game's default is ``full`` when
it has White Lotus's negotiation variant (the variant is about dealing), else ``public``
(``services.default_press``).

Press is kept apart from the event log (``Press`` rows, append-only by a trigger): it is not a
move, so it is never replayed through the rules, a moderator's rollback does not undo what was
said, and it moves neither the game's head nor any deadline (a reply to a decision mail stays
current however much is said meanwhile).  Each message remembers the head event it was said at,
so the replay shows it there once the game is over.

Rules a message must follow, each refused with a sentence for the player:

* the game is running or paused (talk does not need the clock); not before it starts, not after
  it is over;
* the text is not empty and at most ``MAX_LENGTH`` characters;
* a seat says at most ``RATE`` messages in ``RATE_WINDOW`` (the others' mailboxes are not a
  chat room);
* the addressees are ``all`` or seats of the game, by their colour in any language the game's
  words know (``blau``, ``bleu``; Die Verbotene Stadt's ``nord``…), never the sender's own, and
  only seats still in play (``Seat`` rows: a seat handed to someone else is still in play; its
  new holder reads what is said to it).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.db import transaction
from django.db.models import QuerySet
from django.utils import timezone

from games import services
from games.models import Game, Player, Press, Seat
from games.rules.base import Argument, Message, Rules, Word

MAX_LENGTH = 2000  # characters of one message
RATE = 20  # messages a seat may say ...
RATE_WINDOW = timedelta(hours=24)  # ... in this time
ALL_WORDS = frozenset({"all", "alle", "allen", "tous", "toutes", "tout"})
TALKING = (Game.Status.RUNNING, Game.Status.PAUSED)


_LINE_BREAKS = re.compile("\r\n|[\r\u2028\u2029\x85]")


def lines_of(text: str) -> str:
    """The text with every kind of line break as ``\n``."""
    return _LINE_BREAKS.sub("\n", text)


def seat_word(colour: str) -> Word:
    """A seat as a message names it: its name in the reader's language, written as a name
    ("Rot", "Nord"), as every page and mail writes a seat."""
    return Word(colour, "capitalize")


def spellings(rules: Rules, colour: str) -> set[str]:
    """Every folded word that names the seat ``colour`` in the game's words: its colour
    table, or any other table of the game that has it as a canonical word (Die Verbotene
    Stadt's seats ``nord``, ``est``)."""
    vocabulary = rules.notation.words
    found = {vocabulary.key(colour)}
    for name, table in getattr(vocabulary, "TABLES", {}).items():
        if name == "keyword":
            continue
        for language in vocabulary.LANGUAGES:
            for spelled in table.get(language, {}).get(colour, ()):
                found.add(vocabulary.key(spelled))
    return found


def addressees(game: Game, sender: int, words: Sequence[str]) -> tuple[bool, list[int]]:
    """``(to_all, positions)`` the words ``all`` / ``blue green`` name; positions are every
    other seat when ``to_all``.  Refuses an unknown word or the sender's own seat."""
    rules = services.rules_of(game)
    seats = list(game.seats.order_by("position"))
    others = [s.position for s in seats if s.position != sender]
    key = rules.notation.words.key
    folded = [key(w) for w in words if key(w)]
    if not folded:
        raise services.GameError(_whom_missing(rules, seats, sender))
    if any(w in ALL_WORDS for w in folded):
        if len(folded) > 1:
            raise services.GameError(
                Message("Write either all or seats' colours after say, not both: say all: …")
            )
        return True, others
    named = {s.position: spellings(rules, s.colour) for s in seats}
    chosen: list[int] = []
    for word, typed in zip(folded, [w for w in words if key(w)], strict=True):
        position = next((p for p, spelled in named.items() if word in spelled), None)
        if position is None:
            raise services.GameError(
                Message(
                    "There is no seat {word} in this game; write all or one of: {seats}.",
                    word=typed,
                    seats=_seat_list([seats[p].colour for p in others]),
                )
            )
        if position == sender:
            raise services.GameError(Message("You cannot talk to your own seat; write all or other seats."))
        if position not in chosen:
            chosen.append(position)
    return False, sorted(chosen)


def _whom_missing(rules: Rules, seats: list[Seat], sender: int) -> Message:
    return Message(
        "Say to whom: say all: … or say followed by seats' colours ({seats}) and a colon.",
        seats=_seat_list([s.colour for s in seats if s.position != sender]),
    )


def _seat_list(colours: list[str]) -> Message:
    """ "Blue, Green": the seats' colours, each said in the reader's language."""
    return Message(
        ", ".join(f"{{s{i}}}" for i in range(len(colours))),
        **{f"s{i}": seat_word(c) for i, c in enumerate(colours)},
    )


def say(
    game: Game,
    seat: int,
    whom: Sequence[str],
    text: str,
    *,
    inbound_message_id: str = "",
) -> Press:
    """Store one message of ``seat`` to the seats ``whom`` names, after every check; raises
    ``services.GameError`` with the reason.  The caller relays it (``notifications``).  Its
    line breaks are stored as ``\n`` whatever they were (CRLF, CR, U+2028, U+2029, NEL: the
    mails quote it line by line)."""
    text = lines_of(text)
    with transaction.atomic():
        locked = Game.objects.select_for_update().get(pk=game.pk)  # one writer of a game's talk at a time
        refusal = closed(locked)
        if refusal is not None:
            raise services.GameError(refusal)
        to_all, positions = addressees(locked, seat, whom)
        if locked.press == Game.Press.PUBLIC and not to_all:
            raise services.GameError(
                Message("Only messages to all are allowed in this game: write say all: …")
            )
        if not to_all:  # nobody reads a seat the bot plays (its mails go nowhere: games.services.bots)
            by_bot = set(
                locked.seats.filter(position__in=positions, bot_since__isnull=False).values_list(
                    "position", flat=True
                )
            )
            if by_bot and by_bot == set(positions):
                colours = dict(locked.seats.values_list("position", "colour"))
                # the seats said as seats are, in the reader's language ("Grün"), not as stored
                said: Argument = Word(colours[max(by_bot)], "capitalize")
                for p in sorted(by_bot, reverse=True)[1:]:
                    said = Message("{first}, {rest}", first=Word(colours[p], "capitalize"), rest=said)
                raise services.GameError(
                    Message(
                        "{seats} is played by the bot for now; nobody would read your message.",
                        seats=said,
                    )
                )
        text = text.strip()
        if not text:
            raise services.GameError(
                Message("Your message is empty: write it after the colon, say all: hello")
            )
        if len(text) > MAX_LENGTH:
            raise services.GameError(
                Message(
                    "Your message has {count} characters; at most {most} are allowed.",
                    count=len(text),
                    most=MAX_LENGTH,
                )
            )
        since = timezone.now() - RATE_WINDOW
        if locked.press_messages.filter(seat=seat, created_at__gte=since).count() >= RATE:
            raise services.GameError(
                Message(
                    "You have said {most} messages in the last 24 hours, the most allowed; say more later.",
                    most=RATE,
                )
            )
        holder: Player = locked.seats.get(position=seat).player
        return Press.objects.create(
            game=locked,
            seat=seat,
            player=holder,
            to_all=to_all,
            to_seats=positions,
            text=text,
            seq=locked.head_seq,
            inbound_message_id=inbound_message_id,
        )


def closed(game: Game) -> Message | None:
    """Why nobody may talk in ``game`` now (None: they may)."""
    if game.press == Game.Press.NONE:
        return Message("This game is gunboat: no table talk.")
    if game.status == Game.Status.NEW:
        return Message("This game has not started yet.")
    if game.status not in TALKING:
        return Message("This game is over: no more table talk.")
    return None


def of_seat(game: Game, position: int) -> list[Press]:
    """The messages the seat at ``position`` said or was told, oldest first."""
    return [p for p in game.press_messages.order_by("created_at", "pk") if p.reaches(position)]


def all_of(game: Game) -> QuerySet[Press]:
    """Every message of the game, oldest first (moderators, and the replay after the end)."""
    return game.press_messages.order_by("created_at", "pk")


@dataclass(frozen=True)
class Shown:
    """One message as a page shows it."""

    at: datetime
    seq: int
    sender: str  # the seat's colour
    to: str  # "all", or the addressees' colours
    text: str


def shown(messages: Iterable[Press], colours: Mapping[int, str]) -> list[Shown]:
    return [
        Shown(
            at=m.created_at,
            seq=m.seq,
            sender=colours.get(m.seat, str(m.seat)),
            to="all" if m.to_all else ", ".join(colours.get(p, str(p)) for p in m.to_seats),
            text=m.text,
        )
        for m in messages
    ]
