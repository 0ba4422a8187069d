"""Hosting games: players, games, seats, the append-only event log and disposable snapshots.

The event log is the truth.  A game's state is what replaying its effective events through
the rules engine gives (``games.services.state_at``); ``Snapshot`` rows only shorten that
replay and can be dropped at any time.  ``Game.status``/``head_seq`` and ``Seat.player`` are
projections of the log, updated in the same transaction as the events that change them.
Events are never updated or deleted: a database trigger refuses it (migration 0002).
"""

from __future__ import annotations

from datetime import timedelta
from functools import cached_property
from typing import ClassVar, NamedTuple

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from games.rules import registry
from games.rules.base import Rules

# a new game's edition unless told: the default game's first (the service picks the game's own)


class Player(models.Model):
    """A person who plays (by mail); linked to a Django user where they log in."""

    class Language(models.TextChoices):
        EN = "en", "English"
        DE = "de", "Deutsch"
        FR = "fr", "Français"

    name = models.CharField(max_length=100, verbose_name=_("name"))
    email = models.EmailField(unique=True, verbose_name=_("address"))
    language = models.CharField(
        max_length=2, choices=Language.choices, default=Language.EN, verbose_name=_("language")
    )
    time_zone = models.CharField(max_length=64, default="UTC", verbose_name=_("time zone"))
    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="player",
        verbose_name=_("login"),
    )
    created_at = models.DateTimeField(auto_now_add=True, verbose_name=_("added"))
    # a hard bounce sets it: no more mail goes to the address until a moderator clears it
    email_bounced_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        verbose_name = _("player")
        verbose_name_plural = _("players")

    def __str__(self) -> str:
        return f"{self.name} <{self.email}>"


class Collection(models.Model):
    """Games imported together from a file or folder of records: a tournament, a club's year."""

    name = models.CharField(max_length=100, unique=True)
    slug = models.SlugField(max_length=100, unique=True)
    description = models.TextField(blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering: ClassVar = ["name"]

    def __str__(self) -> str:
        return self.name


class RecordDraft(models.Model):
    """A game played elsewhere being entered by hand on the moderators' page, line by line
    (games.rules.entry.Draft; ``manage.py enter_game`` keeps its draft in a file).  A working
    copy, not a game: it becomes one, with events, when it is imported."""

    name = models.CharField(max_length=100, verbose_name=_("name"))
    text = models.TextField(blank=True, verbose_name=_("record"))
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        verbose_name=_("entered by"),
    )
    updated_at = models.DateTimeField(auto_now=True, verbose_name=_("last changed"))
    game = models.ForeignKey("Game", null=True, blank=True, on_delete=models.SET_NULL, related_name="+")

    class Meta:
        verbose_name = _("game being entered")
        verbose_name_plural = _("games being entered")
        ordering: ClassVar = ["-updated_at"]

    def __str__(self) -> str:
        return self.name


class Game(models.Model):
    class Status(models.TextChoices):
        NEW = "new", _("new (not started)")
        RUNNING = "running", _("running")
        PAUSED = "paused", _("paused")
        FINISHED = "finished", _("finished")

    class Press(models.TextChoices):
        """Table talk (``games.services.press``): who may say what to whom."""

        FULL = "full", _("full (to all and private)")
        PUBLIC = "public", _("public (only to all)")
        NONE = "none", _("none (gunboat)")

    name = models.CharField(max_length=100, blank=True, verbose_name=_("name"))
    rules = models.CharField(max_length=40, verbose_name=_("game"))  # the game: games.rules.registry
    engine_version = models.CharField(max_length=40, verbose_name=_("rules version"))  # pinned at creation
    # one of the game's editions (``rules.about.editions``; ``clean`` checks it)
    edition = models.CharField(max_length=20, verbose_name=_("edition"))
    options = models.JSONField(default=dict, blank=True)
    # table talk allowed (``games.services.press``); set at creation, the service's option, not the rules'
    press = models.CharField(
        max_length=6, choices=Press.choices, default=Press.PUBLIC, verbose_name=_("table talk")
    )
    board = models.CharField(max_length=200, verbose_name=_("board"))  # built-in name or file path
    board_digest = models.CharField(max_length=64)
    seed_hash = models.CharField(max_length=64)  # sha256 of the seed, public from the start
    status = models.CharField(
        max_length=10, choices=Status.choices, default=Status.NEW, verbose_name=_("status")
    )
    head_seq = models.PositiveIntegerField(default=0, verbose_name=_("latest event"))  # seq of the last event
    # not a column: the seats as the transaction that locked the game knows them, at its head
    # (``games.services.seat_rows``)
    known_seats: tuple[SeatRow, ...] | None = None
    time_controls = models.JSONField(default=dict, blank=True)  # games.services.timing.TimeControls
    # set while the game's clock is stopped (paused, or a player on vacation): deadlines are
    # moved on by the stopped time when it restarts
    clock_stopped_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    # a new game waiting for its players' ``ready`` (their entropy) starts at the latest then
    # (games.services.create_game's ready window; None: started by hand)
    ready_until = models.DateTimeField(null=True, blank=True)
    # a game played elsewhere and entered from its record: where and when it was played,
    # the event, where the record came from ({"place", "date", "event", "source"}), and the
    # collection (a tournament) it was imported with
    about = models.JSONField(default=dict, blank=True)
    collection = models.ForeignKey(
        "Collection", null=True, blank=True, on_delete=models.PROTECT, related_name="games"
    )

    class Meta:
        verbose_name = _("game")
        verbose_name_plural = _("games")
        indexes: ClassVar = [
            models.Index(fields=["status"]),
            # the newest games first (a season's on the league page, the archive's first page):
            # read backwards from the top instead of sorting every game
            models.Index(fields=["created_at", "id"], name="game_created_idx"),
        ]

    def __str__(self) -> str:
        # a game nobody named: in the reader's language ("Partie 12")
        return self.name or gettext("Game %(id)s") % {"id": self.pk}

    @cached_property
    def engine(self) -> Rules:
        """The game's rules (``registry.get(rules)``), looked up once for this row: a request, a
        task or a mail that holds the game reads them here, and the functions it calls take the
        game (or these rules) rather than look them up again by name."""
        return registry.get(self.rules)

    @property
    def game_title(self) -> str:
        """The name for people of the game this is a game of, in the reader's language ("White
        Lotus", "Der weiße Lotus")."""
        try:
            return gettext(self.engine.title)
        except (registry.UnknownRules, AttributeError):
            return self.rules

    def get_edition_display(self) -> str:
        """The edition as people read it (the game's page words for it, else its code)."""
        try:
            words = self.engine.about.PAGE_WORDS or {}
            return str(words.get("edition", {}).get(self.edition, self.edition))
        except registry.UnknownRules:
            return self.edition

    def clean(self) -> None:
        super().clean()
        try:
            editions = self.engine.about.editions
        except registry.UnknownRules as error:
            raise ValidationError({"rules": str(error)}) from None
        if self.edition not in editions:
            raise ValidationError(
                {"edition": f"{self.edition!r} is not an edition of this game ({', '.join(editions)})."}
            )


# the domain of the addresses a record's players get when it names none (RFC 2606: never
# delivered): nothing is written to them (notifications.outbound.outbox)
PLACEHOLDER_DOMAIN = "import.invalid"


class SeatRow(NamedTuple):
    """Who holds a seat, whether the bot plays it, and whether its player has an address mail
    can go to (not a placeholder of an imported record) (``games.services.seat_rows``)."""

    position: int
    player_id: int
    by_bot: bool
    mailable: bool = True


class Seat(models.Model):
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="seats")
    position = models.PositiveSmallIntegerField()  # 0-based seat of the rules engine
    colour = models.CharField(max_length=10)
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="seats")
    # projections of the log, kept by games.services in the transaction of the events
    away_until = models.DateTimeField(null=True, blank=True)  # on vacation until
    vacation_used = models.DurationField(default=timedelta(0))
    # set while the service's bot plays the seat for its player (``games.services.bots``); a person
    # taking it over again (``replace_seat``, or its player's ``back``) clears it
    bot_since = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ("game", "position")
        constraints: ClassVar = [
            models.UniqueConstraint(fields=["game", "position"], name="seat_position_unique"),
            models.UniqueConstraint(fields=["game", "colour"], name="seat_colour_unique"),
        ]
        indexes: ClassVar = [
            # the minute sweep looks for vacations that are over: few rows, found by index
            models.Index(
                fields=["away_until"], condition=models.Q(away_until__isnull=False), name="seat_away_idx"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.colour} ({self.player.name}{', bot' if self.bot_since else ''})"

    @property
    def by_bot(self) -> bool:
        return self.bot_since is not None


class Event(models.Model):
    """One accepted decision or system act.  Append-only (the database refuses changes)."""

    class Kind(models.TextChoices):
        CREATED = "created", _("game created")
        STARTED = "started", _("game started")
        COMMAND = "command", _("command")
        DEFAULT = "default", _("default move (deadline)")
        ROLLED_BACK = "rolled_back", _("rolled back")
        PAUSED = "paused", _("paused")
        RESUMED = "resumed", _("resumed")
        DEADLINE_EXTENDED = "deadline_extended", _("deadline extended")
        SEAT_REPLACED = "seat_replaced", _("seat replaced")
        VACATION_STARTED = "vacation_started", _("vacation started")
        VACATION_ENDED = "vacation_ended", _("vacation ended")
        TIME_CONTROLS = "time_controls", _("time controls changed")
        # a seat's contribution to the draws, before the start (games.services.contribute)
        ENTROPY = "entropy", _("draws contributed")
        BOT_SEATED = "bot_seated", _("seat handed to a bot")
        BOT_UNSEATED = "bot_unseated", _("seat taken back from the bot")

    class Source(models.TextChoices):
        MAIL = "mail", _("mail")
        WEB = "web", _("web")
        DEADLINE = "deadline", _("deadline")
        MODERATOR = "moderator", _("moderator")
        SYSTEM = "system", _("system")
        BOT = "bot", _("bot")

    # no index of its own: the (game, seq) unique constraint serves every lookup by game
    game = models.ForeignKey(
        Game, on_delete=models.PROTECT, related_name="events", db_index=False, verbose_name=_("game")
    )
    seq = models.PositiveIntegerField(verbose_name=_("event"))
    kind = models.CharField(max_length=20, choices=Kind.choices, verbose_name=_("kind"))
    schema_version = models.PositiveSmallIntegerField(default=1)
    payload = models.JSONField(default=dict, verbose_name=_("payload"))
    seat = models.PositiveSmallIntegerField(null=True, blank=True, verbose_name=_("seat"))
    source = models.CharField(max_length=10, choices=Source.choices, verbose_name=_("source"))
    command_text = models.TextField(blank=True, verbose_name=_("command"))  # as the player wrote it
    inbound_message_id = models.CharField(
        max_length=255, blank=True, verbose_name=_("message id")
    )  # Message-ID of the mail
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
        db_index=False,  # events are read by game; an actor's events are an audit query
        verbose_name=_("moderator"),
    )
    reason = models.TextField(blank=True, verbose_name=_("reason"))
    created_at = models.DateTimeField(auto_now_add=True, verbose_name=_("when"))

    class Meta:
        verbose_name = _("event")
        verbose_name_plural = _("events")
        ordering = ("game", "seq")
        constraints: ClassVar = [
            models.UniqueConstraint(fields=["game", "seq"], name="event_seq_unique"),
        ]

    def __str__(self) -> str:
        return f"#{self.seq} {self.get_kind_display()}"


class Narration(models.Model):
    """A projection of the log (``games.projections.narration``): what was told of one move
    event in effect, as language-neutral messages (``Message.to_data``), rendered in each
    reader's language when read.  Written inline by ``games.services`` in the transaction that
    appends the event (its only writer), deleted by a rollback of the event, and rebuildable
    from the log at any time (``manage.py rebuild_narration``).

    ``lines``: ``[{"k": kind, "m": message, "to": seat | None, "but": seat | None}]`` in the
    order told; a line is for every seat (``to`` None) or one seat, except ``but``."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="narration", db_index=False)
    seq = models.PositiveIntegerField()
    seat = models.PositiveSmallIntegerField()  # who moved (or had a default played)
    lines = models.JSONField(default=list)

    class Meta:
        constraints: ClassVar = [
            models.UniqueConstraint(fields=["game", "seq"], name="narration_seq_unique"),
        ]

    def __str__(self) -> str:
        return f"narration of #{self.seq} in game {self.game_id}"


class Press(models.Model):
    """One message of table talk (``say blue: …``).  Append-only like ``Event`` (a database
    trigger refuses UPDATE and DELETE, migration 0009) but apart from the event log: press is
    never replayed through the rules, a rollback does not undo it, and it moves neither
    ``head_seq`` nor any deadline, so no reply token or pending decision is touched by it."""

    game = models.ForeignKey(
        Game, on_delete=models.PROTECT, related_name="press_messages", verbose_name=_("game")
    )
    seat = models.PositiveSmallIntegerField(verbose_name=_("seat"))  # who said it (position)
    # who wrote it: the seat's holder then (a seat may be handed over later)
    player = models.ForeignKey(
        Player, on_delete=models.PROTECT, related_name="+", db_index=False, verbose_name=_("player")
    )
    to_all = models.BooleanField(verbose_name=_("to all"))
    to_seats = models.JSONField(
        default=list, verbose_name=_("to seats")
    )  # positions addressed (every other seat when to_all)
    text = models.TextField(verbose_name=_("text"))
    seq = models.PositiveIntegerField(verbose_name=_("after event"))  # the game's head event when it was said
    inbound_message_id = models.CharField(max_length=255, blank=True, verbose_name=_("message id"))
    created_at = models.DateTimeField(auto_now_add=True, verbose_name=_("when"))

    class Meta:
        verbose_name = _("table talk message")
        verbose_name_plural = _("table talk")
        ordering = ("game", "created_at", "pk")
        indexes: ClassVar = [models.Index(fields=["game", "seat", "created_at"], name="press_by_seat_idx")]

    def __str__(self) -> str:
        return f"press {self.pk} in game {self.game_id} from seat {self.seat}"

    def reaches(self, position: int) -> bool:
        """Whether the seat at ``position`` may read it (its sender or an addressee)."""
        return position == self.seat or position in self.to_seats


class DecisionQuerySet(models.QuerySet["PendingDecision"]):
    def owed(self) -> DecisionQuerySet:
        return self.exclude(kind="")


class PendingDecision(models.Model):
    """What a seat owes now, with its deadline: a projection of the log (what
    ``pending(state)`` says at the head), rewritten by ``games.services`` in the transaction
    of every event that changes it.  One row per seat of a running game, ``kind`` empty
    while the seat owes nothing (so a move rewrites its rows in one UPDATE).  The deadline
    sweep reads it by its partial indexes, which hold only rows with a deadline."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="decisions")
    seat = models.PositiveSmallIntegerField()
    kind = models.CharField(max_length=20, blank=True)  # "" : nothing owed
    sealed = models.BooleanField(default=False)
    since_seq = models.PositiveIntegerField()  # the event this decision began with
    deadline_at = models.DateTimeField(null=True, blank=True)  # None: the game has no deadlines
    remind_at = models.DateTimeField(null=True, blank=True)  # the next reminder, if any is left
    reminders_sent = models.PositiveSmallIntegerField(default=0)

    objects = DecisionQuerySet.as_manager()

    class Meta:
        constraints: ClassVar = [
            models.UniqueConstraint(fields=["game", "seat"], name="one_decision_per_seat"),
        ]
        indexes: ClassVar = [
            models.Index(
                fields=["deadline_at"], condition=models.Q(deadline_at__isnull=False), name="decision_due_idx"
            ),
            models.Index(
                fields=["remind_at"], condition=models.Q(remind_at__isnull=False), name="decision_remind_idx"
            ),
        ]

    def __str__(self) -> str:
        return f"seat {self.seat}: {self.kind} (due {self.deadline_at})"


class Heartbeat(models.Model):
    """When a periodic job last ran (the health check reads it)."""

    name = models.CharField(max_length=40, unique=True)
    at = models.DateTimeField()
    detail = models.CharField(max_length=200, blank=True)

    def __str__(self) -> str:
        return f"{self.name} at {self.at}"


class Snapshot(models.Model):
    """The engine state after event ``seq``: a cache, safe to drop."""

    game = models.ForeignKey(
        Game, on_delete=models.CASCADE, related_name="snapshots", db_index=False, verbose_name=_("game")
    )
    seq = models.PositiveIntegerField(verbose_name=_("event"))
    engine_version = models.CharField(max_length=40, verbose_name=_("rules version"))
    state = models.JSONField()
    created_at = models.DateTimeField(auto_now_add=True, verbose_name=_("when"))

    class Meta:
        verbose_name = _("snapshot")
        verbose_name_plural = _("snapshots")
        constraints: ClassVar = [
            models.UniqueConstraint(fields=["game", "seq"], name="snapshot_seq_unique"),
        ]


class SeatResult(models.Model):
    """A finished game's result, one row per seat: a projection of the log (``games.projections.results``).

    Written by ``games.projections.results.project`` only, inline in the transaction that appends the
    event ending the game, deleted by a rollback past the end; rebuilt from the log by
    ``manage.py rebuild_projections``.  Standings, ratings, the archive and a player's page
    read these rows instead of replaying the game."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="results", db_index=False)
    position = models.PositiveSmallIntegerField()
    # who held the seat at the end: their result (their address and name are read from here,
    # so a moderator's later correction shows, as it does on every page)
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="results")
    rank = models.PositiveSmallIntegerField()  # 1 for the winner(s); tied seats share a rank
    score = models.IntegerField()  # the total of the game's score breakdown
    # every holder of the seat in order, {"email", "from_seq", "defaults", "bot"}: the
    # addresses as the log has them (the last one is ``player``'s at the end)
    holders = models.JSONField()
    finished_at = models.DateTimeField()
    end_seq = models.PositiveIntegerField()  # the event that ended the game

    class Meta:
        constraints: ClassVar = [
            models.UniqueConstraint(fields=["game", "position"], name="seat_result_unique"),
        ]
        indexes: ClassVar = [models.Index(fields=["finished_at", "game"], name="seat_result_order_idx")]

    def __str__(self) -> str:
        return f"game {self.game_id}, seat {self.position}: rank {self.rank}"


class SeatKey(models.Model):
    """The secret in a seat page's link (``games.services.links``): bound to the seat *and* the player
    it was issued to, so it stops working the moment the seat is handed to someone else,
    without ``games.services`` having to know about it.  A credential: never logged."""

    seat = models.ForeignKey(Seat, on_delete=models.CASCADE, related_name="page_keys")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="+")  # issued to
    key = models.CharField(max_length=64, unique=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints: ClassVar = [
            models.UniqueConstraint(fields=["seat", "player"], name="one_page_key_per_holder"),
        ]

    def __str__(self) -> str:
        return f"page key of {self.seat_id} for player {self.player_id}"


class PlayerKey(models.Model):
    """The secret in the link to a player's own page (``games.services.links.player_page_url``): their
    games across seats, and their settings.  One live key per player; renewing it replaces the
    key in place, so the old link dies at once.  A credential: never logged."""

    player = models.OneToOneField(Player, on_delete=models.CASCADE, related_name="page_key")
    key = models.CharField(max_length=64, unique=True)
    created_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"page key of player {self.player_id}"
