"""Joining a season: by mail (``join <league>`` to the service address) or by a moderator.

A ``join`` from an address we do not know registers a player with that address (and the
name the mail gives, else the address's local part): the mail is the sign-up.  Either way
the sender is answered (``welcome``): that they are in, or why not, with the leagues open for
sign-up.  Anything else from a stranger stays stored and unanswered (notifications.inbound).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from django.db import transaction

from games.models import Player

from .models import League, Membership, Season
from .seating import moderator_refusal

JOIN = re.compile(r"^join\s+([\w-]+)\s*$", re.IGNORECASE)


@dataclass
class Answer:
    joined: bool
    message: str
    season: str = ""
    league: str = ""
    open_leagues: list[str] = field(default_factory=list)

    def context(self) -> dict[str, object]:
        return {
            "joined": self.joined,
            "message": self.message,
            "season": self.season,
            "league": self.league,
            "open_leagues": self.open_leagues,
            "example": self.open_leagues[0].split()[0] if self.open_leagues else "",
        }


def join_command(lines: tuple[str, ...] | list[str]) -> str | None:
    """The league slug of a mail that is exactly one ``join <league>`` line, else None."""
    if len(lines) != 1:
        return None
    match = JOIN.match(lines[0].strip())
    return match.group(1).lower() if match else None


def open_season(league: League) -> Season | None:
    return league.seasons.filter(signup_open=True).order_by("-created_at", "-pk").first()


def open_leagues() -> list[str]:
    """``slug (name)`` of every league with a season open for sign-up."""
    leagues = League.objects.filter(seasons__signup_open=True).distinct().order_by("slug")
    return [f"{league.slug} ({league.name})" for league in leagues]


def add_member(season: Season, player: Player, via: str = Membership.Via.ADMIN) -> tuple[Membership, bool]:
    """Put a player in a season (refused for the league's moderators); (row, created)."""
    refusal = moderator_refusal(season, player)
    if refusal:
        raise ValueError(refusal)
    return Membership.objects.get_or_create(season=season, player=player, defaults={"via": via})


def join_by_mail(address: str, name: str, slug: str) -> Answer:
    """What a ``join <slug>`` from ``address`` does, and what to answer."""
    with transaction.atomic():
        league = League.objects.filter(slug__iexact=slug).first()
        season = open_season(league) if league else None
        if league is None or season is None:
            what = f"There is no league '{slug}'." if league is None else f"{league} takes no sign-ups now."
            return Answer(False, what, league=league.name if league else "", open_leagues=open_leagues())
        player = Player.objects.filter(email__iexact=address).first()
        if player is None:
            player = Player.objects.create(email=address, name=(name or address.split("@")[0])[:100])
        try:
            _, created = add_member(season, player, Membership.Via.MAIL)
        except ValueError as error:
            return Answer(False, str(error), league=league.name, open_leagues=open_leagues())
        said = "Welcome" if created else "You had already joined"
        return Answer(True, f"{said}: you are in {season}.", season=season.name, league=league.name)
