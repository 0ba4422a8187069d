"""``manage.py create_game``: a new game for players given by email."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser

from games import jobs, services
from games.management.commands._base import run
from games.rules import registry
from games.rules.base import About


def _games() -> str:
    """The games this service hosts, for the help: name, title, player counts, editions, options."""
    lines = []
    for name in registry.names():
        rules = registry.get(name)
        if not hasattr(rules, "setup"):  # a game still being written
            lines.append(f"{name} (not playable yet)")
            continue
        counts = ", ".join(str(n) for n in rules.player_counts)
        options = ", ".join(f"{k}={v}" for k, v in rules.about.OPTIONS.items()) or "none"
        editions = ", ".join(rules.about.editions)
        lines.append(f"{name} ({rules.title}: {counts} players; editions {editions}; options {options})")
    return "; ".join(lines)


def _first_seats() -> str:
    """Who begins when --first-seat is not given, game by game (``default_first_seat``)."""
    said = []
    for name in registry.names():
        rules = registry.get(name)
        if not hasattr(rules, "setup"):
            continue
        first = rules.about.default_first_seat
        said.append(f"{rules.title} {'by lot' if first is None else rules.seat_colours[first]}")
    return ", ".join(said)


def _option_flags() -> dict[str, tuple[str, str, Any, str]]:
    """Every game's own flags for its options (``OPTION_FLAGS``): flag -> (the game, the
    option, the value it sets or the values it takes, what it does)."""
    flags: dict[str, tuple[str, str, Any, str]] = {}
    for name in registry.names():
        for flag, (option, value, said) in registry.get(name).about.OPTION_FLAGS.items():
            flags.setdefault(flag, (name, option, value, said))
    return flags


def _dest(flag: str) -> str:
    return flag.replace("-", "_")


def _own_first_seats() -> str:
    """What the games that have a name of their own for the seat that begins call it."""
    said = []
    for name in registry.names():
        rules = registry.get(name)
        key = str(rules.about.FIRST_SEAT_KEY)
        if key != About.FIRST_SEAT_KEY:
            said.append(f"{rules.title}: the {key.replace('_', ' ')}")
    return f" ({'; '.join(said)})" if said else ""


def _own_first_seat_flags() -> list[str]:
    """The flags of the games' own names for the seat that begins (``--first-emperor``)."""
    keys = {str(registry.get(name).about.FIRST_SEAT_KEY) for name in registry.names()}
    return sorted("--" + key.replace("_", "-") for key in keys - {About.FIRST_SEAT_KEY})


def _dealing() -> str:
    """The games' options that make table talk full (``FULL_PRESS_OPTIONS``)."""
    said = []
    for name in registry.names():
        rules = registry.get(name)
        dealing = rules.about.FULL_PRESS_OPTIONS
        if dealing:
            said.append(f"{rules.title}: {', '.join(dealing)}")
    return f" ({'; '.join(said)})" if said else ""


class Command(BaseCommand):
    @property
    def help(self) -> str:  # type: ignore[override]
        return (
            "Create a game for players given by email (seats and colours in that order; an unknown "
            "email becomes a new player named after its local part). Prints the game id, the seats "
            f"and the seed's hash — never the seed. The games: {_games()}."
        )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--player",
            action="append",
            default=[],
            metavar="EMAIL[,EMAIL...]",
            required=True,
            help="a player's email; repeat it, or give a comma-separated list",
        )
        parser.add_argument(
            "--name",
            action="append",
            default=[],
            metavar="EMAIL=NAME",
            help="the name of a player created by this command (repeatable)",
        )
        parser.add_argument("--game-name", default="", help="a name for the game")
        parser.add_argument(
            "--rules",
            choices=registry.names(),
            default=settings.DEFAULT_GAME,
            help=f"the game to play (default {settings.DEFAULT_GAME}): {', '.join(registry.names())}",
        )
        parser.add_argument("--edition", default=None, help="one of the game's editions (default: its first)")
        parser.add_argument(
            "--option",
            action="append",
            default=[],
            metavar="NAME=VALUE",
            help="one of the game's options (repeatable; yes/no for a switch)",
        )
        for flag, (game, _, value, said) in _option_flags().items():  # each game's own flags
            title = registry.get(game).title
            if isinstance(value, tuple):  # the flag takes one of these values
                parser.add_argument(f"--{flag}", choices=value, default=None, help=f"{title}: {said}")
            else:
                parser.add_argument(f"--{flag}", action="store_true", help=f"{title}: {said}")
        parser.add_argument(
            "--first-seat",
            *_own_first_seat_flags(),
            dest="first_seat",
            default=None,
            metavar="COLOUR|lot",
            help=f"the colour of the seat that begins{_own_first_seats()}, or 'lot' to "
            f"draw it from the seed (default: {_first_seats()})",
        )
        parser.add_argument("--seed", default=None, help="the game's seed (default: a random one)")
        parser.add_argument(
            "--board", default=None, help="a built-in board name or a board JSON file (default: the game's)"
        )
        parser.add_argument("--start", action="store_true", help="start the game at once")
        parser.add_argument(
            "--ready-hours",
            type=float,
            default=0,
            metavar="HOURS",
            help="open a ready window: every player is mailed and answers 'ready' (with some text of "
            "their own, mixed into the draws); the game starts when all have answered or after HOURS "
            "(default 0: no window; --start or start_game starts it)",
        )
        parser.add_argument(
            "--press",
            choices=["full", "public", "none"],
            default=None,
            help="table talk: full (to all and private), public (only to all) or none (gunboat); "
            f"default: full with a variant about dealing{_dealing()}, else public",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        rules = options["rules"]
        chosen = _game_options(rules, options)
        game = run(
            lambda: jobs.create_game(
                jobs.split_emails(options["player"]),
                names=jobs.parse_name_pairs(options["name"]),
                rules=rules,
                edition=options["edition"],
                options=chosen,
                first_seat=options["first_seat"],
                seed=options["seed"],
                board=options["board"],
                name=options["game_name"],
                start=options["start"],
                ready_hours=options["ready_hours"],
                press=options["press"],
            )
        )
        self.stdout.write(jobs.describe_created(game))


def _game_options(rules: str, options: dict[str, Any]) -> dict[str, Any]:
    """The options asked for: the game's own flags (``OPTION_FLAGS``), and ``--option
    NAME=VALUE``; a flag of another game is refused."""
    chosen: dict[str, Any] = {}
    given = {f: spec for f, spec in _option_flags().items() if options.get(_dest(f)) not in (None, False)}
    foreign = [f for f, (game, *_) in given.items() if game != rules]
    if foreign:
        owners = " and ".join(sorted({registry.get(given[f][0]).title for f in foreign}))
        raise CommandError(
            f"{', '.join('--' + f for f in foreign)} {'are' if len(foreign) > 1 else 'is one of'} "
            f"{owners}'s options; use --option NAME=VALUE for {rules}."
        )
    for flag, (_, option, value, _) in given.items():
        chosen[option] = options[_dest(flag)] if isinstance(value, tuple) else value
    game = registry.get(rules)
    for item in options["option"]:
        name, sep, value = item.partition("=")
        name = name.strip()
        if not sep or not name:
            raise CommandError(f"--option takes NAME=VALUE, not '{item}'.")
        chosen[name] = _value(game, name, value.strip())
    return chosen


def _value(game: Any, name: str, text: str) -> Any:
    """``--option NAME=VALUE``'s value as the type of the option's default: a switch takes
    yes/no, true/false or on/off, a number digits; anything else is refused here (an unknown
    option is refused by the service, which names the game's options)."""
    if name not in game.about.OPTIONS:
        return text
    value = services.option_from_words(game, name, text)
    refusal = services.option_refusal(game, name, value)
    if refusal:
        raise CommandError(f"--option {name}={text}: {refusal}")
    return value
