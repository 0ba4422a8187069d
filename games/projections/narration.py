"""The narration projection: what was told of each move in effect, per game and event.

*What it holds.*  One :class:`~games.models.Narration` row per move event in effect (a
player's command or a deadline's default): the lines the engine narrated of it
(``rules.narration``) and, for a default, the line that says a default was played, each as a
language-neutral :class:`~games.rules.base.Message` (template and arguments) with who may read
it.  A reader says the lines in its own language (``Message.render(gettext)``), so a mail, a
page or the replay reads rows instead of replaying the game from its first event.

*Who writes it, and when.*  Inline: ``games.services.appending._finish`` writes the rows of the events
it appends in the same transaction (a move's rows go out with its events in one statement),
and ``games.services.rollback`` deletes the rows of the events it undoes.  Nothing else
writes them.  Inline rather than by a catch-up projector because a decision mail is planned
in that very transaction and read moments later: a projector lagging behind would make every
mail wait for it or fall back to a replay; and the writer needs the states before and after
the move, which the service has in hand at that moment and a projector would replay.

*Rebuilding.*  The rows are disposable: :func:`rebuild` deletes a game's rows and writes them
again from its log (``manage.py rebuild_narration``); a test proves the rows written move by
move equal the rebuilt ones.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from typing import Any, NamedTuple

from django.conf import settings
from django.db import connection, transaction
from django.utils.translation import gettext, gettext_noop

from games.models import Event, Game, Narration
from games.rules.base import IllegalCommand, LogEntry, Message, Rules, Spelled, Word
from games.store import heads

# What a default says (in the mails' catalogue): the move itself, or, to the other seats, only
# that a sealed choice was made for the seat (a defaulted bid is as secret as a sent one).
DEFAULT_PLAYED = gettext_noop("{colour}'s deadline passed; the default move was played: {command}")
DEFAULT_SEALED = gettext_noop("{colour}'s deadline passed; the default was played for their sealed choice")

MOVE_KINDS = (Event.Kind.COMMAND, Event.Kind.DEFAULT)


class Told(NamedTuple):
    """A move event as its writer saw it: the states before and after, what the engine said."""

    event: Event
    before: Any
    after: Any
    log: Sequence[LogEntry]


class Line(NamedTuple):
    """One line of news as a reader gets it: the message, and which entry kind told it."""

    kind: str
    message: Message


def lines_of(rules: Rules, told: Told) -> list[dict[str, Any]]:
    """The stored lines of one move event (JSON): a default's own line first, then what the
    engine said, in its order.  ``to``: the only seat that may read it (None: everyone);
    ``but``: the seat that may not."""
    event = told.event
    assert event.seat is not None  # a move's event names its seat
    out: list[dict[str, Any]] = []
    if event.kind == Event.Kind.DEFAULT:
        out += default_lines(rules, told.before, event, rules.seat_colours[event.seat])
    for entry in told.log:
        out.append(_line(entry.kind, rules.narration(told.after, entry), to=entry.private_to))
    return out


def default_lines(rules: Rules, before: Any, event: Event, colour: str) -> list[dict[str, Any]]:
    """What a default played for ``event.seat`` (whose colour is ``colour``) tells: the move
    itself, unless it was a sealed choice (in ``before``, the state it was played in): the
    others are then told only that the deadline passed (a defaulted bid or dial is as secret
    as a sent one; the reveal, when it comes, tells it)."""
    assert event.seat is not None
    word = Word(colour, "capitalize")  # a seat is a name: "red" said as a name, "Rot", "Rouge"
    played = Message(DEFAULT_PLAYED, colour=word, command=_in_every_notation(rules, before, event))
    sealed = before is not None and any(d.seat == event.seat and d.sealed for d in rules.pending(before))
    if not sealed:
        return [_line("default", played)]
    return [
        _line("default", played, to=event.seat),
        _line("default", Message(DEFAULT_SEALED, colour=word), but=event.seat),
    ]


def _in_every_notation(rules: Rules, before: Any, event: Event) -> Spelled | str:
    """The default's command in the notation of each language the site speaks (a German
    reader is told ``ablehnen``, as they would write it), or as stored where the state it was
    played in is not at hand."""
    if before is None:
        return event.command_text
    try:
        command = rules.serial.command_from_dict(event.payload["command"])
        return Spelled(
            tuple((code, rules.format_command_in(before, command, code)) for code, _ in settings.LANGUAGES)
        )
    except (KeyError, TypeError, ValueError, IllegalCommand):  # an old event's command: as written
        return event.command_text


def messages(stored: Iterable[dict[str, Any]], seat: int | None) -> list[Message]:
    """The messages of stored lines that ``seat`` may read."""
    out = []
    for line in stored:
        message = Message.from_data(line["m"]) if visible(line, seat) else None
        if message is not None:
            out.append(message)
    return out


def _line(kind: str, message: Message, *, to: int | None = None, but: int | None = None) -> dict[str, Any]:
    return {"k": kind, "m": message.to_data(), "to": to, "but": but}


def rows_of(game: Game, rules: Rules, told: Iterable[Told]) -> list[Narration]:
    """The rows of these move events (not saved)."""
    return [
        Narration(game=game, seq=t.event.seq, seat=t.event.seat, lines=lines_of(rules, t))
        for t in told
        if t.event.kind in MOVE_KINDS and t.event.seat is not None
    ]


def withdraw(game: Game, to_seq: int) -> None:
    """A rollback to ``to_seq``: the events after it are no longer in effect, nor their lines."""
    Narration.objects.filter(game=game, seq__gt=to_seq).delete()


def rebuild(game: Game) -> int:
    """Write the game's rows again from its log (replayed once), under the game's row lock
    so that no move is appended meanwhile; returns how many rows it holds."""

    with transaction.atomic():
        game = Game.objects.select_for_update().get(pk=game.pk)
        rules = heads.rules_of(game)
        told: list[Told] = []
        before: Any = None
        for event, state, log in heads.walk_all(game):
            if event.kind in MOVE_KINDS and event.seat is not None:
                told.append(Told(event, before, state, log))
            before = state
        rows = rows_of(game, rules, told)
        Narration.objects.filter(game=game).delete()
        Narration.objects.bulk_create(rows)
    return len(rows)


def visible(line: dict[str, Any], seat: int | None) -> bool:
    """May ``seat`` (None: a spectator) read the stored line?"""
    to, but = line.get("to"), line.get("but")
    return (to is None or to == seat) and (but is None or but != seat)


Stored = list[tuple[int, list[dict[str, Any]]]]


def stored(game: Game, since: int, upto: int) -> Stored | None:
    """The rows of the moves after event ``since`` up to event ``upto``, as ``(seq, lines)``;
    None when the rows do not hold every move the log has there: a rollback since undid some
    of them (a mail about ``upto`` still tells them, as the game had them then), or the game's
    rows were never written (a game older than the projection, before ``rebuild_narration``).
    The reader then replays the log instead (:func:`replayed`)."""
    # one statement (a mail reads it once; the ORM's compiling cost as much as running it): the
    # moves and rollbacks of the span, each move with its row if it has one.  A rollback at
    # ``r`` to ``to_seq`` undid the moves between them (``services.effective``).
    with connection.cursor() as cursor:
        cursor.execute(
            _SPAN, [Event.Kind.ROLLED_BACK, *MOVE_KINDS, Event.Kind.ROLLED_BACK, game.pk, since, upto]
        )
        span = cursor.fetchall()
    rows: Stored = []
    moves: list[int] = []
    undone: list[tuple[int, int]] = []
    for seq, kind, seat, payload, lines in span:
        if kind == Event.Kind.ROLLED_BACK:
            undone.append((seq, int(_json(payload)["to_seq"])))
            continue
        if seat is not None:
            moves.append(seq)
        if lines is not None:
            rows.append((seq, _json(lines)))
    in_effect = [m for m in moves if not any(to_seq < m < r for r, to_seq in undone)]
    return rows if [seq for seq, _ in rows] == in_effect else None


_SPAN = (
    "SELECT e.seq, e.kind, e.seat, CASE WHEN e.kind = %s THEN e.payload END, n.lines "
    "FROM games_event e LEFT JOIN games_narration n ON n.game_id = e.game_id AND n.seq = e.seq "
    "WHERE e.kind IN (%s, %s, %s) AND e.game_id = %s AND e.seq > %s AND e.seq <= %s ORDER BY e.seq"
)


def _json(value: Any) -> Any:
    """A JSON column as the cursor gives it: decoded already (Postgres) or text (SQLite)."""
    return json.loads(value) if isinstance(value, str | bytes) else value


def replayed(game: Game, since: int, upto: int) -> Stored:
    """What :func:`stored` would hold, from replaying the log up to ``upto`` as it was then."""

    rules = heads.rules_of(game)
    out: Stored = []
    before: Any = None
    for event, state, log in heads.walk_all(game, upto):
        if event.kind in MOVE_KINDS and event.seat is not None and event.seq > since:
            out.append((event.seq, lines_of(rules, Told(event, before, state, log))))
        before = state
    return out


def told(game: Game, since: int, upto: int) -> Stored:
    """The lines of the moves after ``since`` up to ``upto``: read, or replayed where the rows
    do not hold them all."""
    if since >= upto:
        return []
    found = stored(game, since, upto)
    return found if found is not None else replayed(game, since, upto)


class Chapter(str):
    """A line of news that opens a chapter of the game (a year, a turn: the game's
    ``CHAPTERS``): a mail sets it as a heading between the items, not as one of them."""

    heading = True


def news(game: Game, seat: int | None, since: int, upto: int) -> list[str]:
    """The lines ``seat`` may read of the moves after ``since`` up to ``upto``, said in the
    active language; a line that opens a chapter is a :class:`Chapter`."""
    chapters = heads.rules_of(game).about.CHAPTERS
    out: list[str] = []
    for _, lines in told(game, since, upto):
        for line in lines:
            for message in messages([line], seat):
                said = message.render(gettext)
                out.append(Chapter(said) if line.get("k") in chapters else said)
    return out
