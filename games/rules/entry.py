"""Reading a record one line at a time (entering a game by hand), and whole
(:func:`parse_record` feeds every line of its body to the same :class:`Reader`).

After the header, each line is answered at once (:class:`Answer`): what the engine made of it
(the moves it played, in words), or why it is not possible and what was legal there.  A line
is one of

* ``colour: command``   a move, in the game's notation (any of its languages);
* ``chance: outcome``   an outcome of chance the game drew after the move before it (or at
                        the setup, before the first move); ``<kind>: …`` is the same
                        (``fill: Yanan palace``); :mod:`games.rules.chance`;
* ``# …``               a comment on its own line: it belongs to the next line; one after a
                        line (``red: pass  # why``) belongs to that line; blank lines are kept
                        with the comments (a record exports as it was written).

A step (the setup, or a move) stays open while outcomes of chance follow it: each new outcome
plays the step again with all of them, so an outcome is checked where the game draws it, and a
step that still needs one refuses the next move until it has it.  Pure: no Django.

Long on purpose: reading a record line by line and whole are one reader (the whole record
feeds every line of its body to the same Reader), with the draft a moderator enters by hand.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from games.rules import chance
from games.rules.base import IllegalCommand, LogEntry, Message, Rules, Word
from games.rules.chance import Chance, ChanceError
from games.rules.records import Note, Record, players_of, read_header
from games.rules.recordtext import body_lines

Parse = Callable[[Rules, Any, str, int], Any]
_TRAILING = re.compile(r"\s+#")


@dataclass(frozen=True)
class Answer:
    """What a line came to: ``ok`` (taken) or not (nothing changed), the sentences saying
    what happened or why not, and what was legal there (when refused or still waiting)."""

    ok: bool
    text: str
    legal: tuple[str, ...] = ()
    waiting: bool = False  # taken, but the step needs more outcomes of chance
    # what the engine said of a move taken, in no language yet (``text`` is it in English): a
    # page says it in its reader's language
    said: tuple[Message, ...] = ()


# what comes next, as the entry page says it in its reader's language (``next_up_message``)
HEADER_OPEN = "The header is not complete yet (a blank line ends it)."
WAITING = "Waiting for chance: {need}"
OVER = "The game is over: {result}."
NEXT = "Next: {owed}."

# a refused line as a page says it in its reader's language (``Answer.said``)
REFUSED = "line {number} ({line}): {reason}"


def _refused(number: int, line: str, error: IllegalCommand, legal: tuple[str, ...]) -> Answer:
    """A line the engine refused: why, in English (``text``) and as a message (``said``)."""
    said = Message(REFUSED, number=str(number), line=line, reason=error.text)
    return Answer(False, f"line {number} ({line}): {error.message}", legal, said=(said,))


@dataclass
class _Step:
    """The setup (``seat`` None) or a move, and the outcomes of chance written after it."""

    number: int  # its line (0: the header's end, for the setup)
    line: str
    seat: int | None
    command: Any
    before: Any  # the state it is played from (the config, for the setup)
    outcomes: list[Chance] = field(default_factory=list)
    after: Any = None  # the state it leads to; None while it needs more outcomes
    need: ChanceError | None = None
    log: list[LogEntry] = field(default_factory=list)
    typed: str = ""  # the command as the line wrote it


class Reader:
    """A record being read: its header, then :meth:`feed` line by line, then :meth:`finish`."""

    def __init__(self, record: Record, parse: Parse | None = None) -> None:
        self.record = record
        self.rules: Rules = record.game_rules
        self.parse = parse
        self.config = record.config()
        self.moves: list[tuple[int, Any]] = []
        self.typed: list[str] = []
        self.chance: list[tuple[Chance, ...]] = []
        self.notes: list[Note] = []
        self.pending_notes: list[str] = []
        self.lines: list[tuple[int, str]] = []  # the body as taken (for saving a half-entered game)
        self.kinds = chance.kinds_index(self.rules.chance.WORDS, tuple(self.rules.chance.WORDS))
        self.step = _Step(0, "", None, None, self.config)
        self._play(self.step)

    @classmethod
    def from_header(
        cls,
        header: dict[str, str],
        boards: Callable[[str, str], Any],
        parse: Parse | None = None,
        header_notes: Sequence[str] = (),
    ) -> Reader:
        record = read_header(header, boards)
        return cls(replace(record, header_notes=tuple(header_notes)), parse)

    # -- what there is so far --------------------------------------------------------------

    @property
    def state(self) -> Any:
        """The state after the last line taken (before an open step that needs outcomes)."""
        return self.step.after if self.step.after is not None else self.step.before

    @property
    def started(self) -> bool:
        return not (self.step.seat is None and self.step.after is None)

    def waiting(self) -> str:
        """What the open step still needs, or ""."""
        return self.step.need.message if self.step.need is not None and self.step.after is None else ""

    # -- lines -----------------------------------------------------------------------------

    def feed(self, raw: str, number: int | None = None) -> Answer:
        """Take one line of the body (``number``: its line in the record, for the answers)."""
        number = number if number is not None else len(self.lines) + 1
        line = raw.strip()
        if not line or line.startswith("#"):
            self.pending_notes.append(line)
            self.lines.append((number, line))
            return Answer(True, "A comment." if line else "")
        found = _TRAILING.search(line)
        text, comment = (line[: found.start()], line[found.end() - 1 :]) if found else (line, "")
        who, sep, rest = text.partition(":")
        if not sep:
            return Answer(False, f"line {number}: expected 'colour: command' or 'chance: outcome'.")
        said = chance.chance_text(who, rest, self.kinds)
        colour = who.strip().lower()
        if said is None and colour not in self.record.colours:
            return Answer(
                False,
                f"line {number}: '{who.strip()}' is not a colour of this game "
                f"({', '.join(self.record.colours)}) nor 'chance'.",
            )
        if said is not None:
            answer = self._outcome(number, text, said)
            where = len(self.step.outcomes)
        else:
            answer = self._move(number, text, colour, rest)
            where = 0
        if answer.ok:
            before, self.pending_notes = tuple(self.pending_notes), []
            if before or comment:
                step = -1 if self.step.seat is None else len(self.moves)
                self.notes.append(Note(step, where, before, comment))
            self.lines.append((number, line))
        return answer

    def _move(self, number: int, line: str, colour: str, text: str) -> Answer:
        if self.step.after is None:
            return Answer(
                False,
                f"line {number} ({line}): {self._where()} still needs chance first: {self.waiting()}",
                tuple(self.step.need.legal) if self.step.need else (),
            )
        seat = self.record.colours.index(colour)
        state = self.state
        try:
            command = (
                self.parse(self.rules, state, text, seat)
                if self.parse
                else self.rules.parse_command(state, text)
            )
        except IllegalCommand as error:
            return _refused(number, line, error, tuple(error.legal))
        step = _Step(number, line, seat, command, state, typed=text.strip())
        try:
            self.rules.apply(state, seat, command)
        except ChanceError as error:
            if not error.needed:
                raise
        except IllegalCommand as error:
            legal = error.legal or tuple(self.rules.notation.describe(state, seat))
            return _refused(number, line, error, tuple(legal))
        self._close()
        self.step = step
        self._play(step)
        return self._taken(step)

    def _outcome(self, number: int, line: str, said: str) -> Answer:
        step = self.step
        state = step.before if step.seat is not None else self._any_state()
        try:
            outcome = self.rules.chance.parse(state, said)
        except IllegalCommand as error:
            return _refused(number, line, error, tuple(self.rules.chance.SYNTAX.values()))
        trial = replace(step, outcomes=[*step.outcomes, outcome], after=None, need=None, log=[])
        problem = self._play(trial)
        if problem is not None:
            return _refused(number, line, problem, tuple(problem.legal))
        self.step = trial
        return self._taken(trial, outcome=self.rules.chance.format(state, outcome))

    def _any_state(self) -> Any:
        """A state to read an outcome of the setup with (its board and seats)."""
        return self.rules.setup(self.config, "outcomes")

    def _play(self, step: _Step) -> ChanceError | None:
        """Play ``step`` with its outcomes: fills ``after`` (or ``need``); returns the refusal
        of its last outcome, if that one is wrong."""
        try:
            if step.seat is None:
                step.after = self.rules.setup(self.config, self.record.draw_seed, step.outcomes)
            else:
                step.after, step.log = self.rules.apply(step.before, step.seat, step.command, step.outcomes)
            step.need = None
        except ChanceError as error:
            if not error.needed:
                return error
            step.need, step.after = error, None
        return None

    def _taken(self, step: _Step, outcome: str = "") -> Answer:
        """``outcome``: the outcome of chance the line gave, in words ("" for a move)."""
        if step.after is None:
            assert step.need is not None
            said = f"Taken: {outcome}" if outcome else "Played"
            return Answer(True, f"{said}; {self.waiting()}", tuple(step.need.legal), waiting=True)
        if outcome:
            return Answer(True, f"Taken: {outcome}.")
        told = tuple(self.rules.narration(step.after, e) for e in step.log if e.private_to is None)
        words = [m.render() for m in told]
        return Answer(True, " ".join(w for w in words if w) or "Played.", said=told)

    def _where(self) -> str:
        return "the setup" if self.step.seat is None else f"line {self.step.number} ({self.step.line})"

    def _close(self) -> None:
        """The open step is complete: keep it."""
        step = self.step
        if step.seat is None:
            self.chance.append(tuple(step.outcomes))
        else:
            self.moves.append((step.seat, step.command))
            self.typed.append(step.typed)
            self.chance.append(tuple(step.outcomes))

    # -- the end ---------------------------------------------------------------------------

    def finish(self) -> tuple[Record, Any]:
        """The record read and the state it replays to; refused while a step needs chance."""
        if self.step.after is None:
            need = self.step.need
            raise IllegalCommand(
                f"{self._where()}: the record ends, but the game still needs chance here: {self.waiting()}",
                tuple(need.legal) if need else (),
            )
        moves, outcomes, typed = list(self.moves), list(self.chance), list(self.typed)
        step = self.step
        if step.seat is not None:
            moves.append((step.seat, step.command))
            typed.append(step.typed)
        outcomes.append(tuple(step.outcomes))
        written = tuple(outcomes) if any(outcomes) else ()
        record = replace(
            self.record,
            moves=tuple(moves),
            chance=written,
            notes=tuple(self.notes),
            end_notes=tuple(self.pending_notes),
            typed=tuple(typed),
        )
        return record, step.after


# -- a record entered by hand, line by line (manage.py enter_game, the moderators' page) ---------

HELP = """Type the header as 'key: value' lines (edition, board, colours, options, who begins:
first_seat or the game's own word for it, and name, players, event, place, date, source), then a
blank line.  Then one line
at a time: 'colour: command' for a move, 'chance: outcome' for what chance gave after it,
'# ...' for a comment.  Words: board (the board now), legal (what may come next), undo (take
back the last line), text (the record so far), help."""


class Draft:
    """A record being entered: its header lines, then a :class:`Reader` of its body.  ``text``
    is the record so far (what is saved; :meth:`load` continues from it)."""

    def __init__(self, boards: Callable[[str, str], Any], parse: Parse | None = None) -> None:
        self.boards = boards
        self.parse = parse
        self.header: list[str] = []
        self.reader: Reader | None = None

    @classmethod
    def load(
        cls, text: str, boards: Callable[[str, str], Any], parse: Parse | None = None
    ) -> tuple[Draft, str]:
        """A draft continued from its saved text, and what became of it (the lines that no
        longer read are dropped, and named)."""
        draft = cls(boards, parse)
        said = ""
        lines = text.splitlines()
        body_from = len(lines)
        for i, line in enumerate(lines):
            if not line.strip() and any(":" in h and not h.startswith("#") for h in draft.header):
                body_from = i + 1
                break
            if line.strip():
                draft.header.append(line.strip())
        if body_from <= len(lines):
            answer = draft.end_header()
            if not answer.ok:
                return draft, answer.text
            for line in lines[body_from:]:
                answer = draft.feed(line)
                if not answer.ok:
                    said = f"Stopped at a line that does not read: {answer.text}"
                    break
        return draft, said

    @property
    def text(self) -> str:
        head = "\n".join(self.header)
        if self.reader is None:
            return head + "\n" if head else ""
        body = "\n".join(line for _, line in self.reader.lines)
        return f"{head}\n\n{body}\n" if body else f"{head}\n\n"

    def header_line(self, line: str) -> Answer:
        line = line.strip()
        if line.startswith("#"):
            self.header.append(line)
            return Answer(True, "A comment.")
        key, sep, value = line.partition(":")
        if not sep or not key.strip():
            return Answer(False, "A header line is 'key: value'; a blank line ends the header.")
        key = key.strip().lower()
        self.header = [
            h for h in self.header if h.startswith("#") or h.partition(":")[0].strip().lower() != key
        ]
        self.header.append(f"{key}: {value.strip()}")
        return Answer(True, f"{key}: {value.strip()}")

    def end_header(self) -> Answer:
        """The header is complete: the game is set up (or told why it cannot be)."""
        pairs = {}
        notes = []
        for i, h in enumerate(self.header):
            if h.startswith("#"):
                if i or not h.endswith("game record"):
                    notes.append(h)
                continue
            key, _, value = h.partition(":")
            pairs[key.strip().lower()] = value.strip()
        try:
            self.reader = Reader.from_header(pairs, self.boards, self.parse, header_notes=notes)
        except IllegalCommand as error:
            return Answer(False, error.message)
        title = f"# {self.reader.rules.title} game record"
        if not self.header or self.header[0] != title:
            self.header.insert(0, title)
        return Answer(True, f"{self.reader.rules.title}: {self.next_up()}")

    def feed(self, line: str) -> Answer:
        if self.reader is None:
            if not line.strip():
                return self.end_header()
            return self.header_line(line)
        # numbered as the line of the saved text (the header, a blank line, the body so far)
        return self.reader.feed(line, len(self.header) + 2 + len(self.reader.lines))

    def names(self) -> dict[str, str]:
        """The players' names by colour, as the header's ``players`` line gives them."""
        for h in self.header:
            key, _, value = h.partition(":")
            if key.strip().lower() == "players":
                return {colour: name or colour for colour, (name, _) in players_of(value).items()}
        return {}

    def undo(self) -> Answer:
        """Take back the last line of the body (or of the header, before the body)."""
        if self.reader is None:
            if not self.header:
                return Answer(False, "There is nothing to take back.")
            return Answer(True, f"Taken back: {self.header.pop()}")
        lines = [line for _, line in self.reader.lines]
        if not lines:
            self.reader = None
            return Answer(True, "Back in the header.")
        last = lines.pop()
        again, _ = Draft.load("\n".join(self.header) + "\n\n" + "\n".join(lines), self.boards, self.parse)
        self.reader = again.reader
        return Answer(True, f"Taken back: {last}")

    def next_up(self) -> str:
        """Who decides what now, or the chance the game waits for (in English)."""
        return self.next_up_message().render()

    def next_up_message(self) -> Message:
        """:meth:`next_up` as a message, for a page to say in its reader's language."""
        reader = self.reader
        if reader is None:
            return Message(HEADER_OPEN)
        if reader.waiting():
            step = reader.step
            need = step.need.text if step.need is not None else Message.literal(reader.waiting())
            return Message(WAITING, need=need)
        state = reader.state
        rules = reader.rules
        colours = reader.record.colours
        outcome = rules.outcome(state)
        if outcome is not None:
            order = sorted(range(len(outcome.scores)), key=lambda s: (outcome.rank[s], s))
            result = Message.joined(
                [
                    Message.layout(
                        "{rank}. {colour} {score}",
                        rank=outcome.rank[s],
                        colour=Word(colours[s]),
                        score=outcome.scores[s],
                    )
                    for s in order
                ]
            )
            return Message(OVER, result=result)
        owed = [
            Message.layout("{colour} ({kind})", colour=Word(colours[d.seat]), kind=d.kind)
            for d in rules.pending(state)
        ]
        return Message(NEXT, owed=Message.joined(owed))

    def legal(self) -> list[str]:
        """What may come next: the chance the game waits for, or each owing seat's menu."""
        reader = self.reader
        if reader is None:
            return []
        if reader.waiting():
            need = reader.step.need
            return list(need.legal) if need is not None else []
        state = reader.state
        colours = reader.record.colours
        return [
            f"{colours[d.seat]}: {line}"
            for d in reader.rules.pending(state)
            for line in reader.rules.notation.describe(state, d.seat)
        ]

    def board(self, translate: Callable[[str], str] = lambda t: t) -> str:
        """The board now, as the mails draw it."""
        reader = self.reader
        if reader is None:
            return "There is no board before the header is complete."
        if not reader.started:
            return f"The game is not set up yet: {reader.waiting()}"
        rules = reader.rules
        names = {c: self.names().get(c, c.capitalize()) for c in reader.record.colours}
        return "\n".join(rules.text_board(rules.view(reader.state, None), names, translate))

    def finished(self) -> tuple[Record, Any]:
        """The record entered and its state; refused while the game waits for chance."""
        if self.reader is None:
            raise IllegalCommand("The header is not complete yet (a blank line ends it).")
        return self.reader.finish()


def parse_record(
    text: str,
    boards: Callable[[str, str], Any],
    parse: Callable[[Rules, Any, str, int], Any] | None = None,
) -> tuple[Record, Any]:
    """The record and the final state it replays to; an illegal line raises
    :class:`IllegalCommand` naming the line and what was legal there.  ``boards(rules,
    name)`` loads a board; ``parse(rules, state, text, seat)`` reads a command (default: the
    game's notation)."""
    header, notes, body = body_lines(text)
    reader = Reader.from_header(header, boards, parse, header_notes=notes)
    for number, raw in body:
        answer = reader.feed(raw, number)
        if not answer.ok:
            raise IllegalCommand(answer.text, answer.legal)
    return reader.finish()
