"""Log entries as sentences: English for the terminal and tests, any language for mails.

Every kind of entry has an English template with named fields; ``translate`` (gettext,
outside the engine) is applied to the template and to every English word put into it (seat
names, colours, pieces, dice faces).  :data:`MESSAGES` lists every string ``narrate`` may
pass to ``translate`` so a catalogue can be checked for completeness.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from ..base import AND, Argument, LogEntry, Message, Word
from .constants import GARMENT_COLOURS, PIECES, SEATS, hat, robe
from .state import State

Translate = Callable[[str], str]


def _same(text: str) -> str:
    return text


TEMPLATES: Mapping[str, str] = {
    "submitted": "{seat} has answered.",
    "changed": "{seat} has changed the answer.",
    "sealed": "You answered: {choice}.",
    "dial": "Your dial is set to {official}.",
    "dials": "The dials are set; every dial has a fresh commitment.",
    "start_roll": "{seat} rolls the large fate die to find the start player: {face}.",
    "start_player": "{seat} begins.",
    "target": "{seat} rolls the pavilion die: the target is pavilion {pavilion} ({colour}).",
    "turn": "Turn {turn}: {seat} to move.",
    "no_move": "{seat} cannot move any official; the turn passes.",
    "stopped": "{seat} stops.",
    # counts after a colon: the narration has no plural forms ("1 move(s)" read as a form)
    "plan": "Your plan is under way (planned moves: {moves}).",
    "plan_dropped": "{seat}'s plan ends here (planned moves dropped: {moves}).",
    "plan_broken": "{seat}'s plan ends: a planned move is not possible now.",
    "plan_reason": "Your planned move of {official} is not possible: {reason}",
    "moved": "{seat} moves {official} {path} to {square}.",
    "moved_short": "{seat} moves {official} one square {path} to {square}.",
    "moved_in": "{seat} moves {official} {path} into the target pavilion.",
    "entered": "{official} has entered pavilion {pavilion} and goes to the terrace of banishment.",
    "fate": "{seat} rolls the fate die ({die}): {face}.",
    "dragon_idle": "The dragon: {seat} finds no card to take.",
    "spared": "{seat} takes no card.",
    "challenge": '{seat} asks: "Do you believe me?" ({challengers} may doubt.)',
    "answers": "Believed: {believed}. Doubted: {doubted}.",
    "revealed": "{seat} shows the dial: {official} (salt {salt}).",
    "same_choice": "{seats} bribed the same official too; the card goes to {recipient}.",
    "challenge_result": "{result}",
    "took_pile": "{seat} takes a card from pavilion {pavilion}: {piece} ({colour}).",
    "took": "{seat} takes a card from {giver}: {piece} ({colour}).",
    "empty": "Pavilion {pavilion} is empty: {seat} may take a card of its colour from another player.",
    "nothing": "{seat} finds no card to take.",
    "rebribe": "Re-bribe window: {seat} sets a new dial, the others may change theirs.",
    "extra_turn": "{seat} plays another turn (a believed bluff).",
    "game_over": "The game is over. Scores: {scores}.",
}
RESULTS = {
    "honest": "Everybody believed {seat}, who was honest.",
    "bluff": "Everybody believed {seat}, who bluffed and is rewarded: a card and another turn.",
    "doubted_honest": "{doubter} doubted, but {seat} was honest: {doubter} pays a card.",
    "doubted_bluff": "{doubter} doubted, and {seat} bluffed: {doubter} takes the card and one of {seat}'s.",
}
NOBODY = "nobody"
# the words of the dice (shared with the text board)
DIES = {"small": "small die", "middle": "middle die", "large": "large die"}
FACE_WORDS = {
    "black": "black dot",
    "red": "red face",
    "red-dragon": "red face with the dragon",
    "red-pavilion": "red face with the pavilion",
}
ANSWERS = ("keep", "believe", "doubt")
# a direction of a move, as it reads after "moves ky": words of their own, not the seats' names
# (German says "nach Westen", French "vers l'ouest"); the legs of a path follow one another
DIRECTION_WORDS = {"n": "northward", "e": "eastward", "s": "southward", "w": "westward"}
THEN = "{before}, then {after}"
WORDS = (
    *SEATS,
    *FACE_WORDS.values(),
    *DIES.values(),
    *GARMENT_COLOURS,
    *PIECES,
    NOBODY,
    *ANSWERS,
    *DIRECTION_WORDS.values(),
)
MESSAGES: tuple[str, ...] = (*TEMPLATES.values(), *RESULTS.values(), *WORDS, THEN, AND)


def _seat(state: State, seat: int | None) -> Word:
    if seat is None:
        return Word(NOBODY)
    return Word(state.config.seats[seat], "capitalize")


def _seats(state: State, seats: Any) -> Argument:
    names = [_seat(state, s) for s in seats]
    return Message.listed(names) if names else Word(NOBODY)


def _path(path: Sequence[str]) -> Argument:
    """A move's directions in order: "northward, then eastward"."""
    if not path:
        return ""
    said: Argument = Word(DIRECTION_WORDS[path[0]])
    for step in path[1:]:
        said = Message(THEN, before=said, after=Word(DIRECTION_WORDS[step]))
    return said


def _official(code: str) -> Message:
    return Message.layout("{code} ({hat}/{robe})", code=code, hat=Word(hat(code)), robe=Word(robe(code)))


def narration(state: State, entry: LogEntry) -> Message:
    """``entry`` as a sentence in no language yet: a template of :data:`MESSAGES` and its
    values (kept so by the narration projection)."""
    d = entry.data
    kind = entry.kind
    values: dict[str, Argument] = {}
    if "seat" in d:
        values["seat"] = _seat(state, d["seat"])
    if kind == "entered":
        values["official"] = _official(d["code"])
        values["pavilion"] = d["pavilion"]
    elif kind == "moved":
        kind = "moved_in" if d.get("entered") else "moved_short" if d.get("short") else "moved"
        values["official"] = _official(d["code"])
        values["path"] = _path(d["path"])
        values["square"] = f"({d['to'][0]},{d['to'][1]})"
    elif kind in ("dial",):
        values["official"] = _official(d["code"])
    elif kind == "revealed":
        values["official"] = _official(d["code"])
        values["salt"] = d["salt"]
    elif kind == "sealed":
        choice = d["choice"]
        values["choice"] = Word(choice) if choice in ANSWERS else choice
    elif kind in ("start_roll", "fate"):
        values["face"] = Word(FACE_WORDS[d["face"]])
        values["die"] = Word(DIES[d.get("die", "large")])
    elif kind == "target":
        values["pavilion"] = d["pavilion"]
        values["colour"] = Word(state.board.pavilion(d["pavilion"]).colour)
    elif kind == "turn":
        values["turn"] = d["turn"]
    elif kind in ("plan", "plan_dropped"):
        values["moves"] = d["moves"]
    elif kind == "plan_reason":
        values["official"] = d.get("code", "?")
        reason = Message.from_data(d["reason"])
        values["reason"] = reason if reason else ""
    elif kind == "challenge":
        values["challengers"] = _seats(state, d["challengers"])
    elif kind == "answers":
        values["believed"] = _seats(state, d["believed"])
        values["doubted"] = _seats(state, d["doubted"])
    elif kind == "same_choice":
        values["seats"] = _seats(state, d["seats"])
        values["recipient"] = _seat(state, d["recipient"])
    elif kind == "challenge_result":
        result = Message(RESULTS[d["case"]], seat=values["seat"], doubter=_seat(state, d.get("doubter")))
        values = {"result": result}
    elif kind in ("took_pile", "took"):
        values["colour"] = Word(d["colour"])
        values["piece"] = Word(d["piece"])
        values["pavilion"] = d.get("pavilion", "")
        values["giver"] = _seat(state, d.get("from"))
    elif kind == "empty":
        values["pavilion"] = d["pavilion"]
    elif kind == "game_over":
        values["scores"] = Message.joined(
            [Message.joined([_seat(state, s), str(score)], " ") for s, score in enumerate(d["scores"])]
        )
    template = TEMPLATES.get(kind)
    if template is None:
        return Message.layout("{kind}", kind=kind)
    return Message(template, **values)


def narrate(state: State, entry: LogEntry, translate: Translate = _same) -> str:
    return narration(state, entry).render(translate)


# What each decision asks (``decision_text``), from the seat's view: a phrase that reads after
# "It is your move (north): " and after "North (Ada) must " alike (base.Rules).
DECISIONS: Mapping[str, str] = {
    "dial": "set a secret dial to an official still on the board",
    "rebribe": "keep the dial or set a new one (re-bribe window)",
    "move": "move an official (target pavilion {target}, {colour})",
    "challenge": "believe or doubt {mover}, who moved {official} into pavilion {target}",
    "dragon": "take a card from another player or spare them (the dragon)",
    "penalty": "take a card from {giver} (a won challenge)",
    "empty": "take a card of the target's colour from another player or spare them (the pavilion is empty)",
}
MESSAGES = (*MESSAGES, *DECISIONS.values())
