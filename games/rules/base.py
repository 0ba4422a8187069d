"""The rules-module contract every game implements (after Rally the Troops and boardgame.io).

A rules module is a set of pure functions over immutable values::

    setup(config, seed, chance=()) -> State
    pending(state) -> tuple[Decision, ...]      who must decide what now
    legal(state, seat) -> tuple[Command, ...]   the menu of that seat
    apply(state, seat, command, chance=()) -> (State, [LogEntry])   or raises IllegalCommand
    view(state, seat | None) -> dict           what that seat (or a spectator) may see
    default(state, seat) -> Command            what a missed deadline plays
    outcome(state) -> Outcome | None           scores and ranking once finished

plus a text notation (``parse_command`` / ``format_command``) that round-trips, used for
mail commands and game records.

``chance`` is the outcomes of the draws that step makes, as a record of a game played
elsewhere gives them (:mod:`games.rules.chance`): taken as given (checked to be possible) when
the game has no seed, checked against the seed's draws when it has one.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any, NamedTuple, Protocol, TypeVar

Translate = Callable[[str], str]


def _same(text: str) -> str:
    return text


class Word(NamedTuple):
    """An English word inserted into a :class:`Message` that the reader's language translates
    (a colour, a building, ``army``); a plain ``str`` argument (a province, what the player
    typed) is inserted as it is.  ``case`` ("capitalize", "lower") is applied to the word
    once translated (a seat's name at the start of a sentence)."""

    text: str
    case: str = ""

    def said(self, translate: Translate) -> str:
        word = translate(self.text)
        if self.case == "capitalize":
            return word.capitalize()
        if self.case == "lower":
            return word.lower()
        return word


# the msgid each catalogue translates as its own language's code ("de", "fr"): how a
# :class:`Spelled` argument knows which of its spellings the reader's ``translate`` wants
LANGUAGE_CODE = "language code: en"


class Spelled(NamedTuple):
    """A text the engine writes itself in each language, inserted into a :class:`Message`: a
    command in the reader's notation (``ablehnen`` for a German reader, ``decline`` for an
    English one), which no catalogue could hold.  The reader's ``translate`` names its
    language by translating :data:`LANGUAGE_CODE`; a language without a spelling gets the
    English one."""

    spellings: tuple[tuple[str, str], ...]  # (language, text), English first

    def said(self, translate: Translate) -> str:
        found = dict(self.spellings)
        return found.get(translate(LANGUAGE_CODE), found.get("en", ""))


class Message:
    """A sentence for a person, kept so that it can be said in any language later: an English
    template with ``{named}`` fields and their values.

    ``render()`` is the English text (logs, tests, ``str(error)``); ``render(gettext)`` the
    reader's: the template and every :class:`Word` go through ``translate``, a nested
    message is rendered the same way.  ``to_data`` / ``from_data`` keep it as JSON (the
    outbox stores a refusal so and the mail renders it at send time, in the reader's
    language).  The engine stays pure: it never calls a translation itself."""

    __slots__ = ("args", "plain", "template")

    def __init__(self, template: str, /, **args: Argument) -> None:
        self.template = template
        self.args: Mapping[str, Argument] = MappingProxyType(args)
        self.plain = False

    @classmethod
    def literal(cls, text: str) -> Message:
        """A text said as it is, in every language (a message nobody has made translatable)."""
        return cls("{text}", text=text)

    @classmethod
    def layout(cls, template: str, /, **args: Argument) -> Message:
        """Arguments put together by a template that is no sentence and is never translated
        (``"{code} ({hat}/{robe})"``): only its arguments are said in the reader's language."""
        message = cls(template, **args)
        message.plain = True
        return message

    @classmethod
    def joined(cls, parts: Sequence[Argument], separator: str = ", ") -> Message:
        """``parts`` one after the other with ``separator`` between them (a list of colours);
        each part is said in the reader's language, the separator as it is."""
        escaped = separator.replace("{", "{{").replace("}", "}}")
        template = escaped.join(f"{{p{i}}}" for i in range(len(parts)))
        return cls.layout(template, **{f"p{i}": part for i, part in enumerate(parts)})

    def render(self, translate: Translate = _same) -> str:
        values = {k: _render_argument(v, translate) for k, v in self.args.items()}
        if self.plain:
            return self.template.format(**values)
        try:
            return translate(self.template).format(**values)
        except (KeyError, IndexError, ValueError):  # a broken translation: say it in English
            return self.template.format(**values)

    def to_data(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "template": self.template,
            "args": {k: _argument_data(v) for k, v in self.args.items()},
        }
        if self.plain:
            data["plain"] = True
        return data

    @classmethod
    def from_data(cls, data: Any) -> Message | None:
        """The message :meth:`to_data` wrote, or None for anything else."""
        if not isinstance(data, Mapping) or not isinstance(data.get("template"), str):
            return None
        args: dict[str, Argument] = {}
        raw = data.get("args")
        for k, v in (raw if isinstance(raw, Mapping) else {}).items():
            if isinstance(v, Mapping) and isinstance(v.get("word"), str):
                args[str(k)] = Word(v["word"], str(v.get("case", "")))
            elif isinstance(v, Mapping) and isinstance(v.get("spelled"), Mapping):
                args[str(k)] = Spelled(tuple((str(lang), str(text)) for lang, text in v["spelled"].items()))
            elif isinstance(v, Mapping):
                nested = cls.from_data(v)
                args[str(k)] = nested if nested is not None else ""
            else:
                args[str(k)] = v if isinstance(v, str | int) else str(v)
        message = cls(data["template"], **args)
        message.plain = data.get("plain") is True
        return message

    def templates(self) -> list[str]:
        """Every string :meth:`render` passes to ``translate``."""
        found = [] if self.plain else [self.template]
        for v in self.args.values():
            if isinstance(v, Word):
                found.append(v.text)
            elif isinstance(v, Spelled):
                found.append(LANGUAGE_CODE)
            elif isinstance(v, Message):
                found += v.templates()
        return found

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Message) and self.to_data() == other.to_data()

    def __hash__(self) -> int:
        return hash(self.template)

    def __repr__(self) -> str:
        return f"Message({self.render()!r})"


Argument = str | int | Word | Spelled | Message


def _render_argument(value: Argument, translate: Translate) -> str:
    if isinstance(value, Message):
        return value.render(translate)
    if isinstance(value, Word | Spelled):
        return value.said(translate)
    return str(value)


def _argument_data(value: Argument) -> Any:
    if isinstance(value, Message):
        return value.to_data()
    if isinstance(value, Word):
        return {"word": value.text, "case": value.case} if value.case else {"word": value.text}
    if isinstance(value, Spelled):
        return {"spelled": dict(value.spellings)}
    return value


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


S = TypeVar("S")
C = TypeVar("C")


class RulesModule(Protocol[S, C]):
    """What the service (games/services.py) needs from a game."""

    name: str

    def setup(self, config: Any, seed: str, chance: Sequence[Any] = ()) -> S: ...
    def pending(self, state: S) -> tuple[Decision, ...]: ...
    def legal(self, state: S, seat: int) -> tuple[C, ...]: ...
    def apply(
        self, state: S, seat: int, command: C, chance: Sequence[Any] = ()
    ) -> tuple[S, list[LogEntry]]: ...
    def view(self, state: S, seat: int | None) -> dict[str, Any]: ...
    def default(self, state: S, seat: int) -> C: ...
    def outcome(self, state: S) -> Outcome | None: ...
    def parse_command(self, state: S, text: str) -> C: ...
    def format_command(self, state: S, command: C) -> str: ...


class GameRules(RulesModule[Any, Any], Protocol):
    """Everything the service, the mails, the pages, the admin and the leagues need from a
    game: :class:`RulesModule` plus what describes the game and presents it.  A game's package
    (``games/rules/<name>/``) provides these names at its top level; the service finds it by
    ``Game.rules`` through :mod:`games.rules.registry` and never imports it by name (an
    import-linter contract holds every module outside ``games/rules/`` to that).

    Presentation that needs Django or Pillow (the picture, the HTML partials) lives on the
    service's side, keyed by the same name; it reads views, never the game's package.

    *What the game is*

    ``title``             its name for people ("White Lotus")
    ``VERSION``           bumped when a change could replay an old game differently
    ``editions``          rule sets; the first is the default
    ``player_counts``     the numbers of players it can be played with
    ``seat_colours``      what seats are called, in seat order (the first *n* are used)
    ``default_board``     the board a game gets unless told otherwise
    ``default_first_seat`` the seat that begins when nobody names one (the service's
                          ``create_game``, the command line, a league's seating, the demo):
                          a seat number, or None for the game's own way by lot (White Lotus:
                          0, the first seat; Die Verbotene Stadt: None, the roll-off)
    ``OPTIONS``           each option's name and default value (JSON scalars)
    ``time_controls``     a suitable clock for a new game: fields of ``games.timing.TimeControls``
                          (``{"hours_per_decision": 48, …}``; empty: the service's defaults)
    ``short_windows``     decision kinds that get a shorter window than a whole decision, and
                          its most hours (``{"rebribe": 12}``): the deadline is the shorter one
    ``CHAPTERS``          the kinds of log entry that open a part of the game (``{"year"}``):
                          the pages fold their log there, the latest part open (optional;
                          without it the log folds every 50 steps)
    ``REVEALS``           the kinds of log entry that reveal sealed choices (``{"bids"}``): the
                          seats that need not decide are told them in a ``reveal`` mail

    *Configuration and state, kept as JSON in events and snapshots*

    ``load_board(name)``  a board (has ``.name`` and ``.digest``); raises OSError/ValueError
    ``make_config(board, players, edition, options, first_seat)`` the engine's config;
                          ``first_seat`` None means by lot; raises ValueError
    ``config_to_data(config)`` / ``config_from_data(data, board)``
    ``state_to_dict(state)`` / ``state_from_dict(data, config)``
    ``command_to_dict(command)`` / ``command_from_dict(data)``
    ``replay(config, seed, moves)`` the state after ``(seat, command)`` moves

    *Chance written down* (:mod:`games.rules.chance`; COMMANDS.md "Chance written down")

    ``CHANCE``            each kind of outcome -> its syntax in English ("draw <building>")
    ``CHANCE_WORDS``      the kinds' keywords in every language (a word table)
    ``parse_chance(state, text)`` an outcome (``Chance``) from its words in any language
                          (``draw village``, ``ziehe Dorf``); raises IllegalCommand
    ``format_chance(state, chance)`` the outcome as a record writes it (English words)
    ``format_chance_in(state, chance, language)`` the same in ``language``'s words
                          ("ziehe Palast"): what a page shows its reader; ``parse_chance``
                          reads it back
    ``drawn(state)``      every outcome drawn on the way to the state (since it was set up
                          or loaded): what a record of a game played here writes out
    ``SEEDED_FIELDS``     the keys of ``state_to_dict`` that come from the seed, not from play
                          (the seed, the generator's counter, salts): a record replayed without
                          its seed reaches the same game with other values there

    *Words* (``language`` is "en", "de" or "fr")

    ``clean(text)``                       a typed line normalised as notation reads it
    ``format_command_in(state, command, language)``
    ``describe(state, seat, language)``   the seat's menu: legal commands as lines
    ``SYNTAX``                            command keyword -> its syntax line in English ("place <province>")
    ``syntax(kind, language)``            a command's syntax line for a mail
    ``narrate(state, entry, translate)``  a log entry as a sentence
    ``narration(state, entry)``           the same sentence as a language-neutral
                          :class:`Message` (``narrate`` is its ``render(translate)``): what the
                          narration projection keeps (``games.projections.narration``)
    ``public_notation(command)``          what others may read of a move once it is played
                          (a rollback's list, an operator's view as a seat): None for its
                          notation as it is, or a shorter text where the notation holds the
                          mover's private intent (Die Verbotene Stadt's plan: "plan", since the
                          moves not yet made can point at the dial)
    ``decision_text(view, kind, translate)`` what a decision asks ("make a sealed bid for
                          Ningxia (4)"), from the seat's view; templates go through ``translate``
    ``MESSAGES``                          every string the game asks the reader's language
                          for (``translate``): its narration's templates and the words put
                          into them, what its decisions ask, and its words for the pages (seats,
                          pieces, editions, options and their values); a catalogue test holds
                          every one to a German and a French entry
    ``PAGE_WORDS``                        codes of the game's config and views as people read
                          them, by kind (``{"edition": {"kosmos": "Kosmos (published rules)"},
                          "option": {…}, "value": {…}, "phase": {…}, …}``): English words of
                          ``MESSAGES``, said by the service in the reader's language; a code
                          not listed is shown as it is (empty: every code as it is)
    ``words``                             a vocabulary: ``key``, ``keyword``,
                          ``closest_keyword_scored``, ``keyword_hint``, ``argument_hint``,
                          ``LANGUAGES``, and the word tables the mail parser recognises
    ``text_board(view, names, translate)`` the board as plain-text lines (≤ 76 columns)

    *Bots*

    ``Bot(key)``          a player program (local play, self-play, dropped seats): ``Bot(key)
                          .choose(state, seat)`` is a legal command for a seat that owes a
                          decision; the same key and state give the same choice

    *Leagues* score a finished game from :class:`Outcome` alone (``rank``, ties shared; a
    partnership game ranks partners equal), so a game needs nothing more for them.
    """

    title: str
    VERSION: str
    editions: tuple[str, ...]
    player_counts: tuple[int, ...]
    seat_colours: tuple[str, ...]
    default_board: str
    default_first_seat: int | None
    OPTIONS: Mapping[str, Any]
    time_controls: Mapping[str, Any]
    short_windows: Mapping[str, float]
    REVEALS: frozenset[str]
    SYNTAX: Mapping[str, str]
    MESSAGES: tuple[str, ...]
    PAGE_WORDS: Mapping[str, Mapping[str, str]]
    words: Any
    Bot: Callable[[str], Any]

    CHANCE: Mapping[str, str]
    SEEDED_FIELDS: tuple[str, ...]
    CHANCE_WORDS: Mapping[str, Mapping[str, tuple[str, ...]]]

    def parse_chance(self, state: Any, text: str) -> Any: ...
    def format_chance(self, state: Any, chance: Any) -> str: ...
    def format_chance_in(self, state: Any, chance: Any, language: str) -> str: ...
    def drawn(self, state: Any) -> Sequence[Any]: ...
    def load_board(self, name: str) -> Any: ...
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
    def clean(self, text: str) -> str: ...
    def format_command_in(self, state: Any, command: Any, language: str) -> str: ...
    def describe(self, state: Any, seat: int, language: str = "en") -> list[str]: ...
    def syntax(self, kind: str, language: str = "en") -> str: ...
    def narrate(self, state: Any, entry: LogEntry, translate: Translate = _same) -> str: ...
    def narration(self, state: Any, entry: LogEntry) -> Message: ...
    def public_notation(self, command: Any) -> str | None: ...
    def text_board(
        self, view: Mapping[str, Any], names: Mapping[str, str], translate: Translate
    ) -> list[str]: ...
    def decision_text(self, view: Mapping[str, Any], kind: str, translate: Translate = _same) -> str: ...
