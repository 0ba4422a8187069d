"""Sealed Bids: the smallest game the service hosts, written with the contract's required names
and nothing else (games.rules.base.REQUIRED).  A card game with no board, no chance, no options
and no edition: each seat holds the cards 1 to 5; five prizes (5, 4, 3, 2, 1) come up one a
round; every seat bids a card from its hand, sealed; the highest bid nobody else made wins the
prize (tied bids win nothing) and every bid card is spent.  The most prize points win.

Registered only by the tests (``registry.register("sealedbids", sealedbids)``), so that the
service is shown to need nothing more of a game; docs/ADDING-A-GAME.md walks through it.  Its
German and French are its own catalogue, beside it (``locale/<language>/LC_MESSAGES/django.po``
and the compiled ``.mo``): every sentence and word below that the reader's ``translate`` is
asked for, found by ``registry.locale_dirs()`` while it is registered.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from games.rules.base import Config, Decision, IllegalCommand, LogEntry, Message, Outcome, Translate, Word

title = "Sealed Bids"
player_counts = (2, 3, 4)
seat_colours = ("amber", "jade", "ivory", "onyx")

CARDS = (1, 2, 3, 4, 5)
PRIZES = (5, 4, 3, 2, 1)  # one a round, in this order
KEYWORD = {"en": "bid", "de": "biete", "fr": "mise"}


@dataclass(frozen=True)
class Bid:
    card: int


@dataclass(frozen=True)
class State:
    config: Config
    seed: str
    hands: tuple[tuple[int, ...], ...]
    won: tuple[int, ...]  # prize points per seat
    bids: tuple[int | None, ...]  # this round's sealed bids (None: not yet)
    round: int = 0  # the prize up is PRIZES[round]; len(PRIZES): over

    @property
    def finished(self) -> bool:
        return self.round >= len(PRIZES)


def setup(config: Config, seed: str) -> State:
    n = config.players
    return State(config, seed, (CARDS,) * n, (0,) * n, (None,) * n)


def pending(state: State) -> tuple[Decision, ...]:
    if state.finished:
        return ()
    return tuple(Decision(s, "bid", sealed=True) for s, bid in enumerate(state.bids) if bid is None)


def legal(state: State, seat: int) -> tuple[Bid, ...]:
    if state.finished or state.bids[seat] is not None:
        return ()
    return tuple(Bid(card) for card in state.hands[seat])


def apply(state: State, seat: int, command: Bid) -> tuple[State, list[LogEntry]]:
    if state.finished or state.bids[seat] is not None:
        raise IllegalCommand(Message("You have no bid to make now."))
    if command.card not in state.hands[seat]:
        cards = ", ".join(str(c) for c in state.hands[seat])
        raise IllegalCommand(
            Message("You have no card {card} left: bid one of {cards}.", card=command.card, cards=cards),
            [f"bid {c}" for c in state.hands[seat]],
        )
    bids = (*state.bids[:seat], command.card, *state.bids[seat + 1 :])
    state = replace(state, bids=bids)
    log = [LogEntry("sealed", {"seat": seat})]
    if any(b is None for b in bids):
        return state, log
    return _resolve(state, log)


def _resolve(state: State, log: list[LogEntry]) -> tuple[State, list[LogEntry]]:
    bids = tuple(b or 0 for b in state.bids)
    prize = PRIZES[state.round]
    unique = [b for b in bids if bids.count(b) == 1]
    winner = bids.index(max(unique)) if unique else None
    log.append(LogEntry("bids", {"bids": list(bids)}))
    won = state.won
    if winner is not None:
        won = (*won[:winner], won[winner] + prize, *won[winner + 1 :])
    log.append(LogEntry("prize", {"seat": winner, "prize": prize}))
    hands = tuple(tuple(c for c in hand if c != bid) for hand, bid in zip(state.hands, bids, strict=True))
    state = replace(state, hands=hands, won=won, bids=(None,) * len(bids), round=state.round + 1)
    if state.finished:
        log.append(LogEntry("over", {}))
    return state, log


def view(state: State, seat: int | None) -> dict[str, Any]:
    colours = state.config.colours
    out: dict[str, Any] = {
        "players": [
            {"seat": s, "colour": c, "score": {"total": state.won[s]}, "cards": len(state.hands[s])}
            for s, c in enumerate(colours)
        ],
        "pending": [
            {"seat": d.seat, "colour": colours[d.seat], "kind": d.kind, "sealed": True}
            for d in pending(state)
        ],
        "phase": "finished" if state.finished else "bidding",
        "round": state.round + 1,
        "prize": None if state.finished else PRIZES[state.round],
    }
    if seat is not None:
        out["you"] = colours[seat]
        out["hand"] = list(state.hands[seat])
        bid = state.bids[seat] if not state.finished else None
        out["sealed"] = {"bid": bid} if bid is not None else None
    if state.finished:
        out["seed"] = state.seed
    return out


def default(state: State, seat: int) -> Bid:
    return Bid(min(state.hands[seat]))


def outcome(state: State) -> Outcome | None:
    if not state.finished:
        return None
    scores = state.won
    rank = tuple(1 + sum(other > mine for other in scores) for mine in scores)
    return Outcome(scores, tuple({"prizes": s} for s in scores), rank)


def parse_command(state: State, text: str) -> Bid:
    words = text.split()
    if len(words) != 2 or words[0].lower() not in KEYWORD.values():
        raise IllegalCommand(Message("Write your bid as bid and a card: bid 3."))
    if not words[1].isdigit():
        raise IllegalCommand(Message("A bid is a card's number: bid 3."))
    return Bid(int(words[1]))


def format_command_in(state: State, command: Bid, language: str) -> str:
    return f"{KEYWORD[language]} {command.card}"


def narration(state: State, entry: LogEntry) -> Message:
    colours = state.config.colours

    def seat(s: int) -> Word:
        return Word(colours[s], "capitalize")

    if entry.kind == "sealed":
        return Message("{seat} has made a sealed bid.", seat=seat(entry.data["seat"]))
    if entry.kind == "bids":
        bids = [
            Message.layout("{seat} {card}", seat=seat(s), card=b) for s, b in enumerate(entry.data["bids"])
        ]
        return Message("The bids are shown: {bids}.", bids=Message.joined(bids))
    if entry.kind == "prize" and entry.data["seat"] is None:
        return Message("Every bid was tied: nobody wins the prize of {prize}.", prize=entry.data["prize"])
    if entry.kind == "prize":
        return Message(
            "{seat} wins the prize of {prize}.", seat=seat(entry.data["seat"]), prize=entry.data["prize"]
        )
    return Message("The last prize is taken: the game is over.")


def text_board(view: Mapping[str, Any], names: Mapping[str, str], translate: Translate) -> list[str]:
    if view["prize"] is None:
        lines = [translate("All prizes are taken.")]
    else:
        lines = [translate("Round {round} of 5: the prize is {prize}.").format(**view)]
    for player in view["players"]:
        name = names.get(player["colour"], "")
        who = f"{translate(player['colour']).capitalize()}" + (f" ({name})" if name else "")
        points = translate("{points} points, {cards} cards").format(
            points=player["score"]["total"], cards=player["cards"]
        )
        lines.append(f"  {who}: {points}")
    return lines
