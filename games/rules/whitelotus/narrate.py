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

from ..base import LogEntry
from .constants import COLOURS, Building
from .state import State

Translate = Callable[[str], str]
Values = Callable[[State, Mapping[str, Any], Translate], dict[str, str]]
Sentence = tuple[str, Values]


def _same(text: str) -> str:
    return text


def _c(state: State, seat: int, t: Translate) -> str:
    """A seat's colour, capitalised: ``Red``."""
    return t(state.config.colours[seat].capitalize())


def _cs(state: State, seats: Iterable[int], t: Translate, sep: str = ", ") -> str:
    return sep.join(_c(state, s, t) for s in seats)


def _a(state: State, area: int) -> str:
    p = state.board.provinces[area]
    return f"{p.name} ({p.number})"


def _b(kind: int, t: Translate) -> str:
    return t(Building(kind).label)


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
    "palaces_as_army": "{palaces_as_army} palace(s) as army",
    "side": "side {side}",
    "army": "army {army}",
}
SEALED_BID = "bid {amount} against {target}"  # a sealed bid: target and amount together


def _bids(s: State, d: Mapping[str, Any], t: Translate) -> dict[str, str]:
    # the target colour is lower case in English: "Red 3 against blue"
    parts = [
        t(BID).format(
            colour=_c(s, b["seat"], t), amount=str(b["amount"]), target=t(s.config.colours[b["target"]])
        )
        for b in d["bids"]
    ]
    tied = d.get("tied")
    tie = t(TIE).format(colours=_cs(s, tied, t)) if tied else ""
    return {"area": _a(s, d["area"]), "bids": "; ".join(parts), "tie": tie}


def _battle(s: State, d: Mapping[str, Any], t: Translate) -> dict[str, str]:
    sides = d["sides"]
    return {
        "loyal": _cs(s, (x for x, v in enumerate(sides) if v == 0), t, "/"),
        "emperor_strength": str(d["emperor_strength"]),
        "rebels": _cs(s, (x for x, v in enumerate(sides) if v == 1), t, "/"),
        "rebel_strength": str(d["rebel_strength"]),
        "armies": ", ".join(f"{_c(s, x, t)} {a}" for x, a in enumerate(d["army"])),
        "result": t(REBELS_WIN if d["winner"] == "rebels" else EMPEROR_WINS),
    }


def _sealed(s: State, d: Mapping[str, Any], t: Translate) -> dict[str, str]:
    parts = []
    if "target" in d and "amount" in d:
        target = t(s.config.colours[d["target"]])  # lower case, as in the bids
        parts.append(t(SEALED_BID).format(amount=str(d["amount"]), target=target))
    for k, v in d.items():
        if k == "seat" or (k in ("target", "amount") and parts):
            continue
        if k in SEALED:
            value = t(v) if isinstance(v, str) and v in SIDE_WORDS else str(v)
            parts.append(t(SEALED[k]).format(**{k: value}))
        else:  # not written by the engine today: shown untranslated
            parts.append(f"{k} {v}")
    return {"choices": ", ".join(parts)}


def _seat(key: str = "seat") -> Values:
    """Values of a sentence that names one seat, as ``{colour}``."""
    return lambda s, d, t: {"colour": _c(s, d[key], t)}


TEXTS: dict[str, Sentence] = {
    "year": (
        "--- Year {year} (emperor: {colour}) ---",
        lambda s, d, t: {"year": str(d["year"]), "colour": _c(s, d["emperor"], t)},
    ),
    "placed": (
        "{colour} places a marker in {area}.",
        lambda s, d, t: {"colour": _c(s, d["seat"], t), "area": _a(s, d["area"])},
    ),
    "passed": ("{colour} passes.", _seat()),
    "no_area": ("{colour} has no area left for a marker.", _seat()),
    "claimed": (
        "{colour} takes {area} ({building}){unopposed}.",
        lambda s, d, t: {
            "colour": _c(s, d["seat"], t),
            "area": _a(s, d["area"]),
            "building": _b(d["building"], t),
            "unopposed": " " + t(UNOPPOSED) if d["how"] == "alone" else "",
        },
    ),
    "contest": (
        "Contest for {area} between {colours}.",
        lambda s, d, t: {"area": _a(s, d["area"]), "colours": _cs(s, d["contenders"], t)},
    ),
    "sealed": ("(You sealed: {choices}.)", _sealed),
    "submitted": ("{colour} has sealed a choice.", _seat()),
    "bids": ("Bids for {area}: {bids}{tie}.", _bids),
    "tie_broken": ("The emperor sends {colour} out.", _seat("out")),
    "out": (
        "{colour} is out of {area} and keeps {kept} influence.",
        lambda s, d, t: {"colour": _c(s, d["seat"], t), "area": _a(s, d["area"]), "kept": str(d["kept"])},
    ),
    "emperor": (
        "{colour} becomes emperor with {palaces} palace(s).",
        lambda s, d, t: {"colour": _c(s, d["seat"], t), "palaces": str(d["palaces"])},
    ),
    "emperor_vp": ("The emperor, {colour}, takes a victory point chip.", _seat()),
    "final_year": ("Every area is held: this is the last year.", lambda s, d, t: {}),
    "no_rebellion": ("There is no rebellion this year.", lambda s, d, t: {}),
    "declined": ("{colour} declines to lead a rebellion.", _seat()),
    "rebellion": (
        "{leader} leads a rebellion against {emperor}.",
        lambda s, d, t: {"leader": _c(s, d["leader"], t), "emperor": _c(s, d["emperor"], t)},
    ),
    "sides": (
        "Sides: {sides}.",
        lambda s, d, t: {
            "sides": ", ".join(
                f"{_c(s, x, t)} {t('rebels' if v else 'emperor')}" for x, v in enumerate(d["sides"])
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
        lambda s, d, t: {
            "colour": _c(s, d["seat"], t),
            "area": _a(s, d["area"]),
            "building": _b(d["building"], t),
            "loser": _c(s, d["from"], t),
        },
    ),
    "consolation": ("{colour} can take no area and takes a VP chip.", _seat()),
    "income": (
        "{colour} receives {influence} influence and {army} army.",
        lambda s, d, t: {
            "colour": _c(s, d["seat"], t),
            "influence": str(d["influence"]),
            "army": str(d["army"]),
        },
    ),
    "no_draw": ("{colour} draws no extra tile.", _seat()),
    "drew": ("(You drew a {building}.)", lambda s, d, t: {"building": _b(d["building"], t)}),
    "tile": (
        "{colour} puts a {building} on {area}.",
        lambda s, d, t: {
            "colour": _c(s, d["seat"], t),
            "building": _b(d["building"], t),
            "area": _a(s, d["area"]),
        },
    ),
    "filled": (
        "The other tiles are placed at random on {count} areas.",
        lambda s, d, t: {"count": str(len(d["tiles"]))},
    ),
    "gift": (
        "{colour} gives {amount} {points} to {receiver}.",
        lambda s, d, t: {
            "colour": _c(s, d["seat"], t),
            "amount": str(d["amount"]),
            "points": t(d["kind"]),
            "receiver": _c(s, d["to"], t),
        },
    ),
    "forced": ("({colour} had a single choice; it is played.)", _seat()),
    "game_over": (
        "The game is over. {scores}.",
        lambda s, d, t: {
            "scores": ", ".join(f"{_c(s, x, t)} {score}" for x, score in enumerate(d["scores"]))
        },
    ),
}

# Every string narrate may pass to translate: format strings first, then the words.
MESSAGES: tuple[str, ...] = tuple(
    dict.fromkeys(
        [fmt for fmt, _ in TEXTS.values()]
        + [BID, TIE, SEALED_BID, *SEALED.values()]
        + [c.capitalize() for c in COLOURS]
        + list(COLOURS)  # lower case, as the target of a bid
        + [b.label for b in Building]
        + [*SIDE_WORDS, REBELS_WIN, EMPEROR_WINS, UNOPPOSED, *POINT_WORDS]
    )
)


def narrate(state: State, entry: LogEntry, translate: Translate = _same) -> str:
    """``entry`` as a sentence; ``translate`` maps each of :data:`MESSAGES` to the reader's
    language (the default keeps English).  An unknown kind is shown as its data, untranslated."""
    sentence = TEXTS.get(entry.kind)
    if sentence is None:
        return f"{entry.kind}: {dict(entry.data)}"
    fmt, values = sentence
    return translate(fmt).format(**values(state, entry.data, translate))
