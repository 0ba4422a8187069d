"""What Die Verbotene Stadt's own mail partials (``mail/verbotenestadt/_board.*``, the
game-over mail) show besides its text board: facts drawn from the seat's view, its menu and
the game's outcome, in the reader's language (its optional ``mail_facts``,
:meth:`games.rules.base.Presentation.mail_facts`).  Pure Python: its words are said through the service's
``say`` (gettext, plurals, colours, places), so the catalogue keeps them."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ..base import Asked, Message, Say


def gettext_noop(text: str) -> str:
    """Marks an English msgid for the catalogue (said later through ``say``)."""
    return text


ANSWERS = {"keep": gettext_noop("keep"), "believe": gettext_noop("believe"), "doubt": gettext_noop("doubt")}
# the groups a final score counts, as (singular, plural) msgids
GROUPS = {
    "triples": ("%(n)s triple", "%(n)s triples"),
    "suits": ("%(n)s suit (hat, coat, trousers)", "%(n)s suits (hat, coat, trousers)"),
    "pairs": ("%(n)s pair", "%(n)s pairs"),
    "singles": ("%(n)s single", "%(n)s singles"),
}
CARDS = ("%(n)s card", "%(n)s cards")
NO_CARDS = "no cards"
COUNTED = "%(cards)s: %(groups)s"
TIED = "%(place)s (tied)"
# the same counts as sentences kept to be said later (``score_parts``: a Message, "one" and
# "other" each a msgid of the catalogue)
SCORE_GROUPS = {
    "triples": ("{n} triple", "{n} triples"),
    "suits": ("{n} suit (hat, coat, trousers)", "{n} suits (hat, coat, trousers)"),
    "pairs": ("{n} pair", "{n} pairs"),
    "singles": ("{n} single", "{n} singles"),
}
SCORE_CARDS = ("{n} card", "{n} cards")
SCORE_COUNTED = "{cards}: {groups}"
# every msgid the facts say (the game's MESSAGES: the catalogue test holds each to de and fr)
WORDS: tuple[str, ...] = (
    *ANSWERS.values(),
    *(singular for singular, _ in GROUPS.values()),
    CARDS[0],
    NO_CARDS,
    COUNTED,
    TIED,
    *(said for pair in (*SCORE_GROUPS.values(), SCORE_CARDS) for said in pair),
    SCORE_COUNTED,
)
PLAN_MOVES = 2  # moves in the example of a plan


def _official(code: str, say: Say) -> str:
    """``rg (red/green)`` in the reader's language (as the narration says it)."""
    initials = {"r": "red", "y": "yellow", "b": "blue", "g": "green", "k": "black"}
    if len(code) != 2 or any(c not in initials for c in code):
        return code
    return f"{code} ({say(initials[code[0]])}/{say(initials[code[1]])})"


def _seat_name(view: Mapping[str, Any], seat: Any, names: Mapping[str, str], say: Say) -> str:
    for player in view.get("players") or ():
        if player["seat"] == seat:
            colour = str(player["colour"])
            name = names.get(colour, "")
            said = say.colour(colour).capitalize()
            return f"{said} ({name})" if name else said
    return str(seat)


def _cards(cards: Sequence[Mapping[str, str]], say: Say) -> str:
    return ", ".join(f"{say(c['piece'])} ({say(c['colour'])})" for c in cards)


def _plan_example(asked: Asked) -> tuple[str, str]:
    """A plan of moves from the menu (different officials, none into the target, then stop)
    and one move into the target if there is one, in the reader's language."""
    rules, state = asked.rules, asked.state
    moves = [rules.serial.command_to_dict(c) for c in asked.legal]
    moves = [m for m in moves if m.get("kind") == "move"]
    chosen: list[dict[str, Any]] = []
    for m in moves:
        if len(m["path"]) == 1 and all(m["code"] != c["code"] for c in chosen):
            chosen.append(m)
        if len(chosen) == PLAN_MOVES:
            break
    if not chosen:
        return "", ""
    plan = rules.serial.command_from_dict({"kind": "plan", "moves": chosen, "stop": True})
    move = rules.serial.command_from_dict(chosen[0])
    return rules.format_command_in(state, plan, asked.language), rules.format_command_in(
        state, move, asked.language
    )


def mail_facts(asked: Asked, say: Say) -> dict[str, Any]:
    view, seat = asked.view, asked.seat
    me = next((p for p in view.get("players") or () if p["seat"] == seat), None)
    out: dict[str, Any] = {}
    dial = (view.get("dial") or {}).get("code")
    if me is not None:
        out["my_dial"] = _official(dial, say) if dial else ""
        out["my_cards"] = _cards(me.get("cards") or (), say)
        out["my_score"] = (me.get("score") or {}).get("total", 0)
        partner = me.get("partner")
        out["my_partner"] = _seat_name(view, partner, asked.names, say) if partner is not None else ""
    target = view.get("target")
    if target:
        pavilion = next((p for p in view.get("pavilions") or () if p["number"] == target), None)
        out["target"] = target
        out["target_colour"] = say(pavilion["colour"]) if pavilion else ""
    if asked.decision == "move":
        out["plan_example"], out["move_example"] = _plan_example(asked)
    sealed = (view.get("sealed") or {}).get("choice")
    if sealed:
        out["my_answer"] = say(ANSWERS[sealed]) if sealed in ANSWERS else _official(str(sealed), say)
    out["dial_window"] = asked.decision == "dial"
    if asked.decision in ("rebribe", "challenge"):
        out["window"] = asked.decision
        entry = view.get("entry") or {}
        out["mover"] = _seat_name(view, entry.get("seat"), asked.names, say) if entry else ""
        out["entered"] = _official(str(entry.get("code", "")), say) if entry else ""
        out["pavilion"] = entry.get("pavilion", "")
        # a dial whose official is on the terrace cannot be kept: the default draws a new one
        on_board = {o["code"] for o in view.get("officials") or () if o.get("square") is not None}
        out["dial_by_lot"] = bool(dial) and dial not in on_board
    if asked.outcome is not None:
        out.update(_results(asked, say))
    return out


def _results(asked: Asked, say: Say) -> dict[str, Any]:
    """The final places, each seat's cards and groups, and the partnerships' results."""
    view, outcome = asked.view, asked.outcome
    order = sorted(range(len(outcome.rank)), key=lambda s: (outcome.rank[s], s))
    tied = {r for r in outcome.rank if list(outcome.rank).count(r) > 1}
    rows = []
    for s in order:
        b = dict(outcome.breakdown[s])
        rows.append(
            {
                "place": _place(outcome.rank[s], tied, say),
                "seat": _seat_name(view, s, asked.names, say),
                "total": b.get("total", outcome.scores[s]),
                "own": b.get("own", b.get("total", 0)),
                "cards": b.get("cards", 0),
                "singles": b.get("singles", 0),
                "pairs": b.get("pairs", 0),
                "triples": b.get("triples", 0),
                "suits": b.get("suits", 0),
                "groups": _groups(b, say),
            }
        )
    partnerships = []
    done: set[int] = set()
    for s in order:
        partner = outcome.breakdown[s].get("partner")
        if partner is None or s in done:
            continue
        done |= {s, int(partner)}
        partnerships.append(
            {
                "seats": say.joined(
                    [_seat_name(view, s, asked.names, say), _seat_name(view, int(partner), asked.names, say)]
                ),
                "place": _place(outcome.rank[s], tied, say),
                "total": outcome.scores[s],
                "won": outcome.rank[s] == 1,
            }
        )
    mine = outcome.breakdown[asked.seat].get("partner")
    return {
        "results": rows,
        "partnerships": partnerships,
        "partnered": mine is not None,
        "won": outcome.rank[asked.seat] == 1,
    }


def _groups(breakdown: Mapping[str, Any], say: Say) -> str:
    """``9 cards: 2 triples, 1 pair, 1 single``: the groups a seat scored, the empty ones left
    out ("0 single, 0 suit groups" read as a form)."""
    cards = int(breakdown.get("cards", 0))
    if not cards:
        return say(NO_CARDS)
    said = [
        say.plural(*GROUPS[group], n) % {"n": n} for group in GROUPS if (n := int(breakdown.get(group, 0)))
    ]
    counted = say.plural(*CARDS, cards) % {"n": cards}
    if not said:
        return counted
    return say(COUNTED) % {"cards": counted, "groups": ", ".join(said)}


def score_parts(breakdown: Mapping[str, int]) -> Message:
    """A final score's parts as the game-over mail's table says them: "9 cards: 2 triples,
    1 pair, 1 single" (the groups a seat scored, the empty ones left out; its partner's seat
    and its own points are the table's other columns, not parts)."""
    cards = int(breakdown.get("cards", 0))
    if not cards:
        return Message(NO_CARDS)
    counted = Message.counted(cards, *SCORE_CARDS, n=cards)
    groups = [
        Message.counted(n, *SCORE_GROUPS[group], n=n)
        for group in SCORE_GROUPS
        if (n := int(breakdown.get(group, 0)))
    ]
    if not groups:
        return counted
    return Message(SCORE_COUNTED, cards=counted, groups=Message.joined(groups))


def _place(rank: int, tied: set[int], say: Say) -> str:
    place = say.place(rank)
    return say(TIED) % {"place": place} if rank in tied else place
