"""``manage.py demo``: a game to try the service on one machine — you hold one seat, bots
hold the others (players at ``BOT_DOMAIN``), and every mail lands in the local mailbox.

Any game of the service (``--rules``): its player counts, seat colours and editions come from
its rules (``games.rules.registry``)."""

from __future__ import annotations

from typing import Any

from django.conf import settings

from games import jobs
from games.models import Game
from games.rules import registry
from notifications.localmail.backend import mailbox_url
from notifications.localmail.bots import BOT_DOMAIN, bot_address, is_bot


def create_demo(
    email: str = "you@localhost",
    *,
    players: int = 4,
    edition: str | None = None,
    seat: int = 0,
    name: str = "",
    seed: str | None = None,
    rules: str | None = None,
) -> Game:
    """Create and start the game; the invitations go out as it starts.  ``edition`` None is
    the game's first (default) edition."""
    rules = rules or settings.DEFAULT_GAME
    try:
        game_rules = registry.get(rules)
    except registry.UnknownRules as error:
        raise jobs.JobError(str(error)) from None
    counts = tuple(game_rules.player_counts)
    if players not in counts:
        raise jobs.JobError(f"{game_rules.title} is for {_counts(counts)} players.")
    edition = edition or game_rules.about.editions[0]
    if edition not in game_rules.about.editions:
        raise jobs.JobError(f"{game_rules.title} has the editions {', '.join(game_rules.about.editions)}.")
    colours = game_rules.seat_colours
    if not 0 <= seat < players:
        raise jobs.JobError(f"--seat must be 0 to {players - 1} (0 is {colours[0]}).")
    if is_bot(email):
        raise jobs.JobError(f"{email} is a bot's address (@{BOT_DOMAIN}): give your own with --email.")
    emails = [email if position == seat else bot_address(colours[position]) for position in range(players)]
    # names that read the same in every language (the seat's colour is shown beside them)
    names = {bot_address(colours[p]): f"Bot {p + 1}" for p in range(players) if p != seat}
    if name:
        names[email] = name
    of_game: dict[str, Any] = {"rules": rules, "board": game_rules.about.default_board}
    return jobs.create_game(
        emails,
        names=names,
        edition=edition,
        seed=seed,
        name="Demo",  # its edition and players are on its page, in the reader's language
        start=True,
        **of_game,
    )


def _counts(counts: tuple[int, ...]) -> str:
    """(3, 4, 5, 6) -> "3 to 6"; (2, 4) -> "2 or 4"."""
    if len(counts) > 2 and counts == tuple(range(counts[0], counts[-1] + 1)):
        return f"{counts[0]} to {counts[-1]}"
    if len(counts) < 2:
        return "".join(map(str, counts))
    return f"{', '.join(map(str, counts[:-1]))} or {counts[-1]}"


def describe_demo(game: Game, email: str) -> str:
    site = settings.SITE_URL.rstrip("/")
    seat = game.seats.get(player__email__iexact=email)
    title = game.engine.title
    lines = [
        f"Demo game {game.pk} ({title}) started: you are {seat.colour} ({email}); bots hold the other seats.",
        f"  Your mailbox: {mailbox_url(email)}",
        f"  The game:     {site}/games/{game.pk}/",
        f"  All mailboxes: {site}/mailbox/",
        "Answer your decision mails from the mailbox; the bots answer theirs while "
        "`manage.py bots --loop 0.5` runs (scripts/serve starts it).",
    ]
    if not settings.LOCAL_MAILBOX:
        lines.append("Note: LOCAL_MAILBOX is off, so the mails did not go to the local mailbox.")
    return "\n".join(lines)
