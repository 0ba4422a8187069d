"""``manage.py export_game`` / ``import_game``: a game as its text record, and a record (a
played game, from a book or a collection) imported as a finished game."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Mapping
from typing import Any

from django.db import transaction
from django.utils import timezone

from games import services
from games.jobs import record_json
from games.jobs.common import JobError, _seats, status_of
from games.jobs.creating import board_source, describe_created, player_for
from games.models import PLACEHOLDER_DOMAIN, Collection, Event, Game, Player
from games.rules import chance, entry, records, registry, rng
from games.rules.base import IllegalCommand
from games.rules.registry import UnknownRules

# --- export_game / import_game ------------------------------------------------------------------


def export_record(game: Game, *, public: bool = False) -> str:
    """The game record (header, seed included, and one line per move in effect), every
    outcome of chance it drew written out after the move that drew it, so that it replays
    without the seed too, and the comments it was entered with; ``public`` leaves
    out the players' addresses (the record a finished game's page offers).

    A game played elsewhere (entered from its record: its first event keeps the record's
    header lines) writes its header as the record had it, and no seed (it has none)."""
    events = services.effective(game.events.order_by("seq"))
    created = events[0]
    rules = services.rules_of(game)
    entered = created.payload.get("record") or {}
    state = services.setup_of(game, created)
    outcomes = [tuple(rules.chance.drawn(state))]
    moves: list[tuple[int, Any]] = []
    notes = [records.Note.from_data(-1, n) for n in entered.get("setup", [])]
    for event in events:
        if event.kind in services.MOVE_KINDS and event.seat is not None:
            after, _ = services.apply_event(rules, state, event)
            notes += [records.Note.from_data(len(moves), n) for n in event.payload.get("notes", [])]
            moves.append((event.seat, rules.serial.command_from_dict(event.payload["command"])))
            outcomes.append(chance.new_outcomes(rules.chance.drawn(state), rules.chance.drawn(after)))
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
        options=rules.serial.config_to_data(config).get(
            "options", {}
        ),  # as the game names them now (not one_turn)
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
        running = registry.get(header.get("rules", registry.DEFAULT)).about.VERSION
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

    A record without a seed is a game played elsewhere, its chance written down:
    the game keeps its header lines as written, and ``about`` (where, when, the event, the
    record's source; ``origin``: the file it was read from) shows on its page.  ``collection``:
    the tournament it is imported with."""
    try:
        text = record_json.as_text(text)  # a JSON record (``/games/<id>/record.json``) as its notation
    except (IllegalCommand, ValueError) as error:
        raise JobError(f"Not a valid game record: {error}") from None
    header = records.header_of(text)
    # a record names its game (a record without a rules line is the registry's default's)
    source = board_source(board, rules=header.get("rules", registry.DEFAULT)) if board else None
    asked: list[str] = []

    def boards(rules: str, requested: str) -> Any:
        asked.append(requested)
        return services.board(source or requested, rules)

    try:
        _check_record_version(header)
        record, final = entry.parse_record(text, boards, services.parse_command)
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
        if rules.serial.state_to_dict(services.state_at(game)) != rules.serial.state_to_dict(final):
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
        f"\n{moves} move(s) replayed; now at event #{game.head_seq}, {status_of(game)}."
    )
