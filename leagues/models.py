"""Leagues, their seasons, the seasons' members and which games belong to which season.

Nothing here counts results: standings and ratings are derived from the games' event logs
(``leagues.standings``).  ``LeagueGame`` only says that a game was seated for a season's
round; the game itself lives in the games app, which never imports this one (it asks
``games.services.permissions``, where this app registers its moderators' scope).
"""

from __future__ import annotations

from typing import ClassVar

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from games.models import Game, Player
from games.rules import registry


class League(models.Model):
    name = models.CharField(max_length=100, verbose_name=_("name"))
    slug = models.SlugField(
        unique=True, help_text=_("Players write it to join: join <slug>."), verbose_name=_("short name")
    )
    description = models.TextField(blank=True, verbose_name=_("description"))
    # scoped moderators: they see and act on this league's games only (games.services.permissions)
    moderators = models.ManyToManyField(
        settings.AUTH_USER_MODEL, blank=True, related_name="moderated_leagues", verbose_name=_("moderators")
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("league")
        verbose_name_plural = _("leagues")
        ordering = ("name",)

    def __str__(self) -> str:
        return self.name


READY_HOURS = 24.0  # a new season's ready window


def default_game() -> str:
    """A new season's game when none is chosen: the site's (``settings.DEFAULT_GAME``)."""
    return str(settings.DEFAULT_GAME)


class Season(models.Model):
    """A run of rounds; its games are games of its game (``rules``), created with its
    edition, options, board and clock."""

    league = models.ForeignKey(
        League, on_delete=models.PROTECT, related_name="seasons", verbose_name=_("league")
    )
    name = models.CharField(max_length=100, verbose_name=_("name"))
    signup_open = models.BooleanField(
        default=True, help_text=_("Players may join by mail."), verbose_name=_("sign-up open")
    )
    # the game its games are games of (games.rules.registry); the admin form offers them
    rules = models.CharField(max_length=40, default=default_game, verbose_name=_("game"))
    # one of that game's editions (the admin form checks it); blank: the game's first
    edition = models.CharField(max_length=20, blank=True, default="", verbose_name=_("edition"))
    options = models.JSONField(default=dict, blank=True)  # the game's OPTIONS (names and values)
    # a board of that game's (built in, or a file the site admin names); blank: the game's own
    board = models.CharField(max_length=200, blank=True, default="", verbose_name=_("board"))
    # table talk in its games (``games.services.press``); blank: the game's default (full with White
    # Lotus's negotiation variant, else public)
    press = models.CharField(
        max_length=6, choices=Game.Press.choices, blank=True, default="", verbose_name=_("table talk")
    )
    time_controls = models.JSONField(default=dict, blank=True)  # games.services.timing.TimeControls
    # the hours a seated game waits for its players' "ready" (their entropy, mixed into its
    # draws: games.services.create_game) before it starts with what arrived; 0: at once
    ready_hours = models.FloatField(
        default=READY_HOURS,
        help_text=_(
            "Hours a new game waits for its players to reply 'ready' (their own chance, mixed "
            "into the draws); it starts when all have, or then. 0: games start at once."
        ),
        verbose_name=_("ready window (hours)"),
    )
    # the season's rule for dropped seats (leagues.receivers): after this many defaults in a
    # row, the service's bot plays the seat (games.services.bots); 0: never
    bot_after_defaults = models.PositiveSmallIntegerField(
        default=3,
        help_text=_(
            "After this many moves in a row played by default, the service's bot plays the "
            "seat for its player (who can take it back by replying 'back'). 0: never."
        ),
        verbose_name=_("bot after defaults in a row"),
    )
    members: models.ManyToManyField[Player, Membership] = models.ManyToManyField(
        Player, through="Membership", related_name="seasons"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("season")
        verbose_name_plural = _("seasons")
        ordering = ("league", "created_at", "pk")

    @property
    def edition_played(self) -> str:
        """The edition its games are created with: its own, else the game's first."""
        return self.edition or registry.get(self.rules).about.editions[0]

    @property
    def board_played(self) -> str:
        """The board its games are created on: its own, else the game's."""
        return self.board or registry.get(self.rules).about.default_board

    def __str__(self) -> str:
        return f"{self.league.name}: {self.name}"


class Membership(models.Model):
    class Via(models.TextChoices):
        MAIL = "mail", _("joined by mail")
        ADMIN = "admin", _("added by a moderator")

    season = models.ForeignKey(Season, on_delete=models.CASCADE, related_name="memberships")
    player = models.ForeignKey(
        Player, on_delete=models.PROTECT, related_name="memberships", verbose_name=_("player")
    )
    via = models.CharField(max_length=5, choices=Via.choices, default=Via.ADMIN, verbose_name=_("joined by"))
    joined_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("member")
        verbose_name_plural = _("members")
        constraints: ClassVar = [
            models.UniqueConstraint(fields=["season", "player"], name="one_membership_per_season"),
        ]

    def __str__(self) -> str:
        return f"{self.player} in {self.season}"


class LeagueGame(models.Model):
    """A game seated for a round of a season."""

    game = models.OneToOneField(
        Game, on_delete=models.PROTECT, related_name="league_game", verbose_name=_("game")
    )
    season = models.ForeignKey(
        Season, on_delete=models.PROTECT, related_name="league_games", verbose_name=_("season")
    )
    round = models.PositiveSmallIntegerField(verbose_name=_("round"))

    class Meta:
        verbose_name = _("league game")
        verbose_name_plural = _("league games")
        ordering = ("season", "round", "game")

    def __str__(self) -> str:
        return f"{self.season}, round {self.round}: {self.game}"


# --- the read side: projections of the games' results (``leagues.projection``) ---------------


class StandingLine(models.Model):
    """A season's standings figures of one player: a projection of the season's finished
    games' results (``games.SeatResult``), kept by ``leagues.projection`` alone.

    A result counts for whoever held the seat at the end (``player``, read with their
    address and name as they are now); a holder replaced earlier is counted by the address
    the log has for them (``email``: the games they left, their missed moves).  The page
    merges the two by address, as the live computation did."""

    season = models.ForeignKey(Season, on_delete=models.CASCADE, related_name="standing_lines")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, null=True, blank=True, related_name="+")
    email = models.CharField(max_length=254, blank=True)  # only without a player
    played = models.PositiveIntegerField(default=0)
    wins = models.PositiveIntegerField(default=0)
    points = models.FloatField(default=0.0)
    missed = models.PositiveIntegerField(default=0)
    left = models.JSONField(default=list)  # ids of the games they were replaced in
    bot_games = models.JSONField(default=list)  # ids of the games the bot played for them in

    class Meta:
        constraints: ClassVar = [
            models.UniqueConstraint(
                fields=["season", "player"],
                condition=models.Q(player__isnull=False),
                name="standing_line_per_player",
            ),
            models.UniqueConstraint(
                fields=["season", "email"],
                condition=models.Q(player__isnull=True),
                name="standing_line_per_email",
            ),
        ]


class SeasonTally(models.Model):
    """How many of a season's games are finished and counted in its lines: a projection,
    kept with the lines (a count over the results would grow with them)."""

    season = models.OneToOneField(Season, on_delete=models.CASCADE, primary_key=True, related_name="tally")
    games = models.PositiveIntegerField(default=0)


class PlayerRating(models.Model):
    """A player's league rating after every league game finished so far (openskill's
    Plackett-Luce, updated game by game in the order they finished): a projection."""

    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="ratings")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="+")
    mu = models.FloatField()
    sigma = models.FloatField()

    class Meta:
        constraints: ClassVar = [
            models.UniqueConstraint(fields=["league", "player"], name="one_rating_per_league"),
        ]


class RatedSeat(models.Model):
    """A seat's rating after its league game: the order in which the league's games were
    rated, and the ratings as they stood when a game ended (its standings mail)."""

    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="+")
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="+", db_index=False)
    position = models.PositiveSmallIntegerField()
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="+")
    mu = models.FloatField()
    sigma = models.FloatField()
    finished_at = models.DateTimeField()

    class Meta:
        constraints: ClassVar = [
            models.UniqueConstraint(fields=["game", "position"], name="rated_seat_unique"),
        ]
        indexes: ClassVar = [
            models.Index(fields=["league", "finished_at", "game"], name="rated_seat_order_idx")
        ]
