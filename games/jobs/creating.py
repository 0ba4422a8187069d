"""``manage.py create_game``: players from their addresses, the game's options from the
operator's words, the game created and described."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from datetime import UTC
from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.validators import validate_email
from django.db import transaction

from games import services
from games.jobs.common import JobError, _seats, status_of
from games.models import Game, Player
from games.rules import registry
from games.rules.base import Rules
from games.rules.registry import UnknownRules

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


def game_rules(rules: str) -> Rules:
    """The game called ``rules``, or a :class:`JobError` naming the games there are."""
    try:
        return registry.get(rules)
    except UnknownRules as error:
        raise JobError(f"There is no game '{rules}': the games are {', '.join(registry.names())}.") from error


def first_seat_of(value: str, players: int, *, rules: str) -> int | None:
    """``lot`` → None (drawn from the seed); a colour of the game → its seat."""
    word = value.strip().lower()
    if word == "lot":
        return None
    colours = game_rules(rules).seat_colours[:players]
    if word not in colours:
        flag = "--" + str(game_rules(rules).about.FIRST_SEAT_KEY).replace("_", "-")
        raise JobError(f"{flag} must be one of {', '.join(colours)} or lot, not '{value}'.")
    return colours.index(word)


def board_source(value: str, *, rules: str) -> str:
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
    first_seat: str | None = None,
    seed: str | None = None,
    board: str | None = None,
    name: str = "",
    start: bool = False,
    rules: str | None = None,
    ready_hours: float = 0,
    press: str | None = None,
) -> Game:
    """A new game of the game ``rules`` for these players (seats in this order), started at
    once if ``start`` (with ``ready_hours``: when its players are ready, see
    ``services.create_game``).  ``edition`` and ``board`` default to the game's; ``first_seat``
    (the seat that begins, by colour, or ``lot``) to the game's ``default_first_seat``.  All or nothing:
    players created for it are not kept if the game is refused."""
    rules = rules or settings.DEFAULT_GAME
    the_rules = game_rules(rules)
    names = {k.lower(): v for k, v in (names or {}).items()}
    unknown = set(names) - {e.lower() for e in emails}
    if unknown:
        raise JobError(f"--name given for someone who does not play: {', '.join(sorted(unknown))}.")
    with transaction.atomic():
        players = [player_for(email, names.get(email.lower())) for email in emails]
        first = (
            the_rules.about.default_first_seat
            if first_seat is None
            else first_seat_of(first_seat, len(players), rules=rules)
        )
        game = services.create_game(
            players,
            rules=rules,
            edition=edition,
            options=dict(options or {}),
            board_name=board_source(
                board if board is not None else the_rules.about.default_board, rules=rules
            ),
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
    title = game_rules(game.rules).title  # every game's, the default one's too
    lines = [
        f"{verb} game {game.pk}{f' ({game.name})' if game.name else ''}: {title}, {game.edition}, "
        f"board {game.board}, {status_of(game)}",
    ]
    lines += [f"  seat {s.position}  {s.colour:<7} {s.player}" for s in _seats(game)]
    lines.append(f"seed hash (sha256): {game.seed_hash}")
    if game.status == Game.Status.NEW and game.ready_until is not None:
        lines.append(
            f"ready window: the players were asked to reply 'ready'; it starts when all have, "
            f"at the latest {game.ready_until.astimezone(UTC):%Y-%m-%d %H:%M} UTC"
        )
    return "\n".join(lines)
