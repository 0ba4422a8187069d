"""The operational jobs behind the management commands, as plain functions.

Each ``manage.py`` command in ``games/management/commands/`` only parses its arguments, calls
one function here and prints what it returns; the tests call these functions directly.
Games change only through :mod:`games.services`.  A job refuses with :class:`JobError` (or
the service's :class:`~games.services.GameError`), whose text is written for the operator.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC
from pathlib import Path
from typing import Any

from django.core.exceptions import ValidationError
from django.core.validators import validate_email
from django.db import transaction
from django.utils import timezone

from games import record_json, services
from games.models import PLACEHOLDER_DOMAIN, Collection, Event, Game, Player, Seat, Snapshot
from games.pages import view_of, with_commitment
from games.projections import narration
from games.rules import chance, records, registry, rng
from games.rules.base import GameRules, IllegalCommand, Message, Outcome
from games.rules.presentation import presented
from games.rules.registry import UnknownRules


class JobError(Exception):
    """An operational job refused; ``str()`` says why, for the operator."""


def get_game(game_id: int) -> Game:
    game = Game.objects.filter(pk=game_id).first()
    if game is None:
        raise JobError(f"There is no game {game_id}.")
    return game


def _seats(game: Game) -> list[Seat]:
    return list(game.seats.select_related("player").order_by("position"))


# --- create_game ---------------------------------------------------------------------------


def split_emails(values: Iterable[str]) -> list[str]:
    """``--player a@x --player b@x,c@x`` → ``[a@x, b@x, c@x]``."""
    return [item.strip() for value in values for item in value.split(",") if item.strip()]


def parse_name_pairs(values: Iterable[str]) -> dict[str, str]:
    """``EMAIL=NAME`` pairs, keyed by the lower-cased email."""
    names: dict[str, str] = {}
    for value in values:
        email, sep, name = value.partition("=")
        if not sep or not email.strip() or not name.strip():
            raise JobError(f"--name takes EMAIL=NAME, not '{value}'.")
        names[email.strip().lower()] = name.strip()
    return names


def player_for(email: str, name: str | None = None) -> Player:
    """The player with this email (compared case-insensitively); a new one if there is none,
    named ``name`` or the email's local part.  An existing player keeps their name."""
    email = email.strip()
    try:
        validate_email(email)
    except ValidationError:
        raise JobError(f"'{email}' is not an email address.") from None
    found = Player.objects.filter(email__iexact=email).first()
    if found is not None:
        return found
    return Player.objects.create(email=email, name=(name or email.split("@")[0])[:100])


def game_rules(rules: str) -> GameRules:
    """The game called ``rules``, or a :class:`JobError` naming the games there are."""
    try:
        return registry.get(rules)
    except UnknownRules as error:
        raise JobError(f"There is no game '{rules}': the games are {', '.join(registry.names())}.") from error


def first_emperor_seat(value: str, players: int, *, rules: str = registry.DEFAULT) -> int | None:
    """``lot`` → None (drawn from the seed); a colour of the game → its seat."""
    word = value.strip().lower()
    if word == "lot":
        return None
    colours = game_rules(rules).seat_colours[:players]
    if word not in colours:
        flag = "--" + str(presented(game_rules(rules), "FIRST_SEAT_KEY")).replace("_", "-")
        raise JobError(f"{flag} must be one of {', '.join(colours)} or lot, not '{value}'.")
    return colours.index(word)


def board_source(value: str, *, rules: str = registry.DEFAULT) -> str:
    """A built-in board name as it is; a board file as an absolute path (the game stores
    it and every process must find it again)."""
    path = Path(value)
    # (an empty name is no path: a game without a board has the empty one)
    source = str(path.resolve()) if value and (path.suffix == ".json" or path.exists()) else value
    try:
        services.board(source, rules)
    except (OSError, ValueError) as error:  # a board error is a ValueError
        raise JobError(f"Cannot load the board '{value}': {error}") from None
    return source


def create_game(
    emails: Sequence[str],
    *,
    names: Mapping[str, str] | None = None,
    edition: str | None = None,
    options: Mapping[str, Any] | None = None,
    first_emperor: str | None = None,
    seed: str | None = None,
    board: str | None = None,
    name: str = "",
    start: bool = False,
    rules: str = registry.DEFAULT,
    ready_hours: float = 0,
    press: str | None = None,
) -> Game:
    """A new game of the game ``rules`` for these players (seats in this order), started at
    once if ``start`` (with ``ready_hours``: when its players are ready, see
    ``services.create_game``).  ``edition`` and ``board`` default to the game's; ``first_emperor``
    (the seat that begins, by colour, or ``lot``) to the game's ``default_first_seat``.  All or nothing:
    players created for it are not kept if the game is refused."""
    the_rules = game_rules(rules)
    names = {k.lower(): v for k, v in (names or {}).items()}
    unknown = set(names) - {e.lower() for e in emails}
    if unknown:
        raise JobError(f"--name given for someone who does not play: {', '.join(sorted(unknown))}.")
    with transaction.atomic():
        players = [player_for(email, names.get(email.lower())) for email in emails]
        first = (
            the_rules.default_first_seat
            if first_emperor is None
            else first_emperor_seat(first_emperor, len(players), rules=rules)
        )
        game = services.create_game(
            players,
            rules=rules,
            edition=edition,
            options=dict(options or {}),
            board_name=board_source(board if board is not None else the_rules.default_board, rules=rules),
            seed=seed,
            first_seat=first,
            name=name,
            ready_hours=ready_hours,
            press=press,
        )
        if start and not ready_hours:
            services.start_game(game)
    game.refresh_from_db()
    return game


def describe_created(game: Game, verb: str = "Created") -> str:
    """What ``create_game`` prints: id, seats and the seed's hash — never the seed."""
    title = "" if game.rules == registry.DEFAULT else f"{game_rules(game.rules).title}, "
    lines = [
        f"{verb} game {game.pk}{f' ({game.name})' if game.name else ''}: {title}{game.edition}, "
        f"board {game.board}, {game.get_status_display()}",
    ]
    lines += [f"  seat {s.position}  {s.colour:<7} {s.player}" for s in _seats(game)]
    lines.append(f"seed hash (sha256): {game.seed_hash}")
    if game.status == Game.Status.NEW and game.ready_until is not None:
        lines.append(
            f"ready window: the players were asked to reply 'ready'; it starts when all have, "
            f"at the latest {game.ready_until.astimezone(UTC):%Y-%m-%d %H:%M} UTC"
        )
    return "\n".join(lines)


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
    # a game whose view leaves them out gets the seed's hash and, at the end, the result
    # (White Lotus's own view names the seed its state keeps: for a mixed game the draw seed,
    # so it gets the commitment every page shows, the server's seed's hash and seed)
    view = (
        with_commitment(game, dict(rules.view(state, seat)))
        if game.rules == registry.DEFAULT
        else view_of(game, state, seat)
    )
    seats = {s.colour: s.player for s in _seats(game)}
    if game.rules == registry.DEFAULT:
        out = _white_lotus_text(game, view, seats)
    else:
        out = _game_text(game, rules, view, seats)
    if seat is not None and "you" not in view:
        # a game whose view does not name its seat: what this seat alone sees, in words
        public = view_of(game, state, None)
        private = _pruned({k: v for k, v in view.items() if public.get(k) != v})
        colour = _seats(game)[seat].colour
        out += ["", f"As {colour}: {_words(private) or 'nothing hidden from the others'}"]
    if seat is not None:
        menu = rules.describe(state, seat)
        if menu:
            out += ["  you may:", *(f"    {line}" for line in menu)]
    if log > 0:
        out += ["", *event_lines(game, log, seat, moderator=moderator)]
    mismatch = services.version_mismatch(game)
    if mismatch is not None:  # said first: what is shown was built by other rules than the game's
        out = [f"WARNING: {mismatch.render()}", *out]
    return "\n".join(out)


def _game_text(
    game: Game, rules: GameRules, view: Mapping[str, Any], seats: Mapping[str, Player]
) -> list[str]:
    """A game's text board (``rules.text_board``), who must decide, the result, and what
    the seat sees alone."""
    names = {colour: player.name for colour, player in seats.items()}
    out = [
        f"Game {game.pk}{f' ({game.name})' if game.name else ''}: {rules.title}, {game.edition}, "
        f"board {game.board}, {game.get_status_display()}, event #{game.head_seq}",
    ]
    if "seed_digest" in view:
        out.append(
            f"seed hash: {view['seed_digest']}" + (f"  seed: {view['seed']}" if "seed" in view else "")
        )
    if view.get("options"):
        out.append(f"options: {_words(view['options'])}")
    out += ["", *rules.text_board(view, names, str), ""]
    out += _waiting(view)
    out += _result(view, seats)
    if "you" in view:
        out += ["", f"As {view['you']}:"]
    return out


def _waiting(view: Mapping[str, Any]) -> list[str]:
    """Who owes a decision, and which, as one line (none when nobody does)."""
    pending = view.get("pending") or []
    if not pending:
        return []
    waiting = ", ".join(
        f"{d['colour']} ({d['kind']}{', sealed' if d.get('sealed') else ''})" for d in pending
    )
    return [f"Waiting for: {waiting}"]


def _result(view: Mapping[str, Any], seats: Mapping[str, Player]) -> list[str]:
    """A finished game's places and scores in seat order among equals, and its winners."""
    result = view.get("outcome")
    if not result:
        return []
    colours = list(seats)
    order = sorted(colours, key=lambda c: (result["rank"][c], colours.index(c)))
    scores = (f"{result['rank'][c]}. {c} {_total(result['scores'][c])}" for c in order)
    return [f"Final scores: {', '.join(scores)}", f"Winner(s): {', '.join(result['winners'])}"]


def _total(score: Any) -> Any:
    return score.get("total", score) if isinstance(score, Mapping) else score


def _white_lotus_text(game: Game, view: Mapping[str, Any], seats: Mapping[str, Player]) -> list[str]:
    """White Lotus's board as text: the provinces in play, the players, the result."""
    out = [
        f"Game {game.pk}{f' ({game.name})' if game.name else ''}: {game.edition}, board {game.board}, "
        f"{game.get_status_display()}, event #{game.head_seq}",
        f"seed hash: {view['seed_digest']}" + (f"  seed: {view['seed']}" if "seed" in view else ""),
        f"options: {_words(view['options'])}",
        f"{'year' if view['edition'] == 'kosmos' else 'turn'} {view['year']}"
        f"{' (the last)' if view['final_year'] else ''}, phase {view['phase']}, emperor {view['emperor']}"
        f"{', rebel leader ' + view['rebel'] if view['rebel'] else ''}, tiles in the bag {view['bag']}",
        "",
        "Provinces in play:",
    ]
    areas = [a for a in view["areas"] if a["in_play"]]
    width = max(len(a["name"]) for a in areas)
    for a in areas:
        marks = "".join(m for m, on in (("*", a["lotus"]), ("D", a["dragon"])) if on)
        markers = f"  markers: {', '.join(a['markers'])}" if a["markers"] else ""
        out.append(
            f"  {a['number']:>2} {a['name']:<{width}} {marks:<2} {a['building'] or '-':<9} "
            f"{a['owner'] or '-':<7}{markers}".rstrip()
        )
    out += ["  (* lotus area, D dragon)", "", "Players:"]
    for p in view["players"]:
        chips = ", ".join(f"{k} {v}" for k, v in p["chips"].items() if v)
        hand = f"  hand: {_words(p['hand'])}" if "hand" in p else ""
        out.append(
            f"  {p['colour']:<7} {seats[p['colour']]}{'  (emperor)' if p['emperor'] else ''}"
            f"  VP chips {p['vp_chips']}  chips: {chips or 'none'}  score {p['score']['total']}{hand}"
        )
    out.append("")
    out += _waiting(view)
    if view["step"]:
        out.append(f"Step: {_words(view['step'])}")
    out += _result(view, seats)
    if "you" in view:
        out += ["", f"As {view['you']}: hand {_words(view['hand'])}"]
        if view.get("sealed"):
            out.append(f"  sealed: {_words(view['sealed'])}")
        if "drawn" in view:
            out.append(f"  drawn tile: {view['drawn']}")
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
            public = rules.public_notation(rules.command_from_dict(e.payload["command"])) if hidden else None
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


def _words(value: Mapping[str, Any]) -> str:
    """A view's small dict as ``key value`` words."""
    parts = []
    for key, item in value.items():
        if isinstance(item, bool):
            text = "yes" if item else "no"
        elif isinstance(item, list | tuple):
            text = "/".join(str(x) for x in item) or "-"
        elif isinstance(item, Mapping):
            text = "(" + _words(item) + ")"
        else:
            text = str(item)
        parts.append(f"{key.replace('_', ' ')} {text}")
    return ", ".join(parts)


# --- replay_game ----------------------------------------------------------------------------


@dataclass(frozen=True)
class ReplayCheck:
    game: Game
    state: Any  # rebuilt from zero
    snapshot_seq: int | None  # the snapshot the head was loaded from, if any

    @property
    def outcome(self) -> Outcome | None:
        return services.rules_of(self.game).outcome(self.state)


def replay_game(game: Game) -> ReplayCheck:
    """Rebuild the game from its events and compare with the head as the service loads it
    (latest snapshot + the events after it); :class:`JobError` says how they differ."""
    game.refresh_from_db()
    snap = _latest_snapshot(game)
    try:
        state, same = services.replay_game(game)
    except (IllegalCommand, services.GameError, ValueError, KeyError, TypeError) as error:
        message = error.message if isinstance(error, IllegalCommand) else str(error)
        raise JobError(f"Game {game.pk} does not replay: {message}{_version_note(game)}") from None
    if not same:
        where = f"snapshot #{snap.seq} and the events after it" if snap else "its events"
        detail = ""
        if snap is not None:
            replayed = services.rules_of(game).state_to_dict(services.state_at(game, snap.seq))
            differing = _differing(snap.state, replayed)
            if differing:
                fields = ", ".join(differing)
                detail = f" Snapshot #{snap.seq} differs from the replay at #{snap.seq} in: {fields}."
        raise JobError(
            f"Game {game.pk} FAILED the replay check: the state rebuilt from its events differs from "
            f"the head at #{game.head_seq} loaded from {where}.{detail} Snapshots are only a cache: "
            "deleting this game's snapshots makes the service rebuild from the events."
            f"{_version_note(game)}"
        )
    return ReplayCheck(game, state, snap.seq if snap else None)


def _version_note(game: Game) -> str:
    """The version mismatch of the game and the code, as a sentence after another (or "")."""
    mismatch = services.version_mismatch(game)
    return "" if mismatch is None else f" {mismatch.render()}"


def _latest_snapshot(game: Game) -> Snapshot | None:
    """The snapshot the service loads the head from (as ``services.heads._load_head`` picks it)."""
    return services.usable_snapshot(game)


def _differing(a: Mapping[str, Any], b: Mapping[str, Any]) -> list[str]:
    return sorted(k for k in a.keys() | b.keys() if a.get(k) != b.get(k))


def describe_replay(check: ReplayCheck) -> str:
    game = check.game
    base = f"snapshot #{check.snapshot_seq} + later events" if check.snapshot_seq else "the events alone"
    lines = [
        f"OK: game {game.pk} replays from zero to the head at #{game.head_seq} (head loaded from {base})."
    ]
    mismatch = services.version_mismatch(game)
    if mismatch is not None:  # it replays, but under this code's rules, not the game's own
        lines.append(f"WARNING: {mismatch.render()}")
    result = check.outcome
    if result is not None:
        colours = [s.colour for s in _seats(game)]
        order = sorted(range(len(colours)), key=lambda s: (result.rank[s], s))
        lines.append(
            "Final scores: " + ", ".join(f"{result.rank[s]}. {colours[s]} {result.scores[s]}" for s in order)
        )
    return "\n".join(lines)


# --- export_game / import_game ------------------------------------------------------------------


def export_record(game: Game, *, public: bool = False) -> str:
    """The game record (header, seed included, and one line per move in effect), every
    outcome of chance it drew written out after the move that drew it, so that it replays
    without the seed too (issue 17), and the comments it was entered with; ``public`` leaves
    out the players' addresses (the record a finished game's page offers).

    A game played elsewhere (entered from its record: its first event keeps the record's
    header lines) writes its header as the record had it, and no seed (it has none)."""
    events = services.effective(game.events.order_by("seq"))
    created = events[0]
    rules = services.rules_of(game)
    entered = created.payload.get("record") or {}
    state = services.setup_of(game, created)
    outcomes = [tuple(rules.drawn(state))]
    moves: list[tuple[int, Any]] = []
    notes = [records.Note.from_data(-1, n) for n in entered.get("setup", [])]
    for event in events:
        if event.kind in services.MOVE_KINDS and event.seat is not None:
            after, _ = services.apply_event(rules, state, event)
            notes += [records.Note.from_data(len(moves), n) for n in event.payload.get("notes", [])]
            moves.append((event.seat, rules.command_from_dict(event.payload["command"])))
            outcomes.append(chance.new_outcomes(rules.drawn(state), rules.drawn(after)))
            state = after
    seats = _seats(game)
    if "header" in entered:  # played elsewhere: as the record had it (names, not addresses, when public)
        extra = {str(k): str(v) for k, v in entered.get("header", [])}
        if public and "players" in extra:
            extra["players"] = ", ".join(f"{c}={n}" for c, (n, _) in parse_players(extra["players"]).items())
    else:
        players = ", ".join(f"{s.colour}={_clean(s.player.name)} <{s.player.email}>" for s in seats)
        if public:
            players = ", ".join(f"{s.colour}={_clean(s.player.name)}" for s in seats)
        extra = {
            "name": _clean(game.name or f"Game {game.pk}"),
            "players": players,
            "created": timezone.localtime(game.created_at).isoformat(timespec="seconds"),
        }
        if game.finished_at is not None:
            extra["finished"] = timezone.localtime(game.finished_at).isoformat(timespec="seconds")
    config = services.config_of(game, created)
    data = created.payload["config"]
    first = created.payload.get("first_seat", data.get(records.first_seat_key(game.rules)))
    draws: dict[str, Any] = {}
    seed = str(created.payload["seed"])
    if "draws" in created.payload and seed:  # what checking the draws needs (games.rules.verify)
        started = next((e for e in events if e.kind == Event.Kind.STARTED), None)
        outcome = rules.outcome(state) if game.status == Game.Status.FINISHED else None
        colours = [s.colour for s in seats]
        draws = {
            "rng": created.payload.get("rng", rng.RNG),
            "draws": created.payload["draws"],
            "entropy": tuple(services.contributions_of(started)) if started is not None else (),
            "seed_hash": game.seed_hash,
            "result": records.format_result(colours, outcome.scores, outcome.rank) if outcome else "",
        }
    record = records.Record(
        rules=game.rules,
        edition=game.edition,
        board=services.board(game.board, game.rules),
        colours=tuple(s.colour for s in seats),
        options=rules.config_to_data(config).get("options", {}),  # as the game names them now (not one_turn)
        first_seat=first if isinstance(first, int) else None,
        seed=seed,
        moves=tuple(moves),
        extra=extra,
        version=game.engine_version,
        chance=tuple(outcomes) if any(outcomes) else (),
        notes=tuple(notes),
        header_notes=tuple(entered.get("notes", [])),
        end_notes=tuple(entered.get("end", [])),
        **draws,
    )
    return records.format_record(record, config)


def _clean(text: str) -> str:
    """One line without the characters the players header uses to separate its parts."""
    return " ".join(text.replace("<", "").replace(">", "").split())


def parse_players(value: str) -> dict[str, tuple[str, str]]:
    """``red=Ada <ada@x.org>, blue=Bao <bao@x.org>`` → ``{colour: (name, email)}`` (email ""
    for a player named without one): :func:`games.rules.records.players_of`."""
    return records.players_of(value)


def _check_record_version(header: Mapping[str, str]) -> None:
    """Refuse a record played under another version of its rules than this service runs
    (its moves may replay to another game, or not at all)."""
    played = header.get("version", "")
    try:
        running = registry.get(header.get("rules", registry.DEFAULT)).VERSION
    except UnknownRules:
        return  # parse_record says so
    if played and played != running:
        raise JobError(
            f"The record was played under rules {played}; this service runs {running}, under "
            "which its moves may not replay the same game: it is not imported."
        )


# the header lines of a record that say where, when and by whom a game was played elsewhere and
# where its record came from: shown on the game's page (Game.about)
ABOUT = ("place", "date", "event", "round", "source")
MOST_LEGAL = 12  # the legal lines an import's refusal lists


def import_record(
    text: str,
    *,
    name: str | None = None,
    board: str | None = None,
    collection: Collection | None = None,
    origin: str = "",
) -> Game:
    """A new, started game replaying a record (the notation, or the JSON the game pages
    offer): players from the header's ``players`` line (placeholders
    ``<colour>@import.invalid`` for seats it does not name, ``<name>@import.invalid`` for
    players named without an address), every move submitted in order (source ``system``)
    with the outcomes of chance and the comments the record gives.  All or nothing.
    ``board`` loads the board from another name or file than the record's (a record names
    its board, not the file).

    A record without a seed is a game played elsewhere, its chance written down (issue 17):
    the game keeps its header lines as written, and ``about`` (where, when, the event, the
    record's source; ``origin``: the file it was read from) shows on its page.  ``collection``:
    the tournament it is imported with."""
    source = board_source(board) if board else None
    asked: list[str] = []

    def boards(rules: str, requested: str) -> Any:
        asked.append(requested)
        return services.board(source or requested, rules)

    try:
        text = record_json.as_text(text)  # a JSON record (``/games/<id>/record.json``) as its notation
        _check_record_version(records.header_of(text))
        record, final = records.parse_record(text, boards, services.parse_command)
    except IllegalCommand as error:
        legal = list(error.legal)
        more = f" (and {len(legal) - MOST_LEGAL} more)" if len(legal) > MOST_LEGAL else ""
        there = f"\nLegal there: {'; '.join(legal[:MOST_LEGAL])}{more}" if legal else ""
        raise JobError(f"Not a valid game record: {error.message}{there}") from None
    except ValueError as error:  # a board that is not one
        raise JobError(f"Not a valid game record: {error}") from None
    named = parse_players(record.extra.get("players", ""))
    strangers = set(named) - set(record.colours)
    if strangers:
        raise JobError(f"The players line names colours that do not play: {', '.join(sorted(strangers))}.")
    elsewhere = not record.seed
    entered: dict[str, Any] = {}
    if elsewhere:
        entered["header"] = [[k, v] for k, v in record.extra.items()]
    if record.header_notes:
        entered["notes"] = list(record.header_notes)
    setup_notes = [n.to_data() for n in record.notes if n.step == -1]
    if setup_notes:
        entered["setup"] = setup_notes
    if record.end_notes:
        entered["end"] = list(record.end_notes)
    about = {k: record.extra[k][:200] for k in ABOUT if record.extra.get(k)}
    if origin:
        about["file"] = origin[:200]
    with transaction.atomic():
        players: list[Player] = []
        for colour in record.colours:
            who, email = named.get(colour, (colour.capitalize(), ""))
            if not email:
                local = (_slug(who) if colour in named else "") or colour
                email = f"{local}@{PLACEHOLDER_DOMAIN}"
                if any(p.email == email for p in players):  # two players of one name
                    email = f"{local}-{colour}@{PLACEHOLDER_DOMAIN}"
            players.append(player_for(email, who))
        game = services.create_game(
            players,
            rules=record.rules,
            edition=record.edition,
            options=dict(record.options),
            board_name=source or board_source(asked[0], rules=record.rules),
            seed=record.seed,
            first_seat=record.first_seat,
            name=name if name is not None else record.extra.get("name", "")[:100],
            outcomes=record.chance[0] if record.chance and elsewhere else (),
            record=entered or None,
            about=about,
            collection=collection,
        )
        # the record's contributions make its draw seed again (a record without any: its seed)
        services.start_game(game, contributions=record.entropy if record.draws == rng.MIXED else None)
        rules = record.game_rules
        for i, (seat, command) in enumerate(record.moves):
            # (a record with a seed: its seed draws again what parse_record checked it gives)
            outcomes = record.chance[i + 1] if elsewhere and len(record.chance) > i + 1 else ()
            notes = [n.to_data() for n in record.notes if n.step == i]
            typed = record.typed[i] if i < len(record.typed) else command
            try:
                services.submit(game, seat, typed, source=Event.Source.SYSTEM, outcomes=outcomes, notes=notes)
            except services.GameError as error:
                raise JobError(f"move {i + 1} ({record.colours[seat]}): {error}") from None
        if rules.state_to_dict(services.state_at(game)) != rules.state_to_dict(final):
            raise JobError("The imported game does not reach the state its record replays to.")
    game.refresh_from_db()
    return game


def _slug(name: str) -> str:
    """A name as the local part of a placeholder address (``Karl Lehmann`` → ``karl.lehmann``)."""
    folded = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode().lower()
    return ".".join(re.findall(r"[a-z0-9]+", folded))[:60]


def describe_imported(game: Game) -> str:
    moves = game.events.filter(kind__in=services.MOVE_KINDS).count()
    return describe_created(game, "Imported") + (
        f"\n{moves} move(s) replayed; now at event #{game.head_seq}, {game.get_status_display()}."
    )
