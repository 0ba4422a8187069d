"""Reading a record one line at a time (entering a game by hand, issue 17), and whole
(:func:`games.rules.records.parse_record` feeds every line of its body here).

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
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from games.rules import chance
from games.rules.base import GameRules, IllegalCommand, LogEntry
from games.rules.chance import Chance, ChanceError
from games.rules.records import Note, Record, read_header

Parse = Callable[[GameRules, Any, str, int], Any]
_TRAILING = re.compile(r"\s+#")


@dataclass(frozen=True)
class Answer:
    """What a line came to: ``ok`` (taken) or not (nothing changed), the sentences saying
    what happened or why not, and what was legal there (when refused or still waiting)."""

    ok: bool
    text: str
    legal: tuple[str, ...] = ()
    waiting: bool = False  # taken, but the step needs more outcomes of chance


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
        self.rules: GameRules = record.game_rules
        self.parse = parse
        self.config = record.config()
        self.moves: list[tuple[int, Any]] = []
        self.typed: list[str] = []
        self.chance: list[tuple[Chance, ...]] = []
        self.notes: list[Note] = []
        self.pending_notes: list[str] = []
        self.lines: list[tuple[int, str]] = []  # the body as taken (for saving a half-entered game)
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
        said = chance.chance_text(who, rest, self._kinds())
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
            answer = self._move(number, text, colour, rest.partition("#")[0] if found else rest)
            where = 0
        if answer.ok:
            before, self.pending_notes = tuple(self.pending_notes), []
            if before or comment:
                step = -1 if self.step.seat is None else len(self.moves)
                self.notes.append(Note(step, where, before, comment))
            self.lines.append((number, line))
        return answer

    def _kinds(self) -> dict[str, str]:
        from games.rules.text import index

        return index("chance", self.rules.CHANCE_WORDS, ("en", "de", "fr"))

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
            return Answer(False, f"line {number} ({line}): {error.message}", tuple(error.legal))
        step = _Step(number, line, seat, command, state, typed=text.strip())
        try:
            self.rules.apply(state, seat, command)
        except ChanceError as error:
            if not error.needed:
                raise
        except IllegalCommand as error:
            legal = error.legal or tuple(self.rules.describe(state, seat))
            return Answer(False, f"line {number} ({line}): {error.message}", tuple(legal))
        self._close()
        self.step = step
        self._play(step)
        return self._taken(step)

    def _outcome(self, number: int, line: str, said: str) -> Answer:
        step = self.step
        state = step.before if step.seat is not None else self._any_state()
        try:
            outcome = self.rules.parse_chance(state, said)
        except IllegalCommand as error:
            return Answer(
                False, f"line {number} ({line}): {error.message}", tuple(self.rules.CHANCE.values())
            )
        trial = replace(step, outcomes=[*step.outcomes, outcome], after=None, need=None, log=[])
        problem = self._play(trial)
        if problem is not None:
            return Answer(False, f"line {number} ({line}): {problem.message}", tuple(problem.legal))
        self.step = trial
        return self._taken(trial, outcome=True)

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

    def _taken(self, step: _Step, outcome: bool = False) -> Answer:
        if step.after is None:
            assert step.need is not None
            said = "Taken" if outcome else "Played"
            return Answer(True, f"{said}; {self.waiting()}", tuple(step.need.legal), waiting=True)
        if outcome:
            return Answer(True, "Taken.")
        words = [self.rules.narrate(step.after, e) for e in step.log if e.private_to is None]
        return Answer(True, " ".join(w for w in words if w) or "Played.")

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
