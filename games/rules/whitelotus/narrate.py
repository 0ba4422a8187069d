"""Log entries as sentences: English for the terminal (selfplay, show_game) and tests, any
language for mails.

Every kind of entry has a format string with named placeholders and a function computing the
placeholder values.  A ``translate`` function (gettext, outside the engine) is applied to the
format string and to every English word or phrase inserted into it (colours, buildings,
sides...); province names and numbers are not translated.  :data:`MESSAGES` lists every string
``narrate`` may pass to ``translate``, so a catalogue can be checked for completeness.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any

from ..base import AND, LANGUAGE_CODE, Argument, LogEntry, Message, Translate, Word
from .constants import COLOURS, Building
from .state import State

Values = Callable[[State, Mapping[str, Any]], dict[str, Argument]]
Sentence = tuple[str, Values]


def _same(text: str) -> str:
    return text


def _c(state: State, seat: int) -> Word:
    """A seat's colour, capitalised: ``Red``."""
    return Word(state.config.colours[seat].capitalize())


def _cs(state: State, seats: Iterable[int], sep: str = ", ") -> Message:
    return Message.joined([_c(state, s) for s in seats], sep)


def _listed(state: State, seats: Iterable[int]) -> Argument:
    """Seats' colours as a list in a sentence: "Red, Green and Yellow"."""
    return Message.listed([_c(state, s) for s in seats])


def _a(state: State, area: int) -> str:
    p = state.board.provinces[area]
    return f"{p.name} ({p.number})"


def _b(kind: int) -> Word:
    return Word(Building(kind).label)


def _pair(first: Argument, second: Argument) -> Message:
    """ "Red 3", "Blue rebels": a word and what goes with it."""
    return Message.joined([first, second], " ")


# Parts of sentences, translated on their own.
BID = "{colour} {amount} against {target}"
TIE = "; tie between {colours}"
REBELS_WIN = "The rebels win"
EMPEROR_WINS = "The emperor wins"
UNOPPOSED = "unopposed"
SIDE_WORDS = ("rebels", "emperor")
POINT_WORDS = ("influence", "army")
# "(You sealed: ...)": one part per key of the entry, in its order.
SEALED = {
    "amount": "amount {amount}",
    "palaces_as_army": "{palaces_as_army} palace as army",
    "side": "side {side}",
    "army": "army {army}",
}
# the sentences about a number of things, said in the form the number asks: (one, other)
PALACES_AS_ARMY = (SEALED["palaces_as_army"], "{palaces_as_army} palaces as army")
EMPEROR = (
    "{colour} becomes emperor with {palaces} palace.",
    "{colour} becomes emperor with {palaces} palaces.",
)
SEALED_BID = "bid {amount} against {target}"  # a sealed bid: target and amount together


def _bids(s: State, d: Mapping[str, Any]) -> dict[str, Argument]:
    # the target colour is lower case in English: "Red 3 against blue"
    parts: list[Argument] = [
        Message(
            BID, colour=_c(s, b["seat"]), amount=str(b["amount"]), target=Word(s.config.colours[b["target"]])
        )
        for b in d["bids"]
    ]
    tied = d.get("tied")
    tie: Argument = Message(TIE, colours=_listed(s, tied)) if tied else ""
    return {"area": _a(s, d["area"]), "bids": Message.joined(parts, "; "), "tie": tie}


def _battle(s: State, d: Mapping[str, Any]) -> dict[str, Argument]:
    sides = d["sides"]
    return {
        "loyal": _cs(s, (x for x, v in enumerate(sides) if v == 0), "/"),
        "emperor_strength": str(d["emperor_strength"]),
        "rebels": _cs(s, (x for x, v in enumerate(sides) if v == 1), "/"),
        "rebel_strength": str(d["rebel_strength"]),
        "armies": Message.joined([_pair(_c(s, x), str(a)) for x, a in enumerate(d["army"])]),
        "result": Word(REBELS_WIN if d["winner"] == "rebels" else EMPEROR_WINS),
    }


def _sealed(s: State, d: Mapping[str, Any]) -> dict[str, Argument]:
    parts: list[Argument] = []
    if "target" in d and "amount" in d:
        target = Word(s.config.colours[d["target"]])  # lower case, as in the bids
        parts.append(Message(SEALED_BID, amount=str(d["amount"]), target=target))
    for k, v in d.items():
        if k == "seat" or (k in ("target", "amount") and parts):
            continue
        if k == "palaces_as_army":
            parts.append(Message.counted(int(v), *PALACES_AS_ARMY, palaces_as_army=str(v)))
        elif k in SEALED:
            value: Argument = Word(v) if isinstance(v, str) and v in SIDE_WORDS else str(v)
            parts.append(Message(SEALED[k], **{k: value}))
        else:  # not written by the engine today: shown untranslated
            parts.append(f"{k} {v}")
    return {"choices": Message.joined(parts)}


def _seat(key: str = "seat") -> Values:
    """Values of a sentence that names one seat, as ``{colour}``."""
    return lambda s, d: {"colour": _c(s, d[key])}


TEXTS: dict[str, Sentence] = {
    "year": (
        "--- Year {year} (emperor: {colour}) ---",
        lambda s, d: {"year": str(d["year"]), "colour": _c(s, d["emperor"])},
    ),
    "placed": (
        "{colour} places a marker in {area}.",
        lambda s, d: {"colour": _c(s, d["seat"]), "area": _a(s, d["area"])},
    ),
    "passed": ("{colour} passes.", _seat()),
    "no_area": ("{colour} has no area left for a marker.", _seat()),
    "claimed": (
        "{colour} takes {area} ({building}){unopposed}.",
        lambda s, d: {
            "colour": _c(s, d["seat"]),
            "area": _a(s, d["area"]),
            "building": _b(d["building"]),
            "unopposed": Message.joined([" ", Word(UNOPPOSED)], "") if d["how"] == "alone" else "",
        },
    ),
    "contest": (
        "Contest for {area} between {colours}.",
        lambda s, d: {"area": _a(s, d["area"]), "colours": _listed(s, d["contenders"])},
    ),
    "sealed": ("(You sealed: {choices}.)", _sealed),
    "submitted": ("{colour} has sealed a choice.", _seat()),
    "bids": ("Bids for {area}: {bids}{tie}.", _bids),
    "tie_broken": ("The emperor sends {colour} out.", _seat("out")),
    "out": (
        "{colour} is out of {area} and keeps {kept} influence.",
        lambda s, d: {"colour": _c(s, d["seat"]), "area": _a(s, d["area"]), "kept": str(d["kept"])},
    ),
    "emperor": (
        EMPEROR[0],
        lambda s, d: {"colour": _c(s, d["seat"]), "palaces": str(d["palaces"])},
    ),
    "emperor_vp": ("The emperor, {colour}, takes a victory point chip.", _seat()),
    "final_year": ("Every area is held: this is the last year.", lambda s, d: {}),
    "no_rebellion": ("There is no rebellion this year.", lambda s, d: {}),
    "declined": ("{colour} declines to lead a rebellion.", _seat()),
    "rebellion": (
        "{leader} leads a rebellion against {emperor}.",
        lambda s, d: {"leader": _c(s, d["leader"]), "emperor": _c(s, d["emperor"])},
    ),
    "sides": (
        "Sides: {sides}.",
        lambda s, d: {
            "sides": Message.joined(
                [_pair(_c(s, x), Word("rebels" if v else "emperor")) for x, v in enumerate(d["sides"])]
            )
        },
    ),
    "battle": (
        "Battle: emperor's side {loyal} {emperor_strength} against rebels {rebels} {rebel_strength} "
        "(army: {armies}). {result}.",
        _battle,
    ),
    "pick_order": ("The emperor lets {colour} pick first.", _seat("first")),
    "took": (
        "{colour} takes {area} ({building}) from {loser}.",
        lambda s, d: {
            "colour": _c(s, d["seat"]),
            "area": _a(s, d["area"]),
            "building": _b(d["building"]),
            "loser": _c(s, d["from"]),
        },
    ),
    "consolation": ("{colour} can take no area and takes a VP chip.", _seat()),
    "income": (
        "{colour} receives {influence} influence and {army} army.",
        lambda s, d: {
            "colour": _c(s, d["seat"]),
            "influence": str(d["influence"]),
            "army": str(d["army"]),
        },
    ),
    "no_draw": ("{colour} draws no extra tile.", _seat()),
    "drew": ("(You drew a {building}.)", lambda s, d: {"building": _b(d["building"])}),
    "tile": (
        "{colour} puts a {building} on {area}.",
        lambda s, d: {
            "colour": _c(s, d["seat"]),
            "building": _b(d["building"]),
            "area": _a(s, d["area"]),
        },
    ),
    "filled": (
        "The other tiles are placed at random on {count} areas.",
        lambda s, d: {"count": str(len(d["tiles"]))},
    ),
    "gift": (
        "{colour} gives {amount} {points} to {receiver}.",
        lambda s, d: {
            "colour": _c(s, d["seat"]),
            "amount": str(d["amount"]),
            "points": Word(d["kind"]),
            "receiver": _c(s, d["to"]),
        },
    ),
    "forced": ("({colour} had a single choice; it is played.)", _seat()),
    "game_over": (
        "The game is over. {scores}.",
        lambda s, d: {
            "scores": Message.joined([_pair(_c(s, x), str(score)) for x, score in enumerate(d["scores"])])
        },
    ),
}

# Every string narrate may pass to translate: format strings first, then the words.
MESSAGES: tuple[str, ...] = tuple(
    dict.fromkeys(
        [fmt for fmt, _ in TEXTS.values()]
        + [BID, TIE, AND, SEALED_BID, *SEALED.values(), *PALACES_AS_ARMY, *EMPEROR, LANGUAGE_CODE]
        + [c.capitalize() for c in COLOURS]
        + list(COLOURS)  # lower case, as the target of a bid
        + [b.label for b in Building]
        + [*SIDE_WORDS, REBELS_WIN, EMPEROR_WINS, UNOPPOSED, *POINT_WORDS]
    )
)


def narration(state: State, entry: LogEntry) -> Message:
    """``entry`` as a sentence in no language yet: a template of :data:`MESSAGES` and its
    values (kept so by the narration projection).  An unknown kind is its data, untranslated."""
    sentence = TEXTS.get(entry.kind)
    if sentence is None:
        return Message.layout("{text}", text=f"{entry.kind}: {dict(entry.data)}")
    fmt, values = sentence
    if entry.kind == "emperor":  # said of one palace or of several
        return Message.counted(int(entry.data["palaces"]), *EMPEROR, **values(state, entry.data))
    return Message(fmt, **values(state, entry.data))


def narrate(state: State, entry: LogEntry, translate: Translate = _same) -> str:
    """``entry`` as a sentence; ``translate`` maps each of :data:`MESSAGES` to the reader's
    language (the default keeps English)."""
    return narration(state, entry).render(translate)


def sealed_text(sealed: Mapping[str, Any] | None, translate: Translate = _same) -> str:
    """A seat's own sealed choice from its view (``view["sealed"]``), in the words the
    narration uses for it: "bid 3 against green", "side rebels, army 2"."""
    t = translate
    parts = []
    for key, value in (sealed or {}).items():
        if key == "bid":
            against = t(value["against"])
            parts.append(t(SEALED_BID).format(amount=value["amount"], target=against))
        elif key == "palaces_as_army":
            parts.append(Message.counted(value, *PALACES_AS_ARMY, palaces_as_army=value).render(t))
        elif key == "army":
            parts.append(t(SEALED[key]).format(**{key: value}))
        elif key == "side":
            parts.append(t(SEALED["side"]).format(side=t(value)))
        elif value is not None:  # not in a view today: shown as it is
            parts.append(f"{key} {value}")
    return ", ".join(parts)
