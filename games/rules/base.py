"""The contract every game gives the service (after Rally the Troops and boardgame.io).

A game is a package of pure functions over immutable values (no Django, no clock, no I/O, no
``random``).  It must give the fourteen names of :data:`REQUIRED`, what a game *is*::

    title, player_counts, seat_colours          what it is called, by how many, the seats' names
    setup(config, seed) -> State
    pending(state) -> tuple[Decision, ...]      who must decide what now (several: sealed)
    legal(state, seat) -> tuple[Command, ...]   the menu of that seat
    apply(state, seat, command) -> (State, [LogEntry])   or raises IllegalCommand
    view(state, seat | None) -> View            what that seat (or a spectator) may see
    default(state, seat) -> Command             what a missed deadline plays
    outcome(state) -> Outcome | None            scores and ranking once finished
    parse_command(state, text) / format_command_in(state, command, language)   its notation
    narration(state, entry) -> Message          a log entry as a sentence, in any language
    text_board(view, names, translate) -> lines  the board in a mail's text

Everything else the service asks of a game stands in one of five parts, each a small object on
:class:`Rules` (what ``registry.get(name)`` returns), each a :class:`typing.Protocol` mypy reads
and a default written and documented once, below::

    rules.about         VERSION, editions, default_board, default_first_seat, OPTIONS,
                        time_controls, short_windows, REVEALS, CHAPTERS, PAGE_WORDS, MESSAGES,
                        FIRST_SEAT_KEY, FULL_PRESS_OPTIONS, OPTION_FLAGS, Bot(key)
    rules.serial        load_board, make_config, config_to_data, config_from_data,
                        state_to_dict, state_from_dict, command_to_dict, command_from_dict, replay,
                        fold, draft
    rules.chance        SYNTAX, WORDS, SEEDED_FIELDS, parse, format, format_in, drawn
    rules.notation      clean, format_command, describe, SYNTAX, syntax, words, public
    rules.presentation  narrate, decision_text, sealed_text, phase_text, MAIL_WORDS, PICTURE,
                        mail_facts, score_parts, operator_text

A package changes a part by a class of the part's name that subclasses its default and says
only what differs (``class About(base.About): VERSION = "mygame-2"``); :class:`Rules` builds
each part with itself, so a default that needs the core reads it there (``self.rules``).  So
the service calls ``rules.x(...)`` or ``rules.part.x(...)`` for every name of the contract, and
mypy checks the calls, and the packages' parts against the defaults they change.

A game that draws by chance gives a ``Chance`` part and takes the outcomes a record of a game played
elsewhere gives as a third argument (``setup(config, seed, chance)``,
``apply(state, seat, command, chance)``): :mod:`games.rules.chance` checks them against the
seed's draws, or takes them as given when the game has no seed.  Its state then keeps
``seed`` (the seed's text), ``given`` (outcomes handed to the step, not yet used) and
``drawn`` (outcomes drawn since setup), which :mod:`games.rules.chance`'s helpers read and
write; ``chance.drawn(state)`` is how the service reads the last.  A game with a picture of its own
keeps its board as ``state.board`` (the picture draws on it).  A game without either keeps
whatever its state needs.

The view is a :class:`View`: ``players``, ``pending``, ``phase``, a seat's ``you`` and
``sealed``, and ``seed`` once over; a game adds what its own partials read.

Long on purpose: the whole contract (the core, the five parts' protocols and their defaults)
stands in this one file, which a game's author reads from top to bottom.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property
from types import MappingProxyType
from typing import Any, NamedTuple, Protocol, TypeVar

from . import generic, text
from .generic import Config, NoBoard, RandomBot
from .messages import AND, LANGUAGE_CODE, Argument, Message, Spelled, Translate, Word, as_is, particular
from .viewschema import DecisionView, SeatView, View, view_problems

__all__ = [
    "AND",
    "LANGUAGE_CODE",
    "PARTS",
    "REQUIRED",
    "About",
    "AboutPart",
    "Argument",
    "Asked",
    "Chance",
    "ChancePart",
    "Config",
    "Decision",
    "DecisionView",
    "Draft",
    "DraftPart",
    "IllegalCommand",
    "LogEntry",
    "Message",
    "NoBoard",
    "Notation",
    "NotationPart",
    "Outcome",
    "Part",
    "Presentation",
    "PresentationPart",
    "Rules",
    "RulesModule",
    "Say",
    "SeatView",
    "Serial",
    "SerialPart",
    "Spelled",
    "Translate",
    "View",
    "Word",
    "as_is",
    "particular",
    "view_problems",
]


class IllegalCommand(Exception):
    """A command that is not allowed now.

    ``str(error)`` is written for the player and can be mailed back as it is: it says what
    was wrong and what would be legal.  ``legal`` holds the legal commands in notation.
    ``text`` is the reason as a :class:`Message`, to be said in the player's language;
    ``note`` is English added to ``str(error)`` only (the menu, which mails show in their own
    language)."""

    def __init__(self, message: str | Message, legal: Sequence[str] = (), note: str = "") -> None:
        self.text = message if isinstance(message, Message) else Message.literal(message)
        self.message = self.text.render() + note
        super().__init__(self.message)
        self.legal = tuple(legal)


class Decision(NamedTuple):
    """One seat owes one decision.

    ``sealed`` decisions are taken simultaneously and stay hidden until all are in; a seat
    may change its sealed choice until then (it is no longer *pending* once submitted).
    """

    seat: int
    kind: str
    sealed: bool = False


class LogEntry(NamedTuple):
    """Something that happened, as structured data (rendered to text per language later).

    ``private_to`` is None for public entries, or the only seat allowed to see it.
    (Decision and LogEntry are named tuples: replay builds many and they are cheap.)
    """

    kind: str
    data: Mapping[str, Any] = MappingProxyType({})
    private_to: int | None = None

    def visible_to(self, seat: int | None) -> bool:
        return self.private_to is None or self.private_to == seat


@dataclass(frozen=True, slots=True)
class Outcome:
    """Final scores (per seat, with a breakdown) and the ranking: ``rank[seat]`` is 1 for
    the winner(s); tied seats share a rank."""

    scores: tuple[int, ...]
    breakdown: tuple[Mapping[str, int], ...]
    rank: tuple[int, ...]

    @property
    def winners(self) -> tuple[int, ...]:
        return tuple(s for s, r in enumerate(self.rank) if r == 1)


@dataclass(frozen=True)
class Asked:
    """What the facts of one mail are drawn from (:meth:`Presentation.mail_facts`)."""

    rules: Rules
    state: Any
    view: Mapping[str, Any]
    seat: int
    decision: str  # the kind of decision this seat owes ("" for none)
    legal: Sequence[Any]
    language: str
    names: Mapping[str, str]  # seat colour -> player name
    outcome: Any  # the game's Outcome once it is over


class Say(Protocol):
    """How a game's ``mail_facts`` says words in the reader's language (the service's
    gettext): ``say(msgid)``, and a plural, a seat colour, a place, a list."""

    def __call__(self, text: str) -> str: ...
    def plural(self, singular: str, plural: str, n: int) -> str: ...
    def colour(self, colour: str) -> str: ...
    def place(self, rank: int) -> str: ...
    def joined(self, items: Sequence[str]) -> str: ...


# --- the contract -----------------------------------------------------------------------------

S = TypeVar("S")
C = TypeVar("C")


class RulesModule(Protocol[S, C]):
    """The core a game's package gives, as mypy checks a module against it."""

    def setup(self, config: Any, seed: str, chance: Sequence[Any] = ()) -> S: ...
    def pending(self, state: S) -> tuple[Decision, ...]: ...
    def legal(self, state: S, seat: int) -> tuple[C, ...]: ...
    def apply(
        self, state: S, seat: int, command: C, chance: Sequence[Any] = ()
    ) -> tuple[S, list[LogEntry]]: ...
    def view(self, state: S, seat: int | None) -> dict[str, Any]: ...
    def default(self, state: S, seat: int) -> C: ...
    def outcome(self, state: S) -> Outcome | None: ...
    def parse_command(self, state: S, text: str, seat: int | None = None) -> C: ...
    def format_command_in(self, state: S, command: C, language: str) -> str: ...


# What a game's package must give at its top level: what the game is.  Nothing else.
REQUIRED = (
    "title",  # its name for people ("White Lotus"); said through the reader's catalogue
    "player_counts",  # the numbers of players it can be played with
    "seat_colours",  # what seats are called, in seat order (the first n are used; ≤ 10 letters)
    "setup",  # setup(config, seed) -> State; with chance, setup(config, seed, chance)
    "pending",  # pending(state) -> tuple[Decision, ...]: who owes what now (empty: over)
    "legal",  # legal(state, seat) -> commands: menus, bots, defaults and fuzzing
    "apply",  # apply(state, seat, command) -> (State, [LogEntry]) or IllegalCommand
    "view",  # view(state, seat | None) -> a View: all a page or mail shows
    "default",  # default(state, seat) -> command: what a missed deadline plays
    "outcome",  # outcome(state) -> Outcome | None: scores and ranks once over
    "parse_command",  # parse_command(state, text) -> command, in any language; IllegalCommand
    "format_command_in",  # format_command_in(state, command, language) -> text parse reads back
    "narration",  # narration(state, entry) -> Message: a log entry as a sentence
    "text_board",  # text_board(view, names, translate) -> lines (≤ 76 columns) for mails
)

# --- the contract in parts --------------------------------------------------------------------
#
# A game's package gives the core at its top level (REQUIRED) and, for each part it changes, a
# class of that part's name subclassing the default below (``class Serial(base.Serial)``) with
# only what it changes.  :class:`Rules` builds each part from the package's class, or from the
# default, with the Rules (a default that needs the core reads it there: ``self.rules``).
# Members keep the names the contract always had, except where they repeated the part's name:
# ``chance.SYNTAX``, ``chance.WORDS``, ``chance.parse``, ``chance.format``, ``chance.format_in``
# (were CHANCE, CHANCE_WORDS, parse_chance, format_chance, format_chance_in) and
# ``notation.public`` (was public_notation).


class AboutPart(Protocol):
    """What the game is besides its core: ``rules.about``."""

    @property
    def VERSION(self) -> str: ...
    @property
    def editions(self) -> tuple[str, ...]: ...
    @property
    def default_board(self) -> str: ...
    @property
    def default_first_seat(self) -> int | None: ...
    @property
    def OPTIONS(self) -> Mapping[str, Any]: ...
    @property
    def time_controls(self) -> Mapping[str, Any]: ...
    @property
    def short_windows(self) -> Mapping[str, float]: ...
    @property
    def REVEALS(self) -> frozenset[str]: ...
    @property
    def CHAPTERS(self) -> frozenset[str]: ...
    @property
    def PAGE_WORDS(self) -> Mapping[str, Mapping[str, str]]: ...
    @property
    def MESSAGES(self) -> tuple[str, ...]: ...
    @property
    def FIRST_SEAT_KEY(self) -> str: ...
    @property
    def FULL_PRESS_OPTIONS(self) -> tuple[str, ...]: ...
    @property
    def OPTION_FLAGS(self) -> Mapping[str, tuple[str, Any, str]]: ...
    def Bot(self, key: str) -> Any: ...


class SerialPart(Protocol):
    """Configuration, state and commands as JSON (events, snapshots), and replay:
    ``rules.serial``."""

    def load_board(self, name: str, /) -> Any: ...
    def make_config(
        self, board: Any, players: int, edition: str, options: Mapping[str, Any], first_seat: int | None
    ) -> Any: ...
    def config_to_data(self, config: Any) -> dict[str, Any]: ...
    def config_from_data(self, data: Mapping[str, Any], board: Any) -> Any: ...
    def state_to_dict(self, state: Any) -> dict[str, Any]: ...
    def state_from_dict(self, data: Mapping[str, Any], config: Any) -> Any: ...
    def command_to_dict(self, command: Any) -> dict[str, Any]: ...
    def command_from_dict(self, data: Mapping[str, Any]) -> Any: ...
    def replay(self, config: Any, seed: str, moves: Sequence[tuple[int, Any]]) -> Any: ...
    def fold(self, state: Any, moves: Iterable[tuple[int, Any, Sequence[Any]]]) -> Any: ...
    def draft(self, state: Any) -> DraftPart: ...


class DraftPart(Protocol):
    """A private working copy of a state that a fold plays moves on (``serial.draft``)."""

    def apply(self, seat: int, command: Any, chance: Sequence[Any] = (), /) -> None: ...
    def done(self) -> Any: ...


class ChancePart(Protocol):
    """Chance written down (:mod:`games.rules.chance`, COMMANDS.md): ``rules.chance``."""

    @property
    def SYNTAX(self) -> Mapping[str, str]: ...
    @property
    def WORDS(self) -> Mapping[str, Mapping[str, tuple[str, ...]]]: ...
    @property
    def SEEDED_FIELDS(self) -> tuple[str, ...]: ...
    def parse(self, state: Any, text: str, /) -> Any: ...
    def format_in(self, state: Any, chance: Any, language: str, /) -> str: ...
    def format(self, state: Any, chance: Any) -> str: ...
    def drawn(self, state: Any) -> Sequence[Any]: ...


class NotationPart(Protocol):
    """Commands as people write them, beyond the core's parse and format: ``rules.notation``."""

    @property
    def SYNTAX(self) -> Mapping[str, str]: ...
    @property
    def words(self) -> Any: ...
    def clean(self, text_: str, /) -> str: ...
    def format_command(self, state: Any, command: Any) -> str: ...
    def describe(self, state: Any, seat: int, language: str = "en") -> list[str]: ...
    def syntax(self, kind: str, language: str = "en") -> str: ...
    def public(self, command: Any) -> str | None: ...


class PresentationPart(Protocol):
    """How the service shows and mails the game (nothing outside a game's package names a
    game): ``rules.presentation``."""

    @property
    def MAIL_WORDS(self) -> Mapping[str, str]: ...
    @property
    def PICTURE(self) -> str | None: ...
    @property
    def operator_text(self) -> Callable[[Mapping[str, Any], Mapping[str, str]], list[str]] | None: ...
    def narrate(self, state: Any, entry: LogEntry, translate: Translate = as_is) -> str: ...
    def decision_text(self, view: Mapping[str, Any], kind: str, translate: Translate = as_is) -> str: ...
    def sealed_text(self, sealed: Any, translate: Translate = as_is) -> str: ...
    def phase_text(self, view: Mapping[str, Any], translate: Translate, /) -> str: ...
    def mail_facts(self, asked: Asked, say: Say) -> Mapping[str, Any]: ...
    def score_parts(self, breakdown: Mapping[str, int]) -> Message: ...


class Part:
    """A part of a game's rules: the default, or the package's subclass of it, built with the
    :class:`Rules` it belongs to (``self.rules``: the core and the other parts)."""

    def __init__(self, rules: Rules) -> None:
        self.rules = rules

    def __repr__(self) -> str:
        return f"<{type(self).__qualname__} of {self.rules.name}>"


class About(Part):
    """What the game is: the defaults for a game that says nothing more (``rules.about``)."""

    editions: tuple[str, ...] = ("standard",)  # rule sets, the first the default: one
    default_board = ""  # the board a game gets unless told otherwise: none (serial.load_board)
    # the seat that begins when nobody names one (create_game, the command line, a league's
    # seating, the demo): a seat number, or None for the game's own way by lot
    default_first_seat: int | None = 0
    OPTIONS: Mapping[str, Any] = MappingProxyType({})  # option -> default (JSON scalars): none
    # a clock for a new game: fields of games.timing.TimeControls ({"hours_per_decision": 24});
    # empty: the service's defaults
    time_controls: Mapping[str, Any] = MappingProxyType({})
    # decision kinds that get a shorter window, and its most hours ({"rebribe": 12}): none
    short_windows: Mapping[str, float] = MappingProxyType({})
    # log entries that reveal sealed choices; the seats that need not decide are told them in a
    # reveal mail: none
    REVEALS: frozenset[str] = frozenset()
    # the kinds of log entry that open a part of the game ({"year"}): the pages fold their log
    # there, the latest part open; none: the log folds every 50 steps
    CHAPTERS: frozenset[str] = frozenset()
    # codes of config and views as people read them, by kind ({"edition": {"kosmos": "Kosmos
    # (published rules)"}, "option", "value", "phase"…}): English words of MESSAGES, said in the
    # reader's language; a code not listed is shown as it is (the default: every code)
    PAGE_WORDS: Mapping[str, Mapping[str, str]] = MappingProxyType({})
    # what its config and records call the seat that begins ("first_emperor"; a record's
    # header key, the command line's flag); the default's game says it in its created event
    FIRST_SEAT_KEY = "first_seat"
    # options whose point is dealing: a new game with one of them on gets full table talk
    # (private messages too).  None: public
    FULL_PRESS_OPTIONS: tuple[str, ...] = ()
    # the command line's flags for its options (``create_game --negotiation``): flag ->
    # (option, the value it sets or a tuple of the values it takes, what it does).  None:
    # ``--option NAME=VALUE`` alone
    OPTION_FLAGS: Mapping[str, tuple[str, Any, str]] = MappingProxyType({})

    @property
    def VERSION(self) -> str:
        """Bumped when a change could replay an old game differently; a game pins it at
        creation.  Default: ``"<name>-1"``."""
        return f"{self.rules.name}-1"

    @property
    def MESSAGES(self) -> tuple[str, ...]:
        """Every string the game asks the reader's language for (``translate``): its
        narration's templates and words, what its decisions ask, its page words; a catalogue
        test holds each to a German and a French entry.  Default: the title alone (a game's
        sentences are then said in English where no catalogue has them)."""
        return (self.rules.title,)

    def Bot(self, key: str) -> Any:
        """A player program (local play, self-play, dropped seats): ``Bot(key).choose(state,
        seat)`` is a legal command of a seat that owes a decision; the same key and state give
        the same choice.  Default: a legal command drawn by the key (:class:`RandomBot`)."""
        return RandomBot(self.rules, key)


class Serial(Part):
    """Configuration and state as JSON (events, snapshots), and replay (``rules.serial``)."""

    def load_board(self, name: str, /) -> Any:
        """A board by name (has ``.name`` and ``.digest``); OSError/ValueError for none.
        Default: no board; its name is the empty one."""
        if name:
            raise ValueError(f"{self.rules.title} is played without a board, not on {name!r}")
        return NoBoard()

    def make_config(
        self, board: Any, players: int, edition: str, options: Mapping[str, Any], first_seat: int | None
    ) -> Any:
        """The engine's config for a new game (ValueError for one the game cannot have).
        Default: a :class:`Config`, the seats taking ``seat_colours`` in order."""
        rules, about = self.rules, self.rules.about
        if players not in rules.player_counts:
            counts = ", ".join(str(n) for n in rules.player_counts)
            raise ValueError(f"{rules.title} is played by {counts} players, not {players}")
        if edition not in about.editions:
            raise ValueError(f"{rules.title} has no edition {edition!r}")
        unknown = sorted(set(options) - set(about.OPTIONS))
        if unknown:
            raise ValueError(f"unknown options: {', '.join(unknown)}")
        return Config(board, rules.seat_colours[:players], edition, {**about.OPTIONS, **options}, first_seat)

    def config_to_data(self, config: Any) -> dict[str, Any]:
        """The config as the game's first event keeps it (the board is kept apart, by name).
        Default: a :class:`Config`'s fields."""
        return {
            "colours": list(config.colours),
            "edition": config.edition,
            "options": dict(config.options),
            "first_seat": config.first_seat,
        }

    def config_from_data(self, data: Mapping[str, Any], board: Any) -> Any:
        """The config ``config_to_data`` wrote, on ``board``."""
        return Config(
            board,
            tuple(data["colours"]),
            data.get("edition", self.rules.about.editions[0]),
            dict(data.get("options") or {}),
            data.get("first_seat", 0),
        )

    def state_to_dict(self, state: Any) -> dict[str, Any]:
        """The state as a snapshot keeps it.  Default: a frozen dataclass state, field by field
        (tuples, frozensets, mappings and nested dataclasses too) with its class's name."""
        return {"state": _class_path(state), **generic.to_data(state)}

    def state_from_dict(self, data: Mapping[str, Any], config: Any) -> Any:
        """The state ``state_to_dict`` wrote; a field of the config's type is ``config``."""
        fields = {k: v for k, v in data.items() if k != "state"}
        return generic.from_data(self._class(data["state"]), fields, {type(config): config})

    def command_to_dict(self, command: Any) -> dict[str, Any]:
        """A command as an event keeps it.  Default: a dataclass command, with its class's name."""
        return generic.command_data(command)

    def command_from_dict(self, data: Mapping[str, Any]) -> Any:
        return generic.command_from(data, self.rules.package)

    def replay(self, config: Any, seed: str, moves: Sequence[tuple[int, Any]]) -> Any:
        """The state after ``(seat, command)`` moves from the setup: :meth:`fold`."""
        return self.fold(self.rules.setup(config, seed), ((seat, command, ()) for seat, command in moves))

    def fold(self, state: Any, moves: Iterable[tuple[int, Any, Sequence[Any]]]) -> Any:
        """The state after ``(seat, command, chance)`` moves from ``state``, which is left as
        it is: what ``apply`` after ``apply`` ends in, the log dropped (replay of stored
        events).  Played on one :meth:`draft`, copied once at the end."""
        draft = self.draft(state)
        play = draft.apply
        for seat, command, chance in moves:
            play(seat, command, chance)
        return draft.done()

    def draft(self, state: Any) -> DraftPart:
        """A working copy of ``state`` that moves change in place (``draft.apply(seat,
        command, chance)``), and ``draft.done()`` the state it reached, a value like any other
        (the draft plays on).  Only a fold sees a draft: the core's ``apply`` never mutates.
        A draft refused a move is spent.  Default: :class:`Draft`, ``apply`` after ``apply``."""
        return Draft(self.rules, state)

    def _class(self, path: str) -> type:
        package = self.rules.package
        module, _, qualname = path.partition(":")
        if module != package and not module.startswith(package + "."):
            raise ValueError(f"{module} is not a module of {package}")
        found: Any = __import__(module, fromlist=["_"])
        for part in qualname.split("."):
            found = getattr(found, part)
        return found  # type: ignore[no-any-return]


class Draft:
    """The default :meth:`Serial.draft`: the contract's ``apply`` after ``apply`` (a game
    whose states are not cheap to copy gives its own, changing one working copy in place)."""

    def __init__(self, rules: Rules, state: Any) -> None:
        self._apply = rules.apply
        self._state = state

    def apply(self, seat: int, command: Any, chance: Sequence[Any] = (), /) -> None:
        self._state, _ = self._apply(self._state, seat, command, chance)

    def done(self) -> Any:
        return self._state


class Chance(Part):
    """Chance written down (``rules.chance``; :mod:`games.rules.chance`, COMMANDS.md).  The
    default is a game without chance: it draws nothing.  A game that gives this part draws
    (``rules.draws_chance``): its setup and apply take the outcomes a record gives."""

    SYNTAX: Mapping[str, str] = MappingProxyType({})  # kind of outcome -> syntax ("draw <building>")
    WORDS: Mapping[str, Mapping[str, tuple[str, ...]]] = MappingProxyType({})  # its words
    # keys of serial.state_to_dict that come from the seed, not from play (seed, counter,
    # salts): a record replayed without its seed reaches the same game with other values there
    SEEDED_FIELDS: tuple[str, ...] = ()

    def parse(self, state: Any, text: str, /) -> Any:
        """An outcome from its words in any language (``draw village``); IllegalCommand."""
        raise IllegalCommand(Message("Nothing is drawn in this game: a record gives it no chance."))

    def format_in(self, state: Any, chance: Any, language: str, /) -> str:
        """An outcome in ``language``'s words ("ziehe Palast"), as ``parse`` reads it."""
        raise ValueError(f"{self.rules.title} draws nothing")

    def format(self, state: Any, chance: Any) -> str:
        """An outcome as a record writes it: ``format_in`` in English."""
        return self.format_in(state, chance, "en")

    def drawn(self, state: Any) -> Sequence[Any]:
        """Every outcome drawn on the way to the state (what a record of it writes out): none."""
        return ()


class Notation(Part):
    """Commands as people write them, beyond the core's ``parse_command`` and
    ``format_command_in`` (``rules.notation``)."""

    def clean(self, text_: str, /) -> str:
        """A typed line as the notation reads it: invisible characters removed, compatibility
        forms folded (full-width ``ｂｉｄ ３`` is ``bid 3``)."""
        return text.nfkc(text.visible(text_))

    def format_command(self, state: Any, command: Any) -> str:
        """A command as records and logs write it: ``format_command_in`` in English."""
        return self.rules.format_command_in(state, command, "en")

    def describe(self, state: Any, seat: int, language: str = "en") -> list[str]:
        """The seat's menu as lines (mails, pages, refusals): each legal command as written."""
        rules = self.rules
        return list(
            dict.fromkeys(rules.format_command_in(state, c, language) for c in rules.legal(state, seat))
        )

    @cached_property
    def SYNTAX(self) -> Mapping[str, str]:
        """Each command keyword -> its syntax line in English ("bid <number>", "pass"): the
        mails' list of commands.  Default: read off the commands of a game played by defaults."""
        return self._met[1]

    def syntax(self, kind: str, language: str = "en") -> str:
        """A command's syntax line in ``language``: ``SYNTAX[kind]`` with its keyword spelled
        as ``language`` writes it."""
        line = self.SYNTAX.get(kind, kind)
        keywords = (getattr(self.words, "TABLES", None) or {}).get("keyword", {})
        spelled = keywords.get(language, {}).get(kind)
        return line.replace(kind, spelled[0], 1) if spelled else line

    @cached_property
    def words(self) -> Any:
        """The vocabulary the mail parser reads with: ``key``, ``keyword``,
        ``closest_keyword_scored``, ``keyword_hint``, ``argument_hint``, ``LANGUAGES`` and
        the word tables (``TABLES``).  Default: :class:`games.rules.generic.Vocabulary` of the
        command words ``format_command_in`` writes in each language, read off a game played
        by defaults."""
        return generic.Vocabulary(self._met[0])

    def public(self, command: Any) -> str | None:
        """What others may read of a move once played (a rollback's list): None for its
        notation as it is (the default), or a shorter text where the notation holds the mover's
        private intent (Die Verbotene Stadt's plan: "plan")."""
        return None

    @cached_property
    def _met(self) -> tuple[dict[str, dict[str, list[str]]], dict[str, str]]:
        """The command words and syntax lines of the commands met in a game played by defaults
        (the fewest players, the default board, edition and options), at most 400 decisions."""
        rules, about, serial = self.rules, self.rules.about, self.rules.serial
        config = serial.make_config(
            serial.load_board(about.default_board),
            min(rules.player_counts),
            about.editions[0],
            dict(about.OPTIONS),
            about.default_first_seat,
        )
        state = rules.setup(config, "vocabulary")
        lines: list[tuple[str, str]] = []
        for _ in range(400):
            owed = rules.pending(state)
            if not owed:
                break
            for decision in owed:
                for command in rules.legal(state, decision.seat):
                    for language in generic.LANGUAGES:
                        lines.append((language, rules.format_command_in(state, command, language)))
            state, _ = rules.apply(state, owed[0].seat, rules.default(state, owed[0].seat))
        return generic.first_words(lines), generic.syntax_lines(
            line for language, line in lines if language == "en"
        )


class Presentation(Part):
    """How the service shows and mails the game (``rules.presentation``: nothing outside a
    game's package names a game).  A game that changes none of it is shown and
    mailed in the service's generic words, by its text board alone.  Pure Python like the
    rest: words are English msgids the service says in the reader's language (they belong in
    ``about.MESSAGES``), pictures are SVG text."""

    # phrase key -> the game's English template (``{field}`` placeholders) for a phrase of the
    # service's mails and pages it says its own way (``{% game_words %}``,
    # ``games/templatetags/gamewords.py``): "begins" ({colour}, {edition}, {game_title}),
    # "replacing" ({colour}, {game_title}), "how_to_play", "other_commands", "mail_all",
    # "invitation_subject" ({colour}, {decision_text}), "sealed_subject" and
    # "sealed_situation" ({colour}, {decision_text}), "sealed", "revealed",
    # "revealed_subject".  None: every phrase in the service's generic words
    MAIL_WORDS: Mapping[str, str] = MappingProxyType({})
    # the package's module that draws the board, relative to the package (".picture"),
    # imported when first drawn (``games.picture``): ``board_svg(board, view, *, names,
    # translate) -> str`` (and ``forget()`` if it remembers drawings); it may use
    # ``games.picture``'s helpers (geometry, incremental, style: no Django).  None: no picture,
    # the text board alone in mails and pages
    PICTURE: str | None = None
    # ``operator_text(view, names) -> lines``: the game as the operator reads it on the command
    # line (``manage.py show_game``), plain English lines after the line that names the game;
    # ``names``: seat colour -> the player as the operator knows them ("Ada <ada@x.org>");
    # ``games.rules.operatortext`` has helpers.  None: the seed's hash, the options, its text
    # board (``text_board``), who is waited for and the result
    operator_text: Callable[[Mapping[str, Any], Mapping[str, str]], list[str]] | None = None

    def narrate(self, state: Any, entry: LogEntry, translate: Translate = as_is) -> str:
        """A log entry as a sentence in the reader's language: ``narration`` rendered."""
        return self.rules.narration(state, entry).render(translate)

    def decision_text(self, view: Mapping[str, Any], kind: str, translate: Translate = as_is) -> str:
        """What a decision asks ("make a sealed bid for Ningxia (4)"), after "Blue must …".
        Default: its kind, through ``translate``."""
        return translate(kind)

    def sealed_text(self, sealed: Any, translate: Translate = as_is) -> str:
        """A seat's own sealed choice from its view (``view["sealed"]``) as its page and mails
        say it ("bid 3 against green").  Default: a plain rendering (``bid 3``; a mapping's
        keys and values, what is None left out)."""
        return generic.plain(sealed)

    def phase_text(self, view: Mapping[str, Any], translate: Translate, /) -> str:
        """The view's phase as people read it ("bidding for Yanan"), on the game's pages.
        Default: its ``about.PAGE_WORDS["phase"]`` word through ``translate``, else the
        phase's code."""
        code = str(view.get("phase", ""))
        english = (self.rules.about.PAGE_WORDS or {}).get("phase", {}).get(code)
        return translate(english) if english else code

    def mail_facts(self, asked: Asked, say: Say) -> Mapping[str, Any]:
        """What the game's own mail partials (``mail/<name>/_board.*``, ``game_over``) show
        besides its text board: a dict for their context, drawn from ``asked`` (the seat's view,
        its menu, the outcome), its words said through ``say`` (gettext, plurals, colours,
        places).  Default: nothing more (its partials, if any, read its view directly)."""
        return {}

    def score_parts(self, breakdown: Mapping[str, int]) -> Message:
        """A final score's parts as a :class:`Message` ("buildings 23 + dragons 0 + …"), in
        the game-over mail.  Default: each part of the breakdown as its outcome names it (a
        word of the game's catalogue), the total left out: "officials 12 + pairs 3"."""
        parts = [
            Message.layout("{part} {value}", part=Word(part), value=value)
            for part, value in breakdown.items()
            if part != "total"
        ]
        return Message.joined(parts, " + ")


# part -> the default a package's class of the same name (``Serial``) takes the place of
PARTS: Mapping[str, type[Part]] = MappingProxyType(
    {"about": About, "serial": Serial, "chance": Chance, "notation": Notation, "presentation": Presentation}
)


class Rules:
    """A game as the service reaches it (``registry.get(name)``): its package's core, called
    as ``rules.setup(...)``, ``rules.view(...)``, ``rules.title`` …, and its parts
    (``rules.about``, ``rules.serial``, ``rules.chance``, ``rules.notation``,
    ``rules.presentation``), each the package's class of that name where it gives one, else the
    default.  The service, the mails, the pages, the admin and the leagues call these and
    nothing else of a game.

    A game that draws by chance (it gives a ``Chance`` part) is handed the outcomes a record
    gives (``setup(config, seed, chance)``, ``apply(state, seat, command, chance)``); one that
    does not is called without them, and a record that claims a draw for it is refused.

    A game's page and mail partials are template files in its package's ``templates/``
    (found by ``registry.template_dirs``, in the settings), named as the service asks for them:
    ``games/<name>/_state.html`` (and ``_players``, ``_hand``, ``_notation``),
    ``notifications/mail/<name>/_board.txt`` and ``.html``,
    ``admin/games/game/hidden/<name>.html``; each has a generic one for a game without.  They
    read views, never the game's code.  The picture is the game's own
    (``presentation.PICTURE``), drawn in pure Python.
    """

    title: str  # (the required values: the package's)
    player_counts: tuple[int, ...]
    seat_colours: tuple[str, ...]
    about: AboutPart
    serial: SerialPart
    chance: ChancePart
    notation: NotationPart
    presentation: PresentationPart

    def __init__(self, name: str, module: Any) -> None:
        missing = [n for n in REQUIRED if not hasattr(module, n)]
        if missing:
            raise TypeError(f"the game {name!r} ({module.__name__}) lacks {', '.join(missing)}")
        self.name = name
        self.module = module
        self.package = module.__name__
        self.title = module.title
        self.player_counts = tuple(module.player_counts)
        self.seat_colours = tuple(module.seat_colours)
        given = {part: getattr(module, default.__name__, default) for part, default in PARTS.items()}
        for part, made in given.items():
            if not (isinstance(made, type) and issubclass(made, PARTS[part])):
                raise TypeError(
                    f"the game {name!r} ({module.__name__}) gives {PARTS[part].__name__}, "
                    f"which is no subclass of games.rules.base.{PARTS[part].__name__}"
                )
        self.draws_chance = given["chance"] is not Chance
        self.about = given["about"](self)  # type: ignore[assignment]
        self.serial = given["serial"](self)  # type: ignore[assignment]
        self.chance = given["chance"](self)  # type: ignore[assignment]
        self.notation = given["notation"](self)  # type: ignore[assignment]
        self.presentation = given["presentation"](self)  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"<Rules {self.name}: {self.package}>"

    # -- the required core: the package's own functions, looked up at each call (a test that
    # patches the package is heard); setup and apply of a game without chance are called
    # without the outcomes a record gives, which must then be none

    def setup(self, config: Any, seed: str, chance: Sequence[Any] = ()) -> Any:
        if self.draws_chance:
            return self.module.setup(config, seed, chance)
        self._draws_nothing(chance)
        return self.module.setup(config, seed)

    def pending(self, state: Any) -> tuple[Decision, ...]:
        return tuple(self.module.pending(state))

    def legal(self, state: Any, seat: int) -> tuple[Any, ...]:
        return tuple(self.module.legal(state, seat))

    def apply(
        self, state: Any, seat: int, command: Any, chance: Sequence[Any] = ()
    ) -> tuple[Any, list[LogEntry]]:
        if self.draws_chance:
            return self.module.apply(state, seat, command, chance)  # type: ignore[no-any-return]
        self._draws_nothing(chance)
        return self.module.apply(state, seat, command)  # type: ignore[no-any-return]

    def view(self, state: Any, seat: int | None) -> dict[str, Any]:
        return self.module.view(state, seat)  # type: ignore[no-any-return]

    def default(self, state: Any, seat: int) -> Any:
        return self.module.default(state, seat)

    def outcome(self, state: Any) -> Outcome | None:
        return self.module.outcome(state)  # type: ignore[no-any-return]

    def parse_command(self, state: Any, text: str, seat: int | None = None) -> Any:
        """The package's ``parse_command``, told who writes (``seat``) where it reads a line by
        its writer (White Lotus's ``palace army`` counts the writer's palaces)."""
        if self._parse_takes_seat:
            return self.module.parse_command(state, text, seat)
        return self.module.parse_command(state, text)

    @cached_property
    def _parse_takes_seat(self) -> bool:
        try:
            return len(inspect.signature(self.module.parse_command).parameters) >= 3
        except (TypeError, ValueError):
            return False

    def format_command_in(self, state: Any, command: Any, language: str) -> str:
        return self.module.format_command_in(state, command, language)  # type: ignore[no-any-return]

    def narration(self, state: Any, entry: LogEntry) -> Message:
        return self.module.narration(state, entry)  # type: ignore[no-any-return]

    def text_board(
        self, view: Mapping[str, Any], names: Mapping[str, str], translate: Translate
    ) -> list[str]:
        return list(self.module.text_board(view, names, translate))

    @staticmethod
    def _draws_nothing(chance: Sequence[Any]) -> None:
        if any(chance):
            raise IllegalCommand(Message("Nothing is drawn in this game: a record gives it no chance."))


def _class_path(value: Any) -> str:
    kind = type(value)
    return f"{kind.__module__}:{kind.__qualname__}"
