"""Rules shared by several phases: holdings and chip limits, claiming an area, the emperor."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from ..base import Argument, IllegalCommand, LogEntry, Message, Word
from .constants import CHIP_LIMIT, CHIPS_PER_COLOUR, Building
from .state import State, evolve, set_area


def colour(state: State, seat: int) -> str:
    return state.config.colours[seat]


def area_name(state: State, area: int) -> str:
    return state.board.label(area)


def holdings(state: State, seat: int) -> list[int]:
    """Chips ``seat`` has on the board: index 0 = all chips, index k = Building k."""
    return list(state.census().held[seat])


def room_for(held: Sequence[int], kind: int) -> bool:
    """Is a chip of ``kind`` left, given chips already used (see :func:`holdings`)?

    Each colour has 16 chips with 3 palace, 4 temple, 5 fort and 4 ricefield fronts and a
    village on every back (001 "Spielmaterial"): so at most that many of each building,
    and 16 areas in all."""
    return held[kind] < _LIMITS[kind] and held[0] < CHIPS_PER_COLOUR


_LIMITS = (0, *(CHIP_LIMIT[b] for b in Building))


def claim(state: State, seat: int, area: int, log: list[LogEntry], how: str) -> State:
    """``seat`` takes a neutral area: its tile is swapped for the seat's chip of the same
    building and the marker comes back (001 2a and 2b.7)."""
    if not room_for(holdings(state, seat), state.building[area]):  # placement prevents it
        raise AssertionError(f"{colour(state, seat)} has no chip left for {area_name(state, area)}")
    state = set_area(state, area, owner=seat, markers=0)
    log.append(
        LogEntry("claimed", {"seat": seat, "area": area, "building": state.building[area], "how": how})
    )
    return update_emperor(state, log)


def update_emperor(state: State, log: list[LogEntry], took_from: tuple[int, ...] = ()) -> State:
    """Whoever holds more palaces than the emperor becomes emperor at once; an equal number
    changes nothing (001 "Weitere Regeln", 002 "The Emperor is always ...").

    If several hold the same larger number, the one who took a palace from the (old)
    emperor wins (001 "Nachtrag"), listed in ``took_from``; failing that, the first of them
    clockwise from the emperor (RULES.md, decision D7)."""
    current = state.emperor
    counts = [h[Building.PALACE] for h in state.census().held]
    best = max(counts)
    if best <= counts[current]:
        return state
    candidates = [s for s in state.seats_from(current) if counts[s] == best]
    takers = [s for s in took_from if s in candidates]
    new = takers[0] if takers else candidates[0]
    log.append(LogEntry("emperor", {"seat": new, "previous": current, "palaces": best}))
    return evolve(state, emperor=new)


def not_your_turn(state: State, wanted: int, what: Message) -> IllegalCommand:
    """The refusal of a seat playing when ``wanted`` is to do ``what`` (callers test the seat
    first, so that a legal move builds no message)."""
    return IllegalCommand(
        Message("It is not your turn: {colour} is to {what}.", colour=colour_word(state, wanted), what=what)
    )


def wrong_command(state: State, seat: int, command_kind: str, now: Message) -> IllegalCommand:
    # the command's keyword in the reader's language, as the menu writes it (a temple's extra
    # draw is written "tile")
    keyword = "tile" if command_kind == "draw" else command_kind
    return IllegalCommand(Message("'{command}' is not a move now: {now}.", command=Word(keyword), now=now))


def colour_word(state: State, seat: int) -> Word:
    """A seat's colour in a message, said in the reader's language (lower case: ``red``)."""
    return Word(colour(state, seat))


def alternatives(choices: Sequence[Argument]) -> Message:
    """``a or b or c`` in the reader's language."""
    if len(choices) == 1:
        return Message("{text}", text=choices[0])
    return Message("{first} or {rest}", first=choices[0], rest=alternatives(choices[1:]))


def all_of(state: State, seats: Sequence[int], case: str = "") -> Message:
    """Colours as ``blue, green`` (``case="capitalize"``: as seats' names, ``Blue, Green``)."""
    words = [Word(colour(state, s), case) for s in seats]
    message = Message("{text}", text=words[-1]) if words else Message("{text}", text="")
    for word in reversed(words[:-1]):
        message = Message("{first}, {rest}", first=word, rest=message)
    return message


def either(state: State, seats: Iterable[int]) -> Message:
    """Colours as ``blue or green``."""
    return alternatives([colour_word(state, s) for s in seats])


def popcount(mask: int) -> int:
    return mask.bit_count()
