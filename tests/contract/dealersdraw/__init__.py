"""Dealer's Draw: the smallest game with chance the service hosts, written with the contract's
required names and the one part a game that draws gives, its ``Chance`` (``SYNTAX``,
``WORDS``, ``SEEDED_FIELDS``, ``parse``, ``format_in``, ``drawn``), nothing else.

The deck holds the cards 1 to 10, once each.  The seats play in turn: a seat takes a card,
drawn from the deck, onto its total, or stops and keeps its total.  A total above 15 is bust
and scores nothing; a seat bust or stopped is out.  The game is over when every seat is out or
the deck is empty; the highest total wins.

Every card is drawn through :mod:`games.rules.chance`: from the seed in a game played here, or
as a record of a game played elsewhere gives it (``chance: card 7``, ``zufall: Karte 7``,
``hasard : carte 7``).  Its sentences are in its own catalogue, beside it; its seat colours are
words the service's catalogue already translates (docs/ADDING-A-GAME.md, *Translations*).
Registered only by the tests, like Sealed Bids.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from games.rules import base, chance, rng
from games.rules.base import Config, Decision, IllegalCommand, LogEntry, Message, Outcome, Translate, Word
from games.rules.chance import Value

title = "Dealer's Draw"
player_counts = (2, 3, 4)
seat_colours = ("red", "blue", "green", "yellow")

DECK = tuple(range(1, 11))
LIMIT = 15  # a total above it is bust
KEYWORDS = {  # the commands' words, by language: take, stop
    "en": ("take", "stop"),
    "de": ("nimm", "halt"),
    "fr": ("prends", "reste"),
}
LANGUAGES = tuple(KEYWORDS)

# -- chance: each card drawn is one outcome, ``card <number>``
CHANCE = {"card": "card <number>"}
CHANCE_WORDS = {"en": {"card": ("card",)}, "de": {"card": ("Karte",)}, "fr": {"card": ("carte",)}}
SEEDED_FIELDS = ("seed", "counter")  # a record replayed without its seed has other values there
_KINDS = chance.kinds_index(CHANCE_WORDS, LANGUAGES)


@dataclass(frozen=True)
class Take:
    pass


@dataclass(frozen=True)
class Stop:
    pass


@dataclass(frozen=True)
class State:
    config: Config
    seed: str  # "": a game played elsewhere, every card given by its record
    deck: tuple[int, ...]
    cards: tuple[tuple[int, ...], ...]  # each seat's cards taken, in order
    out: tuple[bool, ...]  # stopped or bust
    turn: int = 0
    counter: int = 0  # the generator's, for the seed's next draw
    # the outcomes handed to the step being played, and every outcome drawn (a trace, never
    # compared): what games.rules.chance reads and writes
    given: tuple[chance.Chance, ...] = ()
    drawn: tuple[tuple[str, tuple[int, ...]], ...] = field(default=(), compare=False)

    @property
    def finished(self) -> bool:
        return all(self.out) or not self.deck


def total(cards: Sequence[int]) -> int:
    return sum(cards)


def setup(config: Config, seed: str, given: Sequence[chance.Chance] = ()) -> State:
    n = config.players
    state = State(config, seed, DECK, ((),) * n, (False,) * n)
    chance.settle(chance.give(state, given, replace))  # nothing is drawn before the first turn
    return state


def pending(state: State) -> tuple[Decision, ...]:
    return () if state.finished else (Decision(state.turn, "take a card or stop", sealed=False),)


def legal(state: State, seat: int) -> tuple[Take | Stop, ...]:
    return () if state.finished or seat != state.turn else (Take(), Stop())


def _next(state: State) -> State:
    if state.finished:
        return state
    seats = len(state.out)
    turn = next(s % seats for s in range(state.turn + 1, state.turn + 1 + seats) if not state.out[s % seats])
    return replace(state, turn=turn)


def _draw(state: State) -> tuple[int, State]:
    left = ", ".join(map(str, state.deck))

    def seeded(s: State) -> tuple[Value, State]:
        index, counter = rng.randbelow(s.seed, s.counter, len(s.deck))
        return (s.deck[index],), replace(s, counter=counter)

    def check(value: Value) -> Message | None:
        if value[0] in state.deck:
            return None
        return Message("Card {card} is not in the deck (left: {cards}).", card=value[0], cards=left)

    def need(written: Sequence[Value]) -> tuple[Message, list[str]]:
        return (
            Message("A card is drawn here: write 'chance: card <number>' (left: {cards}).", cards=left),
            [f"chance: card {c}" for c in state.deck],
        )

    value, state = chance.draw(state, "card", seeded, check=check, need=need, evolve=replace)
    card = int(value[0])
    return card, replace(state, deck=tuple(c for c in state.deck if c != card))


def apply(
    state: State, seat: int, command: Take | Stop, given: Sequence[chance.Chance] = ()
) -> tuple[State, list[LogEntry]]:
    if state.finished or seat != state.turn:
        raise IllegalCommand(Message("It is not your turn."))
    state = chance.give(state, given, replace)
    log: list[LogEntry] = []
    if isinstance(command, Take):
        card, state = _draw(state)
        cards = (*state.cards[seat], card)
        state = replace(state, cards=(*state.cards[:seat], cards, *state.cards[seat + 1 :]))
        log.append(LogEntry("card", {"seat": seat, "card": card}))
        if total(cards) > LIMIT:
            state = replace(state, out=(*state.out[:seat], True, *state.out[seat + 1 :]))
            log.append(LogEntry("bust", {"seat": seat, "total": total(cards)}))
    else:
        state = replace(state, out=(*state.out[:seat], True, *state.out[seat + 1 :]))
        log.append(LogEntry("stop", {"seat": seat, "total": total(state.cards[seat])}))
    chance.settle(state)
    state = _next(state)
    if state.finished:
        log.append(LogEntry("over", {}))
    return state, log


def score(state: State, seat: int) -> int:
    return 0 if total(state.cards[seat]) > LIMIT else total(state.cards[seat])


def view(state: State, seat: int | None) -> dict[str, Any]:
    colours = state.config.colours
    out: dict[str, Any] = {
        "players": [
            {
                "seat": s,
                "colour": c,
                "score": {"total": score(state, s)},
                "cards": list(state.cards[s]),
                "out": state.out[s],
            }
            for s, c in enumerate(colours)
        ],
        "pending": [
            {"seat": d.seat, "colour": colours[d.seat], "kind": d.kind, "sealed": False}
            for d in pending(state)
        ],
        "phase": "finished" if state.finished else "drawing",
        "deck": len(state.deck),
    }
    if seat is not None:
        out["you"] = colours[seat]
    if state.finished:
        out["seed"] = state.seed
    return out


def default(state: State, seat: int) -> Take | Stop:
    return Take() if total(state.cards[seat]) < 10 else Stop()


def outcome(state: State) -> Outcome | None:
    if not state.finished:
        return None
    scores = tuple(score(state, s) for s in range(len(state.out)))
    rank = tuple(1 + sum(other > mine for other in scores) for mine in scores)
    return Outcome(scores, tuple({"cards": s} for s in scores), rank)


def parse_command(state: State, text: str) -> Take | Stop:
    word = text.strip().lower()
    if word in {words[0] for words in KEYWORDS.values()}:
        return Take()
    if word in {words[1] for words in KEYWORDS.values()}:
        return Stop()
    raise IllegalCommand(Message("Write take for a card, or stop to keep your total."))


def format_command_in(state: State, command: Take | Stop, language: str) -> str:
    return KEYWORDS[language][0 if isinstance(command, Take) else 1]


def narration(state: State, entry: LogEntry) -> Message:
    if entry.kind == "over":
        return Message("The game is over.")
    seat = Word(state.config.colours[entry.data["seat"]], "capitalize")
    if entry.kind == "card":
        return Message("{seat} takes a card: {card}.", seat=seat, card=entry.data["card"])
    if entry.kind == "bust":
        return Message("{seat} is bust at {total}.", seat=seat, total=entry.data["total"])
    return Message("{seat} stops at {total}.", seat=seat, total=entry.data["total"])


def text_board(view: Mapping[str, Any], names: Mapping[str, str], translate: Translate) -> list[str]:
    lines = [translate("Cards left in the deck: {deck}").format(deck=view["deck"])]
    for player in view["players"]:
        name = names.get(player["colour"], "")
        who = translate(player["colour"]).capitalize() + (f" ({name})" if name else "")
        cards = " ".join(map(str, player["cards"])) or "-"
        line = translate("{total} points, cards: {cards}").format(total=player["score"]["total"], cards=cards)
        if player["out"]:
            line += " (" + translate("no more turns") + ")"
        lines.append(f"  {who}: {line}")
    return lines


# -- chance written down ---------------------------------------------------------------------


def parse_chance(state: State, line: str) -> chance.Chance:
    """An outcome from its words in any language (``card 7``, ``Karte 7``, ``carte 7``)."""

    def card(args: list[str]) -> Value:
        if len(args) != 1 or not args[0].isdigit():
            raise ValueError("Name one card by its number.")
        return (int(args[0]),)

    return chance.read(line, _KINDS, {"card": card}, CHANCE)


def format_chance_in(state: State, outcome: chance.Chance, language: str) -> str:
    return f"{CHANCE_WORDS[language][outcome.kind][0]} {outcome.value[0]}"


def drawn(state: State) -> Sequence[chance.Chance]:
    """Every card drawn on the way to ``state``."""
    return tuple(chance.Chance(kind, tuple(value)) for kind, value in state.drawn)


class Chance(base.Chance):
    """Its one part of the contract: chance written down (every other part is the default)."""

    SYNTAX = CHANCE
    WORDS = CHANCE_WORDS
    SEEDED_FIELDS = SEEDED_FIELDS
    parse = staticmethod(parse_chance)
    format_in = staticmethod(format_chance_in)
    drawn = staticmethod(drawn)
