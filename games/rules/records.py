"""Game records of any game: a header and one ``colour: command`` line per accepted command.

::

    # White Lotus game record
    edition: kosmos
    board: china
    colours: red blue green yellow purple
    options: zero_card=yes negotiation=no open_hands=no adjacency=any
    first_emperor: red
    seed: 7

    red: place Ningxia
    blue: place Yanan

A record of another game than White Lotus says which (``rules: verbotenestadt``, its title
in the first line) and the version of its rules it was played under (``version:
verbotenestadt-2``, ``rules.about.VERSION``: a record of another version may not replay the same
game); a record without a ``rules`` line is a White Lotus record (the default game's text names
no game).  White Lotus calls the seat that begins its first emperor
(``first_emperor``); every other game ``first_seat``.  Unknown header keys are kept (the
service adds players and dates).  Forced moves are not written: replaying the listed
commands plays them again.

A game whose draws are mixed (``games.rules.rng``: its first event says ``draws``) adds what
checking them needs (COMMANDS.md "Checking the draws")::

    seed-hash: 5d1c…            sha256 of the seed, published when the game was created
    rng: hmac-sha256-counter/1   the generator
    draws: mixed/1               how the draw seed is made from the seed and the entropy
    entropy: 0=ab12… 2=9f3e…     each seat's contribution (by seat number), as the game's
                                 ``started`` event lists them ("-": none arrived)
    result: 1 red 34, 2 blue 30  the final places and totals (finished games)

``seed:`` is then the server's seed, not the draw seed (:func:`~games.rules.rng.draw_seed`
makes that).  A record without these lines reads as the game it always was.

A game played elsewhere leaves out ``seed:`` and gives its outcomes of chance on ``chance:``
lines after the move that drew them (the setup's before the first move); a game played here
writes them out as well, with its seed, so that its record replays without the seed too
(:func:`chance_written_out`; COMMANDS.md "Chance written down").  Comments (``# …`` on a line
of their own, or after a line) and blank lines in the body are kept with the line they belong
to (:class:`Note`) and written back where they were; :mod:`games.rules.entry` reads the body
(line by line, or a whole record: :func:`games.rules.entry.parse_record`).

Written and read through the rules contract (:mod:`games.rules.base`) alone, through the
registry: the notation of each line is the game's own.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from games.rules import chance, registry, rng
from games.rules.base import IllegalCommand, Rules
from games.rules.chance import Chance
from games.rules.recordtext import split_record

KNOWN = {
    "rules",
    "version",
    "edition",
    "board",
    "colours",
    "options",
    "seed",
    "seed-hash",
    "rng",
    "draws",
    "entropy",
    "result",
}


def first_seat_key(rules: str) -> str:
    """The header key of the seat that begins: the game's own (``FIRST_SEAT_KEY``), else
    ``first_seat``."""
    return str(registry.get(rules).about.FIRST_SEAT_KEY)


@dataclass(frozen=True)
class Note:
    """The comments of one line of a record's body: the comment lines (and blank lines) just
    before it and the comment after it on its own line (``# …``, as written).  ``step``: -1 for
    the setup's outcomes of chance, else the move's index; ``line``: 0 for the move's line, k
    for the k-th outcome of chance after it."""

    step: int
    line: int
    before: tuple[str, ...] = ()
    after: str = ""

    def to_data(self) -> list[Any]:
        return [self.line, list(self.before), self.after]

    @classmethod
    def from_data(cls, step: int, data: Sequence[Any]) -> Note:
        line, before, after = data
        return cls(step, int(line), tuple(str(b) for b in before), str(after))

    @property
    def texts(self) -> list[str]:
        """The comments' words, without the ``#`` (blank lines left out)."""
        found = [b.lstrip("#").strip() for b in self.before if b.startswith("#")]
        return found + ([self.after.lstrip("#").strip()] if self.after else [])


@dataclass(frozen=True)
class Record:
    """A game record: the game, its setup, its moves (seat, the game's command)."""

    rules: str
    edition: str
    board: Any  # the game's board (has ``.name``)
    colours: tuple[str, ...]
    options: Mapping[str, Any]
    first_seat: int | None  # None: by lot
    seed: str
    moves: tuple[tuple[int, Any], ...]
    extra: dict[str, str] = field(default_factory=dict)
    # the rules version the game was played under (``rules.about.VERSION``; "": not said, as in every
    # White Lotus record)
    version: str = ""
    # how the draws were made (games.rules.rng; "": not said, an old record: the seed is the
    # draw seed), each seat's contribution, the seed's published hash, the final result
    rng: str = ""
    draws: str = ""
    entropy: tuple[tuple[int, str], ...] = ()
    seed_hash: str = ""
    result: str = ""
    # chance written down (games.rules.chance): the outcomes of the setup's draws, then of each
    # move's (``chance[i + 1]`` for ``moves[i]``); empty: none written (the seed draws them)
    chance: tuple[tuple[Chance, ...], ...] = ()
    # comments: on the record's lines (:class:`Note`), in its header (after the title) and after
    # its last line, each as it was written
    notes: tuple[Note, ...] = ()
    header_notes: tuple[str, ...] = ()
    end_notes: tuple[str, ...] = ()
    # each move's command as its line wrote it (a record read from text; empty otherwise)
    typed: tuple[str, ...] = ()

    @property
    def draw_seed(self) -> str:
        """The seed the game's draws were made with (the record's seed and entropy mixed as
        its ``draws`` says)."""
        return rng.draw_seed(self.seed, self.draws or None, self.entropy)

    @property
    def game_rules(self) -> Rules:
        return registry.get(self.rules)

    def config(self) -> Any:
        """The engine's config this record's game is set up with."""
        return self.game_rules.serial.make_config(
            self.board, len(self.colours), self.edition, dict(self.options), self.first_seat
        )


def format_record(record: Record, config: Any | None = None) -> str:
    """The record as text; ``config`` is the game's config if the caller has it (else made
    from the record).  Outcomes of chance are written where the record has them
    (:attr:`Record.chance`; :func:`chance_written_out` fills them in), comments where they
    were."""
    rules = record.game_rules
    config = config if config is not None else record.config()
    opts = " ".join(f"{k}={_word(v)}" for k, v in _ordered(rules, record.options).items())
    first = "lot" if record.first_seat is None else record.colours[record.first_seat]
    lines = [f"# {rules.title} game record", *record.header_notes]
    if record.rules != registry.DEFAULT:  # (a White Lotus record's text stays as it always was)
        lines.append(f"rules: {record.rules}")
        lines.append(f"version: {record.version or rules.about.VERSION}")
    lines += [
        f"edition: {record.edition}",
        f"board: {record.board.name}",
        f"colours: {' '.join(record.colours)}",
        f"options: {opts}",
        f"{first_seat_key(record.rules)}: {first}",
    ]
    if record.seed:  # (a game played elsewhere has none: its chance is written down)
        lines.append(f"seed: {record.seed}")
    if record.draws:  # a game whose draws are mixed: what checking them needs
        lines += [
            f"seed-hash: {record.seed_hash or rng.seed_digest(record.seed)}",
            f"rng: {record.rng or rng.RNG}",
            f"draws: {record.draws}",
            f"entropy: {format_entropy(record.entropy)}",
        ]
        if record.result:
            lines.append(f"result: {record.result}")
    lines += [f"{k}: {v}" for k, v in record.extra.items()]
    lines.append("")
    state = rules.setup(config, record.draw_seed, record.chance[0] if record.chance else ())
    notes = {(n.step, n.line): n for n in record.notes}

    def put(step: int, line: int, text: str) -> None:
        note = notes.get((step, line))
        if note is not None:
            lines.extend(note.before)
        lines.append(f"{text}  {note.after}" if note is not None and note.after else text)

    def outcomes(step: int) -> None:
        for k, outcome in enumerate(
            record.chance[step + 1] if len(record.chance) > step + 1 else (), start=1
        ):
            put(step, k, f"chance: {rules.chance.format(state, outcome)}")

    outcomes(-1)
    for i, (seat, command) in enumerate(record.moves):
        put(i, 0, f"{record.colours[seat]}: {rules.notation.format_command(state, command)}")
        outcomes(i)
    lines.extend(record.end_notes)
    return "\n".join(lines) + "\n"


def chance_written_out(record: Record) -> Record:
    """The record with every outcome of chance its game drew written out (replayed from its
    seed, or taken from the outcomes it gives), so that it replays without the seed too."""
    rules = record.game_rules
    config = record.config()
    state = rules.setup(config, record.draw_seed, record.chance[0] if record.chance else ())
    written = [tuple(rules.chance.drawn(state))]
    for i, (seat, command) in enumerate(record.moves):
        given = record.chance[i + 1] if len(record.chance) > i + 1 else ()
        after, _ = rules.apply(state, seat, command, given)
        written.append(chance.new_outcomes(rules.chance.drawn(state), rules.chance.drawn(after)))
        state = after
    return replace(record, chance=tuple(written))


def _ordered(rules: Rules, options: Mapping[str, Any]) -> dict[str, Any]:
    """The options in the game's order (``rules.about.OPTIONS``), any others after them."""
    out = {k: options[k] for k in rules.about.OPTIONS if k in options}
    out.update({k: v for k, v in options.items() if k not in out})
    return out


def _word(value: object) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value)


def _value(text: str, default: Any) -> Any:
    """An option's value as the record writes it, read back as the type of its default."""
    if text in ("yes", "no", "true", "false", "on", "off"):
        return text in ("yes", "true", "on")
    if isinstance(default, int) and not isinstance(default, bool):
        try:
            return int(text)
        except ValueError:
            return text
    if isinstance(default, float):
        try:
            return float(text)
        except ValueError:
            return text
    return text


def header_of(text: str) -> dict[str, str]:
    """A record's header lines (``key: value``, keys in lower case), before anything is read
    from them (the version a record was played under, checked before its moves are)."""
    return split_record(text)[0]


def format_entropy(entropy: Sequence[tuple[int, str]]) -> str:
    """``0=ab12… 2=9f3e…`` by seat, or ``-`` when there is none."""
    return " ".join(f"{seat}={value}" for seat, value in sorted(entropy)) or "-"


def parse_entropy(text: str) -> tuple[tuple[int, str], ...]:
    """The ``entropy:`` header's pairs; a malformed one raises ``ValueError`` naming it."""
    out: dict[int, str] = {}
    for item in text.split():
        if item == "-":
            continue
        seat, sep, value = item.partition("=")
        if not sep or not seat.isdigit() or not rng.is_contribution(value) or int(seat) in out:
            raise ValueError(f"'{item}' is not 'seat=contribution' (a seat number and 64 hex digits)")
        out[int(seat)] = value
    return tuple(sorted(out.items()))


def format_result(colours: Sequence[str], scores: Sequence[int], rank: Sequence[int]) -> str:
    """``1 red 34, 2 blue 30``: each seat's place, colour and total, best first."""
    order = sorted(range(len(colours)), key=lambda s: (rank[s], s))
    return ", ".join(f"{rank[s]} {colours[s]} {scores[s]}" for s in order)


def read_header(header: Mapping[str, str], boards: Callable[[str, str], Any]) -> Record:
    """The record a header describes (no moves yet); a header the game cannot set up raises
    :class:`IllegalCommand` saying why."""
    name = header.get("rules", registry.DEFAULT)
    try:
        rules = registry.get(name)
    except registry.UnknownRules as error:
        raise IllegalCommand(f"bad record header: {error}") from None
    return _header(name, rules, dict(header), boards)


def _header(name: str, rules: Rules, header: dict[str, str], boards: Callable[[str, str], Any]) -> Record:
    first_key = first_seat_key(name)
    try:
        colours = tuple(header["colours"].split())
        standard = tuple(rules.seat_colours[: len(colours)])
        if colours != standard:
            raise ValueError(f"the colours of {len(colours)} players are {' '.join(standard)}")
        options: dict[str, Any] = {}
        for item in header.get("options", "").split():
            key, _, value = item.partition("=")
            options[key] = _value(value, rules.about.OPTIONS.get(key))
        first = header.get(first_key, colours[0])
        first_seat = None if first == "lot" else colours.index(first)
        edition = header.get("edition", rules.about.editions[0])
        if edition not in rules.about.editions:
            raise ValueError(f"{rules.title} has no edition '{edition}'")
        seed = header.get("seed", "")  # none: a game played elsewhere, its chance written down
        if seed in ("-", "none"):
            seed = ""
        board = boards(name, header.get("board", rules.about.default_board))
        try:  # the game reads its options (a former name too: Verbotene Stadt's one_turn)
            config = rules.serial.make_config(board, len(colours), edition, options, first_seat)
        except (TypeError, ValueError) as error:
            unknown = sorted(set(options) - set(rules.about.OPTIONS))
            if unknown:
                raise ValueError(f"{rules.title} has no option {', '.join(unknown)}") from None
            raise error
        record = Record(
            rules=name,
            edition=edition,
            board=board,
            colours=colours,
            options=rules.serial.config_to_data(config).get("options", {}),  # as the game names them now
            first_seat=first_seat,
            seed=seed,
            moves=(),
            extra={k: v for k, v in header.items() if k not in KNOWN | {first_key}},
            version=header.get("version", ""),
            rng=header.get("rng", ""),
            draws=header.get("draws", ""),
            entropy=parse_entropy(header.get("entropy", "")),
            seed_hash=header.get("seed-hash", ""),
            result=header.get("result", ""),
        )
        rng.check_algorithms(record.rng or None, record.draws or None)
        strays = [seat for seat, _ in record.entropy if seat >= len(colours)]
        if strays:
            raise ValueError(f"entropy for seat {strays[0]}, but the seats are 0 to {len(colours) - 1}")
        record.config()  # refuses what the game refuses
        return record
    except (KeyError, ValueError, TypeError, OSError) as error:
        raise IllegalCommand(f"bad record header: {error}") from None


def moves_of(rules: Rules, commands: Sequence[tuple[int, Mapping[str, Any]]]) -> tuple[tuple[int, Any], ...]:
    """Moves kept as ``(seat, command_to_dict(...))`` as the game's commands."""
    return tuple((seat, rules.serial.command_from_dict(data)) for seat, data in commands)


def same_game(rules: Rules, a: Any, b: Any) -> bool:
    """Are two states the same game, whatever their seeds (``rules.chance.SEEDED_FIELDS`` aside)?"""
    left, right = rules.serial.state_to_dict(a), rules.serial.state_to_dict(b)
    for key in rules.chance.SEEDED_FIELDS:
        left.pop(key, None)
        right.pop(key, None)
    return left == right


_PLAYERS = re.compile(r",\s*(?=[a-z]+=)")
_PLAYER = re.compile(r"^([a-z]+)=([^<>]*?)\s*(?:<([^<>]+)>)?$")


def players_of(value: str) -> dict[str, tuple[str, str]]:
    """A ``players`` header line, ``red=Ada <ada@x.org>, blue=Bao <bao@x.org>``, as
    ``{colour: (name, email)}``; a player named without an address (a game played elsewhere:
    ``red=Katrin Vogel``, or a public record) has email ""."""
    out: dict[str, tuple[str, str]] = {}
    for item in _PLAYERS.split(value.strip()):
        found = _PLAYER.match(item.strip())
        if found:
            out[found[1]] = (found[2].strip(), (found[3] or "").strip())
    return out
