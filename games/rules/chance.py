"""Chance written down: outcomes of chance given to the engine instead of drawn.

A game played at a table, at a tournament or on another site had its own draws.  Its record
gives them (``chance: draw village``, ``chance: fill Yanan palace``) where the game drew them,
and the engine takes them as given, still checking that each is possible (the tile is in the
bag, the die has that face, every area is filled once).

How a game uses it (both games do, through the same calls):

* its state has ``seed`` (``""``: none, every outcome must be given), ``given`` (the outcomes
  handed to the current step, first first) and ``drawn`` (every outcome drawn so far, as
  :class:`Chance` values: a trace that is never stored and never compared);
* every draw of the engine goes through :func:`draw` (one outcome) or :func:`draw_group`
  (several that belong together, in any order: a fill, a shuffle);
* ``setup(config, seed, chance)`` and ``apply(state, seat, command, chance)`` take the outcomes
  of their step; :func:`settle` refuses outcomes the step did not use.

With a seed *and* given outcomes (the record of a game played here, chance written out), the
seed draws and each given outcome must be what it drew: the record is checked, and replays
exactly as the game did, generator counter included.  Without a seed the given outcome is
taken, and a draw with nothing given raises :class:`ChanceError` saying what the game draws
there and how to write it.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from typing import Any, NamedTuple, TypeVar

from . import text
from .base import IllegalCommand, Message
from .text import Table

S = TypeVar("S")
Value = tuple[Any, ...]


class Chance(NamedTuple):
    """One outcome of chance: its kind (``draw``, ``fill``, ``first``, ``roll`` …) and its
    value in the engine's terms (a building number, an area index, a seat), JSON scalars."""

    kind: str
    value: Value

    def to_data(self) -> list[Any]:
        return [self.kind, *self.value]

    @classmethod
    def from_data(cls, data: Sequence[Any]) -> Chance:
        if not data or not isinstance(data[0], str):
            raise ValueError(f"not an outcome of chance: {data!r}")
        return cls(data[0], tuple(data[1:]))


def to_data(outcomes: Sequence[Chance]) -> list[list[Any]]:
    return [c.to_data() for c in outcomes]


def from_data(data: Sequence[Sequence[Any]] | None) -> tuple[Chance, ...]:
    return tuple(Chance.from_data(d) for d in data or ())


class ChanceError(IllegalCommand):
    """An outcome of chance that is missing, not possible, not what the seed drew, or not
    used.  ``left`` counts the given outcomes not yet used when it was raised, the one it is
    about first (0: the game needs one more than it was given, ``needed``): the outcome is
    the ``len(given) - left``-th of those handed to the step."""

    def __init__(self, message: str | Message, legal: Sequence[str] = (), *, left: int = 0) -> None:
        super().__init__(message, legal)
        self.left = left

    @property
    def needed(self) -> bool:
        return self.left == 0


# What a draw point tells the reader: what the game draws there and the outcome lines that would
# be possible (already written as ``chance: ...`` in the record's English notation).
# (``need(written)``: ``written`` the outcomes of a group already given and possible)
Need = Callable[[Sequence[Value]], tuple[Message, list[str]]]
Evolve = Callable[..., Any]


def give(state: S, outcomes: Sequence[Chance], evolve: Evolve) -> S:
    """The state with ``outcomes`` handed to its next step."""
    return evolve(state, given=tuple(outcomes)) if outcomes else state


def from_seed(state: Any) -> bool:
    """Does the seed draw, with no outcome handed to the step?  The usual case (every replay
    of a game played here): a game may then draw straight from its generator and write the
    outcome down with :func:`noted`, which is what :func:`draw` would do, without building
    its checks and help texts (replay draws hundreds of times)."""
    return bool(state.seed) and not state.given


def noted(state: S, kind: str, value: Value, evolve: Evolve, **changes: Any) -> S:
    """``state`` with ``changes`` (the generator's counter) and the seeded outcome ``value``
    of ``kind`` written down: what :func:`draw` returns when :func:`from_seed` holds."""
    st: Any = state
    result: S = evolve(state, drawn=(*st.drawn, Chance(kind, value)), **changes)
    return result


def settle(state: Any) -> None:
    """Refuse outcomes the step was handed and did not use."""
    left = state.given
    if left:
        raise ChanceError(
            Message("The game draws nothing more here: this outcome is not used."), left=len(left)
        )


def _words(value: Value) -> str:
    return " ".join(map(str, value))


def draw(
    state: S,
    kind: str,
    seeded: Callable[[S], tuple[Value, S]],
    *,
    check: Callable[[Value], Message | None],
    need: Need,
    evolve: Evolve,
    say: Callable[[Value], str] = _words,
) -> tuple[Value, S]:
    """One outcome of ``kind``: the seed's draw (``seeded``), checked against a given outcome
    if there is one; without a seed, the given outcome once ``check`` finds it possible (None).
    ``say`` writes a value as the record does (for the refusal of one the seed did not draw)."""
    st: Any = state
    given: tuple[Chance, ...] = st.given
    if not given and st.seed:  # the usual case (every replay of a game played here): the seed draws
        value, after = seeded(state)
        done: Any = after
        return value, evolve(after, drawn=(*done.drawn, Chance(kind, value)))
    outcome = given[0] if given else None
    if outcome is not None and outcome.kind != kind:
        what, legal = need(())
        raise ChanceError(what, legal, left=len(given))
    if outcome is None and not st.seed:
        what, legal = need(())
        raise ChanceError(what, legal, left=0)
    if st.seed:
        value, new = seeded(state)
        if outcome is not None and tuple(outcome.value) != tuple(value):
            raise ChanceError(
                Message("This game's seed draws '{drawn}' here, not this.", drawn=say(value)), left=len(given)
            )
    else:
        assert outcome is not None
        value = tuple(outcome.value)
        problem = check(value)
        if problem is not None:
            raise ChanceError(problem, need(())[1], left=len(given))
        new = state
    nst: Any = new
    left = given[1:] if outcome is not None else given
    return value, evolve(new, given=left, drawn=(*nst.drawn, Chance(kind, value)))


def draw_group(
    state: S,
    kind: str,
    count: int,
    seeded: Callable[[S], tuple[list[Value], S]],
    *,
    check: Callable[[list[Value]], Message | None],
    need: Need,
    evolve: Evolve,
    say: Callable[[Value], str] = _words,
) -> tuple[list[Value], S]:
    """``count`` outcomes of ``kind`` that belong together (a fill, a shuffle) and may be
    written in any order: the seed's (checked against the given ones as a whole, if any), or
    the given ones once ``check`` finds them possible together."""
    st: Any = state
    given: tuple[Chance, ...] = st.given
    taken: list[Value] = []
    for outcome in given:
        if outcome.kind != kind or len(taken) == count:
            break
        taken.append(tuple(outcome.value))
    if given and not taken:
        what, legal = need(())
        raise ChanceError(what, legal, left=len(given))
    # a wrong outcome is refused as soon as it is written (the last one taken: a record is read
    # line by line, so those before it were possible together)
    problem = check(taken) if taken and not st.seed else None
    if problem is not None:
        raise ChanceError(problem, need(taken[:-1])[1], left=len(given) - len(taken) + 1)
    if len(taken) < count and not st.seed:
        what, legal = need(taken)
        raise ChanceError(what, legal, left=len(given) - len(taken))
    if st.seed:
        values, new = seeded(state)
        if taken and Counter(map(repr, taken)) - Counter(repr(tuple(v)) for v in values):
            raise ChanceError(
                Message(
                    "This game's seed draws '{drawn}' here, not this.",
                    drawn=", ".join(say(v) for v in values),
                ),
                left=len(given),
            )
    else:
        values, new = list(taken), state
    nst: Any = new
    drawn = tuple(Chance(kind, tuple(v)) for v in values)
    return values, evolve(new, given=given[len(taken) :], drawn=(*nst.drawn, *drawn))


def new_outcomes(a: Sequence[Chance], b: Sequence[Chance]) -> tuple[Chance, ...]:
    """What was drawn between two states of one game, from what each had drawn (``rules.chance.drawn``
    of each: none for a game without chance), ``b`` one step on from ``a``."""
    return tuple(b[len(a) :]) if len(b) >= len(a) else tuple(b)


# --- chance lines in a record ------------------------------------------------------------------
#
# ``chance: draw village`` (``zufall:`` in German, ``hasard:`` in French), or the outcome's own
# keyword before the colon (``fill: Yanan palace``, ``ziehe: Dorf``): each game reads what
# follows with its ``parse_chance`` and writes it with ``format_chance``.

PREFIX: Table = {"en": {"chance": ("chance",)}, "de": {"chance": ("zufall",)}, "fr": {"chance": ("hasard",)}}
_PREFIXES = frozenset(text.key(w) for language in PREFIX.values() for w in language["chance"])


def chance_text(key_word: str, rest: str, kinds: Mapping[str, str]) -> str | None:
    """The outcome a record line ``<key_word>: <rest>`` writes (``draw village``), or None for a
    line that is no chance line.  ``kinds``: the game's folded outcome keywords (any language)
    -> their canonical kind."""
    folded = text.key(key_word)
    if folded in _PREFIXES:
        return rest.strip()
    if folded in kinds:
        return f"{key_word.strip()} {rest.strip()}"
    return None


def read(
    line: str,
    kinds: Mapping[str, str],
    parsers: Mapping[str, Callable[[list[str]], Value]],
    syntax: Mapping[str, str],
) -> Chance:
    """An outcome from its words (``draw village``, ``ziehe Dorf``): the first word is its kind
    in any language, ``parsers[kind]`` reads the rest (raising ValueError with what is wrong)."""
    words = line.split()
    if not words:
        raise IllegalCommand(
            Message(
                "Write an outcome of chance after 'chance:' ({syntax}).", syntax=", ".join(syntax.values())
            )
        )
    kind = kinds.get(text.key(words[0]))
    if kind is None:
        raise IllegalCommand(
            Message(
                "'{word}' is not an outcome of chance in this game (outcomes: {syntax}).",
                word=words[0][:30],
                syntax=", ".join(syntax.values()),
            )
        )
    try:
        return Chance(kind, parsers[kind](words[1:]))
    except ValueError as error:
        raise IllegalCommand(
            Message("{error} Write: chance: {syntax}", error=str(error), syntax=syntax[kind])
        ) from None


def kinds_index(table: Table, languages: Sequence[str]) -> dict[str, str]:
    """Folded spelling of an outcome keyword -> its kind."""
    return text.index("chance", table, languages)
