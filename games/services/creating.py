"""Creating a game (its options and time controls read and refused in the players' words),
starting it, the players' entropy before the start, and the games whose ready window ended."""

from __future__ import annotations

import secrets
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone

from games.models import (
    Collection,
    Event,
    Game,
    Player,
    Seat,
    SeatKey,
)
from games.rules import chance, registry, rng
from games.rules.base import About, IllegalCommand, Message, Rules
from games.rules.chance import Chance
from games.services import links
from games.services.appending import Result, _append, _finish, _lock
from games.services.timing import TimeControls
from games.store.heads import GameError, _head, board, logger, seats_of
from games.store.signals import events_appended

# --- creating and starting ---------------------------------------------------------------------


class _Unset:
    """No value given (``first_seat`` left to the game's ``default_first_seat``)."""


UNSET: Any = _Unset()


# the longest ready window: two weeks (a longer one only delays the game, and a huge one
# overflows the clock)
MAX_READY_HOURS = 336


def create_game(
    players: Sequence[Player],
    *,
    rules: str | None = None,
    edition: str | None = None,
    options: Mapping[str, Any] | None = None,
    board_name: str | None = None,
    seed: str | None = None,
    first_seat: int | None = UNSET,
    name: str = "",
    time_controls: TimeControls | Mapping[str, Any] | None = None,
    by: User | None = None,
    ready_hours: float = 0,
    press: str | None = None,
    outcomes: Sequence[Chance] = (),
    record: Mapping[str, Any] | None = None,
    about: Mapping[str, str] | None = None,
    collection: Collection | None = None,
) -> Game:
    """A new game of the game ``rules`` (not started): seats in the given order, colours in
    the game's order.  ``edition`` defaults to the game's first, ``options`` are merged over
    the game's defaults (an unknown one is refused), ``board_name`` defaults to the game's
    board.  ``first_seat`` is who begins (None: by lot; not given: the game's
    ``default_first_seat``), whatever the game calls that seat (its ``FIRST_SEAT_KEY``).  ``time_controls``: a
    :class:`TimeControls` as it is, or fields merged over the game's suitable clock
    (``rules.about.time_controls``) and the service's defaults.

    The draws: the server's seed is made here and only its hash is published; the first event
    names the generator and says the draws are mixed (``games.rules.rng``).  ``ready_hours``
    > 0 opens a ready window: every seat is mailed (``seated``) and asked to answer ``ready``,
    whose text becomes its contribution (:func:`contribute`); the game starts when every seat
    has answered, or at the window's end with what arrived (:func:`start_waiting_games`).
    0: nobody contributes, the game is started by its creator (:func:`start_game`).

    ``press`` is its table talk (``Game.Press``; None: ``default_press``).

    A game played elsewhere comes with its record's words: ``seed`` ``""`` (none:
    its chance is written down), ``outcomes`` those of its setup's draws, ``record`` what its
    record says that belongs to no move (``header``: its header lines as written; ``notes``,
    ``setup``, ``end``: its comments in the header, on the setup's outcomes, after its last
    line; games.jobs.import_record), ``about`` where, when and by whom it was played and
    where the record came from, ``collection`` what it was imported with.  ``rules`` None: the
    site's game (``settings.DEFAULT_GAME``)."""
    rules = rules or settings.DEFAULT_GAME
    try:
        game_rules = registry.get(rules)
    except registry.UnknownRules as error:
        raise GameError(f"Cannot create this game: {error}") from None
    title = game_rules.title
    counts = tuple(sorted(game_rules.player_counts))
    if len(players) not in counts:
        raise GameError(f"{title} is for {_counts_text(counts)} players.")
    if len({p.pk for p in players}) != len(players):
        raise GameError("A player can hold only one seat in a game.")
    edition = edition if edition is not None else game_rules.about.editions[0]
    if edition not in game_rules.about.editions:
        raise GameError(
            f"Cannot create this game: {title} has no edition '{edition}' "
            f"(its editions: {', '.join(game_rules.about.editions)})."
        )
    chosen = game_options(game_rules, options)
    press = press or default_press(rules, chosen)
    if press not in Game.Press.values:
        raise GameError(
            f"Cannot create this game: press is one of {', '.join(Game.Press.values)}, not '{press}'."
        )
    board_name = board_name if board_name is not None else game_rules.about.default_board
    first = first_seat if first_seat is not UNSET else game_rules.about.default_first_seat
    seed = seed if seed is not None else secrets.token_hex(16)
    if not 0 <= ready_hours <= MAX_READY_HOURS:  # (NaN is neither)
        raise GameError(
            f"Cannot create this game: the ready window is {ready_hours:g} hours; it can be 0 "
            f"(the game starts at once) up to {MAX_READY_HOURS} hours (two weeks)."
        )
    ready_until = timezone.now() + timedelta(hours=ready_hours) if ready_hours > 0 else None
    try:
        b = board(board_name, rules)  # an unknown board, or a file that is not one: OSError, ValueError
        config = game_rules.serial.make_config(b, len(players), edition, chosen, first)
        game_rules.setup(config, seed, outcomes)  # refuses a board that does not fit the rules
    except (OSError, TypeError, ValueError, IllegalCommand) as error:
        raise GameError(f"Cannot create this game: {error}") from None
    config_data = game_rules.serial.config_to_data(config)
    clock = _time_controls(game_rules, time_controls)
    with transaction.atomic():
        game = Game.objects.create(
            name=name,
            rules=rules,
            engine_version=game_rules.about.VERSION,
            edition=edition,
            options=config_data.get("options", chosen),
            board=board_name,
            board_digest=b.digest,
            seed_hash=rng.seed_digest(seed),
            time_controls=clock.to_dict(),
            ready_until=ready_until,
            press=press,
            about=dict(about or {}),
            collection=collection,
        )
        colours = game_rules.seat_colours
        seats = [
            Seat.objects.create(game=game, position=position, colour=colours[position], player=player)
            for position, player in enumerate(players)
        ]
        # each seat's page key, made with it: a player's page never issues them by the thousand
        SeatKey.objects.bulk_create(
            SeatKey(seat=s, player_id=s.player_id, key=links.new_key()) for s in seats
        )
        payload: dict[str, Any] = {
            "config": config_data,
            "seed": seed,
            "players": [{"position": i, "email": p.email} for i, p in enumerate(players)],
        }
        if game_rules.about.FIRST_SEAT_KEY == About.FIRST_SEAT_KEY:
            # the seat that begins, as the service calls it (a game with its own name for it
            # says it in its config, and its created event names no first seat)
            payload["first_seat"] = first
        payload["rng"], payload["draws"] = rng.RNG, rng.MIXED
        if outcomes:  # a game played elsewhere: the outcomes of its setup's draws, as its record gives
            payload["chance"] = chance.to_data(outcomes)
        if record:
            payload["record"] = dict(record)
        if ready_until is not None:
            payload["ready_until"] = ready_until.isoformat()
        created = _append(game, Event.Kind.CREATED, payload, source=Event.Source.SYSTEM, actor=by)
        game.save(update_fields=["head_seq"])
        if ready_until is not None:  # the seats are asked for their entropy (notifications: "seated")
            state = game_rules.setup(config, seed, outcomes)
            events_appended.send(sender=Game, game=game, events=[created], state=state, log=[], before=None)
    return game


def default_press(rules: str, options: Mapping[str, Any] | None) -> str:
    """The table talk a new game gets when none is chosen: full (private messages too) with
    an option of the game's whose point is dealing (its ``FULL_PRESS_OPTIONS``); public (only
    to all) else."""
    dealing = registry.get(rules).about.FULL_PRESS_OPTIONS
    if any((options or {}).get(name) for name in dealing):
        return str(Game.Press.FULL)
    return str(Game.Press.PUBLIC)


def game_options(rules: Rules, given: Mapping[str, Any] | None) -> dict[str, Any]:
    """The game's options (``rules.about.OPTIONS``) with the given ones over them; an option the
    game does not have, or a value not of its default's type (:func:`option_refusal`), is
    refused."""
    given = dict(given or {})
    unknown = sorted(set(given) - set(rules.about.OPTIONS))
    if unknown:
        known = ", ".join(rules.about.OPTIONS) or "none"
        names = ", ".join(unknown)
        raise GameError(
            f"Cannot create this game: {rules.title} has no option {names} (its options: {known})."
        )
    for key, value in given.items():
        refusal = option_refusal(rules, key, value)
        if refusal:
            raise GameError(f"Cannot create this game: {refusal}")
    return {**rules.about.OPTIONS, **given}


OPTION_WORDS = {"yes": True, "no": False, "true": True, "false": False, "on": True, "off": False}


def option_refusal(rules: Rules, key: str, value: Any) -> str:
    """Why ``value`` cannot be the option ``key`` of the game (it is not of the type of the
    option's default in ``rules.about.OPTIONS``: a switch takes only a real boolean), or ""."""
    default = rules.about.OPTIONS[key]
    if isinstance(default, bool):
        fits = isinstance(value, bool)
        kind = "yes or no (true or false)"
    elif isinstance(default, int):
        fits = isinstance(value, int) and not isinstance(value, bool)
        kind = "a whole number"
    elif isinstance(default, float):
        fits = isinstance(value, int | float) and not isinstance(value, bool)
        kind = "a number"
    elif isinstance(default, str):
        fits = isinstance(value, str)
        kind = "a word"
    else:
        return ""
    return "" if fits else f"the option {key} of {rules.title} is {kind}, not {value!r}."


def option_from_words(rules: Rules, key: str, value: Any) -> Any:
    """An option's value as a person typed it (the command line, a form): a switch (a boolean
    default) reads yes/no, true/false, on/off; a number reads digits.  Anything else is left
    as it is, for :func:`game_options` to refuse with its reason."""
    default = rules.about.OPTIONS.get(key)
    if not isinstance(value, str):
        return value
    text = value.strip()
    if isinstance(default, bool):
        return OPTION_WORDS.get(text.lower(), value)
    if isinstance(default, int | float):
        try:
            return type(default)(text)
        except ValueError:
            return value
    return value


def _time_controls(rules: Rules, given: TimeControls | Mapping[str, Any] | None) -> TimeControls:
    if isinstance(given, TimeControls):
        return given
    if not given and not rules.about.time_controls:
        return TimeControls()
    return TimeControls.from_dict({**TimeControls().to_dict(), **rules.about.time_controls, **(given or {})})


def _counts_text(counts: Sequence[int]) -> str:
    if len(counts) > 1 and list(counts) == list(range(counts[0], counts[-1] + 1)):
        return f"{counts[0]} to {counts[-1]}"
    return " or ".join(", ".join(str(n) for n in counts).rsplit(", ", 1))


def start_game(
    game: Game, *, by: User | None = None, contributions: Iterable[tuple[int, str]] | None = None
) -> Result:
    """Start a new game.  A game whose draws are mixed lists in its ``started`` event the
    contributions its draws are made with: the seats' ``entropy`` events (the first of each
    seat), or ``contributions`` where given (a record imported with its entropy)."""
    with transaction.atomic():
        game = _lock(game, 1)
        if game.status != Game.Status.NEW:
            raise GameError("This game has already started.")
        return _start(game, by, contributions)


def _start(game: Game, by: User | None, contributions: Iterable[tuple[int, str]] | None) -> Result:
    created = game.events.get(seq=1)
    payload: dict[str, Any] = {}
    if created.payload.get("draws") is not None:
        given = dict(contributions) if contributions is not None else entropy_of(game)
        try:
            rng.mixed_seed(created.payload["seed"], given)  # refuses what is no contribution
        except ValueError as error:
            raise GameError(f"Cannot start this game: {error}") from None
        if any(seat >= seats_of(game) for seat in given):
            raise GameError("Cannot start this game: a contribution names a seat it does not have.")
        payload["contributions"] = [[seat, value] for seat, value in sorted(given.items())]
    game.status = Game.Status.RUNNING
    event = _append(game, Event.Kind.STARTED, payload, source=Event.Source.SYSTEM, actor=by)
    state = _head(game)
    result = Result(game, state, [event], changed=("status",), resync=True)
    _finish(result)
    return result


def entropy_of(game: Game) -> dict[int, str]:
    """Each seat's contribution so far, by seat: the first ``entropy`` event of each counts."""
    out: dict[int, str] = {}
    for event in game.events.filter(kind=Event.Kind.ENTROPY).order_by("seq"):
        if event.seat is not None:
            out.setdefault(event.seat, event.payload["value"])
    return out


@dataclass
class Contributed:
    """A seat's ``ready``: its contribution's event and value, and the start it completed."""

    event: Event
    value: str
    started: Result | None


def contribute(
    game: Game, seat: int, text: str, *, message_id: str, source: str = Event.Source.MAIL
) -> Contributed:
    """A seat's ``ready`` during the game's ready window: its contribution to the draws
    (``rng.contribution`` of what it wrote after the word and of its mail's Message-ID) is
    appended as an ``entropy`` event; when every seat has contributed, the game starts in the
    same transaction.  The first contribution of a seat counts: a second is refused, so
    nobody (the server included) can swap one for another that suits it better."""
    with transaction.atomic():
        game = _lock(game, 1)
        if game.status != Game.Status.NEW:
            raise GameError(Message("Game {game} has started: its draws are fixed.", game=game.pk))
        if game.ready_until is None:
            raise GameError(
                Message("Game {game} does not wait for ready: its moderator starts it.", game=game.pk)
            )
        if not 0 <= seat < seats_of(game):
            raise GameError(f"There is no seat {seat} in this game.")
        if seat in entropy_of(game):
            raise GameError(
                Message(
                    "Your ready for game {game} was already counted (the first one counts); "
                    "the game starts when every seat has answered.",
                    game=game.pk,
                )
            )
        value = rng.contribution(text, message_id)
        event = _append(
            game,
            Event.Kind.ENTROPY,
            {"value": value},
            seat=seat,
            source=source,
            command_text=text,
            inbound_message_id=message_id,
        )
        started = None
        if len(entropy_of(game)) == seats_of(game):
            game = _lock(game, 1)  # the start's own sequence number, under the lock we hold
            started = _start(game, None, None)
    return Contributed(event, value, started)


def start_waiting_games(now: datetime) -> list[int]:
    """Start every new game whose ready window ended, with the contributions that arrived
    (the deadline sweep); the ids of the games started.  Idempotent: a game another worker
    started meanwhile is skipped."""
    due = Game.objects.filter(status=Game.Status.NEW, ready_until__isnull=False, ready_until__lte=now)
    started = []
    for pk in due.order_by("pk").values_list("pk", flat=True):
        try:
            start_game(Game(pk=pk))
        except GameError:
            continue
        except Exception:  # one broken game must not stop the minute's sweep (reminders, defaults)
            logger.exception("game %s: its ready window is over but it could not start", pk)
            continue
        started.append(pk)
    return started
