"""``manage.py create_game``: a new game for players given by email."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from games import cli, services
from games.rules import registry

from ._base import run


def _games() -> str:
    """The games this service hosts, for the help: name, title, player counts, editions, options."""
    lines = []
    for name in registry.names():
        rules = registry.get(name)
        if not hasattr(rules, "setup"):  # a game still being written
            lines.append(f"{name} (not playable yet)")
            continue
        counts = ", ".join(str(n) for n in rules.player_counts)
        options = ", ".join(f"{k}={v}" for k, v in rules.OPTIONS.items()) or "none"
        editions = ", ".join(rules.editions)
        lines.append(f"{name} ({rules.title}: {counts} players; editions {editions}; options {options})")
    return "; ".join(lines)


def _first_seats() -> str:
    """Who begins when --first-seat is not given, game by game (``default_first_seat``)."""
    said = []
    for name in registry.names():
        rules = registry.get(name)
        if not hasattr(rules, "setup"):
            continue
        first = getattr(rules, "default_first_seat", 0)
        said.append(f"{rules.title} {'by lot' if first is None else rules.seat_colours[first]}")
    return ", ".join(said)


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
            default=registry.DEFAULT,
            help=f"the game to play (default {registry.DEFAULT}): {', '.join(registry.names())}",
        )
        parser.add_argument("--edition", default=None, help="one of the game's editions (default: its first)")
        parser.add_argument(
            "--option",
            action="append",
            default=[],
            metavar="NAME=VALUE",
            help="one of the game's options (repeatable; yes/no for a switch)",
        )
        parser.add_argument(
            "--no-zero-card", action="store_true", help="White Lotus: without the 0 card (French rules)"
        )
        parser.add_argument(
            "--negotiation", action="store_true", help="White Lotus: the negotiation variant (gifts)"
        )
        parser.add_argument(
            "--open-hands", action="store_true", help="White Lotus: every hand is shown to everyone"
        )
        parser.add_argument(
            "--adjacency",
            choices=("any", "own"),
            default=None,
            help="White Lotus, designer placement: next to any player's chip, or to one's own",
        )
        parser.add_argument(
            "--first-emperor",
            "--first-seat",
            dest="first_emperor",
            default=None,
            metavar="COLOUR|lot",
            help="the colour of the seat that begins (White Lotus: the first emperor), or 'lot' to "
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
            "default: full with White Lotus's negotiation variant, else public",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        rules = options["rules"]
        chosen = _game_options(rules, options)
        game = run(
            lambda: cli.create_game(
                cli.split_emails(options["player"]),
                names=cli.parse_name_pairs(options["name"]),
                rules=rules,
                edition=options["edition"],
                options=chosen,
                first_emperor=options["first_emperor"],
                seed=options["seed"],
                board=options["board"],
                name=options["game_name"],
                start=options["start"],
                ready_hours=options["ready_hours"],
                press=options["press"],
            )
        )
        self.stdout.write(cli.describe_created(game))


def _game_options(rules: str, options: dict[str, Any]) -> dict[str, Any]:
    """The options asked for: White Lotus's own flags, and ``--option NAME=VALUE``."""
    white_lotus = {
        "zero_card": not options["no_zero_card"],
        "negotiation": options["negotiation"],
        "open_hands": options["open_hands"],
        "adjacency": options["adjacency"] or "any",
    }
    chosen: dict[str, Any] = {}
    if rules == registry.DEFAULT:
        chosen.update(white_lotus)
    elif options["no_zero_card"] or options["negotiation"] or options["open_hands"] or options["adjacency"]:
        raise CommandError(
            "--no-zero-card, --negotiation, --open-hands and --adjacency are White Lotus's options; "
            f"use --option NAME=VALUE for {rules}."
        )
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
    if name not in game.OPTIONS:
        return text
    value = services.option_from_words(game, name, text)
    refusal = services.option_refusal(game, name, value)
    if refusal:
        raise CommandError(f"--option {name}={text}: {refusal}")
    return value
