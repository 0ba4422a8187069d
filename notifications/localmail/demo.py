"""``manage.py demo``: a game to try the service on one machine — you hold one seat, bots
hold the others (players at ``BOT_DOMAIN``), and every mail lands in the local mailbox."""

from __future__ import annotations

from django.conf import settings

from games import cli
from games.models import Game
from games.rules.whitelotus.constants import COLOURS

from .backend import mailbox_url
from .bots import BOT_DOMAIN, bot_address, is_bot


def create_demo(
    email: str = "you@localhost",
    *,
    players: int = 4,
    edition: str = "kosmos",
    seat: int = 0,
    name: str = "",
    seed: str | None = None,
) -> Game:
    """Create and start the game; the invitations go out as it starts."""
    if not 3 <= players <= 6:
        raise cli.JobError("White Lotus is for 3 to 6 players.")
    if not 0 <= seat < players:
        raise cli.JobError(f"--seat must be 0 to {players - 1} (0 is {COLOURS[0]}).")
    if is_bot(email):
        raise cli.JobError(f"{email} is a bot's address (@{BOT_DOMAIN}): give your own with --email.")
    emails = [email if position == seat else bot_address(COLOURS[position]) for position in range(players)]
    names = {bot_address(COLOURS[p]): f"{COLOURS[p].capitalize()} bot" for p in range(players) if p != seat}
    if name:
        names[email] = name
    return cli.create_game(
        emails,
        names=names,
        edition=edition,
        seed=seed,
        name=f"Demo ({edition}, {players} players)",
        start=True,
    )


def describe_demo(game: Game, email: str) -> str:
    site = settings.SITE_URL.rstrip("/")
    seat = game.seats.get(player__email__iexact=email)
    lines = [
        f"Demo game {game.pk} started: you are {seat.colour} ({email}); bots hold the other seats.",
        f"  Your mailbox: {mailbox_url(email)}",
        f"  The game:     {site}/games/{game.pk}/",
        f"  All mailboxes: {site}/mailbox/",
        "Answer your decision mails from the mailbox; the bots answer theirs while "
        "`manage.py bots --loop 0.5` runs (scripts/serve starts it).",
    ]
    if not settings.LOCAL_MAILBOX:
        lines.append("Note: LOCAL_MAILBOX is off, so the mails did not go to the local mailbox.")
    return "\n".join(lines)
