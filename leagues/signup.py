"""Joining a season: by mail (``join <league>`` to the service address) or by a moderator.

A ``join`` from an address we do not know registers a player with that address (and the
name the mail gives, else the address's local part): the mail is the sign-up.  Either way
the sender is answered (``welcome``): that they are in, or why not, with the leagues open for
sign-up.  Anything else from a stranger stays stored and unanswered (notifications.inbound.routing).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from django.db import transaction
from django.utils.translation import gettext_noop

from games.models import Player
from leagues.models import League, Membership, Season
from leagues.seating import moderator_refusal
from notifications.inbound.parsing import ParsedMail
from notifications.models import InboundMail
from notifications.outbound import outbox
from notifications.services.mailwords import JOIN_WORDS
from notifications.services.prose import split_prose

JOIN = re.compile(r"^join\s+([\w-]+)\s*$", re.IGNORECASE)


# What the answer says, in English.  The mail is rendered when it is sent, in the reader's
# language (leagues.mail.welcome_context), so an answer keeps which sentence and its names.
SAID = {
    "welcome": gettext_noop("Welcome: you are in {season}."),
    "again": gettext_noop("You had already joined: you are in {season}."),
    "no_league": gettext_noop("There is no league '{slug}'."),
    "closed": gettext_noop("{league} takes no sign-ups now."),
    "moderator": gettext_noop("{player} moderates {league} and cannot play in its games."),
}


@dataclass
class Answer:
    joined: bool
    said: str  # a key of SAID
    names: dict[str, str] = field(default_factory=dict)
    season: str = ""
    league: str = ""
    open_leagues: list[str] = field(default_factory=list)

    @property
    def message(self) -> str:
        """The sentence in English (the inbound mail's log)."""
        return SAID[self.said].format(**self.names)

    def context(self) -> dict[str, object]:
        return {
            "joined": self.joined,
            "said": self.said,
            "names": self.names,
            "message": self.message,
            "season": self.season,
            "league": self.league,
            "open_leagues": self.open_leagues,
            "example": self.open_leagues[0].split()[0] if self.open_leagues else "",
        }


def join_request(lines: tuple[str, ...] | list[str]) -> tuple[str, list[str]] | None:
    """``(slug, ignored lines)`` of a mail whose one command is ``join <league>`` and whose
    other lines, above or below it, are prose ("Hi,", "thanks!", a name: the rule of
    ``notifications.services.prose``), else None.  A second line that is, or could be a mistyped,
    ``join`` or game command makes it no join."""
    commands, ignored = split_prose(lines, JOIN_WORDS)
    if len(commands) != 1:
        return None
    match = JOIN.match(commands[0].strip())
    return (match.group(1).lower(), ignored) if match else None


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
        if league is None:
            return Answer(False, "no_league", {"slug": slug}, open_leagues=open_leagues())
        season = open_season(league)
        if season is None:
            return Answer(
                False, "closed", {"league": league.name}, league=league.name, open_leagues=open_leagues()
            )
        player = Player.objects.filter(email__iexact=address).first()
        if player is None:
            player = Player.objects.create(email=address, name=(name or address.split("@")[0])[:100])
        if moderator_refusal(season, player):
            names = {"player": player.name, "league": league.name}
            return Answer(False, "moderator", names, league=league.name, open_leagues=open_leagues())
        _, created = add_member(season, player, Membership.Via.MAIL)
        said = "welcome" if created else "again"
        return Answer(True, said, {"season": str(season)}, season=season.name, league=league.name)


def answer_join(mail: InboundMail, parsed: ParsedMail) -> tuple[str, str] | None:
    """A mail to the service address that is ``join <league>`` (and maybe prose above or
    below it, ignored and said in the answer): sign the sender up
    (a new address becomes a player) and answer; None for anything else.  Registered with
    mail's service address by the app's ``ready()``."""
    request = join_request(parsed.lines)
    if request is None:
        return None
    slug, ignored = request
    result = join_by_mail(parsed.from_address, parsed.from_name, slug)
    context = {**result.context(), "ignored": ignored}
    outbox.answer(mail, "welcome", parsed.from_address, context, in_reply_to=parsed.message_id)
    status = InboundMail.Status.APPLIED if result.joined else InboundMail.Status.REFUSED
    note = f"; ignored, not commands: {' | '.join(ignored)}" if ignored else ""
    return status, f"join {slug}: {result.message}{note}"
