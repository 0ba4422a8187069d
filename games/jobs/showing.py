"""``manage.py show_game``: a game as the operator reads it (its text board, who is waited
for, the log narrated for a seat or for the moderator)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from django.utils import timezone

from games import services
from games.jobs.common import JobError, _seats, status_of
from games.models import Game, Player
from games.presentation.display import view_of
from games.projections import narration
from games.rules import operatortext
from games.rules.base import Message, Rules

# --- show_game ----------------------------------------------------------------------------


def seat_of_colour(game: Game, colour: str) -> int:
    seat = game.seats.filter(colour=colour.strip().lower()).first()
    if seat is None:
        colours = ", ".join(s.colour for s in _seats(game))
        raise JobError(f"Game {game.pk} has no seat '{colour}' (its colours: {colours}).")
    return seat.position


@dataclass(frozen=True)
class Narrated:
    sealed: bool  # the command was a sealed choice (its text is private to its seat)
    lines: list[str]


def narrated_log(game: Game, seat: int | None = None, *, everything: bool = False) -> dict[int, Narrated]:
    """What the engine said about each move event in effect (by seq), in English: the public
    entries and those private to ``seat`` (every entry if ``everything``).  Read from the
    narration projection (``games.projections.narration``; replayed where it lacks moves)."""
    out: dict[int, Narrated] = {}
    head = game.events.order_by("-seq").values_list("seq", flat=True).first() or 0  # as it is now
    for seq, stored in narration.told(game, 0, head):
        said = [line for line in stored if line["k"] != "default"]  # the engine's, not a default's
        sealed = any(line["k"] == "sealed" and line["to"] is not None for line in said)
        shown = [Message.from_data(line["m"]) for line in said if everything or line["to"] in (None, seat)]
        out[seq] = Narrated(sealed, [message.render() for message in shown if message is not None])
    return out


def show_game(game: Game, *, colour: str | None = None, log: int = 10, moderator: bool = False) -> str:
    """The game as a readable text board, seen by the seat ``colour`` or by a spectator,
    with the last ``log`` events and what the engine said about them (everything, sealed
    choices included, for a ``moderator``)."""
    seat = seat_of_colour(game, colour) if colour else None
    rules = services.rules_of(game)
    state = services.head_state(game)
    view = view_of(game, state, seat)
    seats = {s.colour: s.player for s in _seats(game)}
    out = [
        f"Game {game.pk}{f' ({game.name})' if game.name else ''}: {rules.title}, {game.edition}, "
        f"board {game.board}, {status_of(game)}, event #{game.head_seq}",
    ]
    own = rules.presentation.operator_text  # the game's own text for the operator, if any
    if own is not None:
        out += own(view, {colour: str(player) for colour, player in seats.items()})
    else:
        out += _game_text(rules, view, seats)
    if seat is not None and "you" not in view:
        # a game whose view does not name its seat: what this seat alone sees, in words
        public = view_of(game, state, None)
        private = _pruned({k: v for k, v in view.items() if public.get(k) != v})
        colour = _seats(game)[seat].colour
        out += ["", f"As {colour}: {operatortext.words(private) or 'nothing hidden from the others'}"]
    if seat is not None:
        menu = rules.notation.describe(state, seat)
        if menu:
            out += ["  you may:", *(f"    {line}" for line in menu)]
    if log > 0:
        out += ["", *event_lines(game, log, seat, moderator=moderator)]
    mismatch = services.version_mismatch(game)
    if mismatch is not None:  # said first: what is shown was built by other rules than the game's
        out = [f"WARNING: {mismatch.render()}", *out]
    return "\n".join(out)


def _game_text(rules: Rules, view: Mapping[str, Any], seats: Mapping[str, Player]) -> list[str]:
    """A game's text board (``rules.text_board``), who must decide, the result, and what
    the seat sees alone."""
    names = {colour: player.name for colour, player in seats.items()}
    out = []
    if "seed_digest" in view:
        out.append(
            f"seed hash: {view['seed_digest']}" + (f"  seed: {view['seed']}" if "seed" in view else "")
        )
    if view.get("options"):
        out.append(f"options: {operatortext.words(view['options'])}")
    out += ["", *rules.text_board(view, names, str), ""]
    out += operatortext.waiting(view)
    out += operatortext.result(view)
    if "you" in view:
        out += ["", f"As {view['you']}:"]
    return out


def event_lines(game: Game, last: int, seat: int | None = None, *, moderator: bool = False) -> list[str]:
    """The last ``last`` events, one line each, followed by what the engine said about each
    move.  Sealed commands (and undone moves) of other seats than ``seat`` show as
    "(sealed)" unless for a ``moderator``."""
    events = list(game.events.order_by("-seq")[:last])[::-1]
    narrated = narrated_log(game, seat, everything=moderator)
    colours = {s.position: s.colour for s in game.seats.all()}
    rules = services.rules_of(game)
    lines = [f"Last {len(events)} event(s):"]
    for e in events:
        told = narrated.get(e.seq)
        hidden = not moderator and e.seat != seat and e.kind in services.MOVE_KINDS
        parts = [
            f"#{e.seq:<4}",
            timezone.localtime(e.created_at).strftime("%Y-%m-%d %H:%M"),
            f"{e.kind:<11}",
            f"{e.source:<9}",
            f"{colours.get(e.seat, '-') if e.seat is not None else '-':<7}",
        ]
        if e.command_text:
            public = (
                rules.notation.public(rules.serial.command_from_dict(e.payload["command"]))
                if hidden
                else None
            )
            if hidden and (told is None or told.sealed):
                parts.append("(sealed)")
            else:
                parts.append(f'"{public or e.command_text}"')
        if e.reason:
            parts.append(f"reason: {e.reason}")
        if told is None and e.kind in services.MOVE_KINDS:
            parts.append("(undone by a rollback)")
        lines.append("  " + " ".join(parts).rstrip())
        lines += [f"        {text}" for text in (told.lines if told else ())]
    return lines


def _pruned(value: Mapping[str, Any]) -> dict[str, Any]:
    """A dict without its empty parts (None, or a dict of nothing but them)."""
    out = {}
    for key, item in value.items():
        if isinstance(item, Mapping):
            item = _pruned(item)
        if item is not None and item != {}:
            out[key] = item
    return out
