"""Mail in and out.

* ``ReplyToken``: the secret in a seat's reply address (``<prefix>+<token>@<reply domain>``).
  A credential: 128 random bits, unique, never logged; rotated when the seat changes hands.
* ``OutboundMail``: the transactional outbox.  A row is written in the same transaction as
  the events that cause it, with an idempotency key and a fixed Message-ID; it is rendered
  and sent after commit by a task, retried with backoff, and re-enqueued by a sweep.
* ``InboundMail``: every message that reaches us, stored raw before anything else is done
  with it, once per envelope recipient (unique by Message-ID and recipient, so a duplicate
  delivery is processed once and a mail to two games' reply addresses once in each).
"""

from __future__ import annotations

from typing import ClassVar

from django.db import models

from games.models import Game, Player, Seat


class ReplyToken(models.Model):
    seat = models.ForeignKey(Seat, on_delete=models.CASCADE, related_name="reply_tokens")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="+")  # issued to
    token = models.CharField(max_length=64, unique=True)
    created_at = models.DateTimeField(auto_now_add=True)
    revoked_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints: ClassVar = [
            models.UniqueConstraint(
                fields=["seat"], condition=models.Q(revoked_at__isnull=True), name="one_live_token_per_seat"
            ),
        ]

    def __str__(self) -> str:
        return f"reply token of {self.seat} ({'revoked' if self.revoked_at else 'live'})"


class OutboundMail(models.Model):
    class Status(models.TextChoices):
        PENDING = "pending", "pending"
        SENT = "sent", "sent"
        FAILED = "failed", "failed (gave up)"
        DELIVERED = "delivered", "delivered"
        BOUNCED = "bounced", "bounced"

    key = models.CharField(max_length=200, unique=True)  # idempotency key
    message_id = models.CharField(max_length=255, unique=True)  # without angle brackets
    kind = models.CharField(max_length=40)
    game = models.ForeignKey(Game, null=True, blank=True, on_delete=models.PROTECT, related_name="mails")
    seat = models.PositiveSmallIntegerField(null=True, blank=True)
    player = models.ForeignKey(Player, null=True, blank=True, on_delete=models.PROTECT, related_name="mails")
    to_email = models.EmailField(blank=True)  # filled when sent: the address of who holds the seat then
    seq = models.PositiveIntegerField(default=0)  # the game's event this mail speaks of
    context = models.JSONField(default=dict, blank=True)  # what the renderer needs beyond the log
    in_reply_to = models.CharField(max_length=255, blank=True)
    references = models.TextField(blank=True)
    subject = models.CharField(max_length=300, blank=True)  # filled when rendered
    text = models.TextField(blank=True)
    html = models.TextField(blank=True)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PENDING)
    attempts = models.PositiveSmallIntegerField(default=0)
    last_error = models.TextField(blank=True)
    esp_message_id = models.CharField(max_length=255, blank=True)  # the provider's id (anymail)
    created_at = models.DateTimeField(auto_now_add=True)
    sent_at = models.DateTimeField(null=True, blank=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        indexes: ClassVar = [
            models.Index(
                fields=["created_at"], condition=models.Q(status="pending"), name="outbox_pending_idx"
            ),
            models.Index(fields=["game", "seat", "seq"], name="outbox_game_seat_idx"),
            models.Index(fields=["esp_message_id"], name="outbox_esp_id_idx"),
            # the sending limits count the mails sent in the last minute and day (throttle)
            models.Index(fields=["sent_at"], name="outbox_sent_at_idx"),
        ]

    def __str__(self) -> str:
        return f"{self.kind} to {self.to_email} ({self.status})"


class InboundMail(models.Model):
    class Via(models.TextChoices):
        WEBHOOK = "webhook", "ESP webhook"
        PIPE = "pipe", "MTA pipe"
        SMTP = "smtp", "SMTP listener"
        IMAP = "imap", "IMAP mailbox"

    class Status(models.TextChoices):
        NEW = "new", "new (not processed yet)"
        APPLIED = "applied", "commands applied"
        ANSWERED = "answered", "answered (status or help)"
        REFUSED = "refused", "refused (answered with the reason)"
        WRONG_SENDER = "wrong_sender", "right token, wrong sender (registered address told)"
        FORMER_SEAT = "former_seat", "to a seat handed over since (its former player told so)"
        UNKNOWN = "unknown", "no valid reply token (not answered)"
        IGNORED = "ignored", "automatic mail (not answered)"
        UNREADABLE = "unreadable", "not a mail (not answered)"

    # synthetic when the mail has none (a digest that ignores what relays add on the way)
    message_id = models.CharField(max_length=255, db_index=True)
    raw = models.BinaryField()
    size = models.PositiveIntegerField()
    via = models.CharField(max_length=10, choices=Via.choices)
    envelope_from = models.CharField(max_length=320, blank=True)
    envelope_to = models.TextField(blank=True)  # recipients the transport named, one per line
    # the one envelope recipient this row was delivered to (lower case; '' when the transport
    # named none): a mail to several reply addresses is one row, and one move, per address
    recipient = models.CharField(max_length=320, blank=True)
    received_at = models.DateTimeField(auto_now_add=True)
    status = models.CharField(max_length=15, choices=Status.choices, default=Status.NEW)
    processed_at = models.DateTimeField(null=True, blank=True)
    outcome = models.TextField(blank=True)  # what was done, for the moderators
    from_address = models.CharField(max_length=320, blank=True)
    subject = models.CharField(max_length=300, blank=True)
    game = models.ForeignKey(Game, null=True, blank=True, on_delete=models.PROTECT, related_name="inbound")
    seat = models.PositiveSmallIntegerField(null=True, blank=True)

    class Meta:
        indexes: ClassVar = [
            models.Index(fields=["received_at"], condition=models.Q(status="new"), name="inbound_new_idx"),
        ]
        constraints: ClassVar = [
            # a duplicate delivery (same Message-ID to the same address) is stored once
            models.UniqueConstraint(fields=["message_id", "recipient"], name="inbound_once_per_recipient"),
        ]

    def __str__(self) -> str:
        return f"mail from {self.from_address or self.envelope_from or '?'} ({self.status})"


class WebhookCall(models.Model):
    """An authenticated ESP webhook call that could not run because the service is not set up
    for that ESP (a missing API key or package): kept whole and answered 503, so the ESP tries
    again and nothing is lost; ``manage.py replay_webhooks`` runs the kept calls once fixed."""

    name = models.CharField(max_length=80)  # the anymail URL's name, e.g. brevo_inbound_webhook
    path = models.CharField(max_length=200)
    content_type = models.CharField(max_length=200, blank=True)
    headers = models.JSONField(default=dict, blank=True)  # the request's HTTP_* headers, no credentials
    body = models.BinaryField()
    problem = models.TextField(blank=True)  # what was missing, in one line
    received_at = models.DateTimeField(auto_now_add=True)
    replayed_at = models.DateTimeField(null=True, blank=True)

    def __str__(self) -> str:
        return f"{self.name} call {self.pk} ({'replayed' if self.replayed_at else 'kept'})"


class MailPreference(models.Model):
    """How many mails a player wants (``notifications.services.preferences``): one row per player for
    all their games (``game`` empty) and one per game they set apart.  An empty ``mode`` or a
    null ``picture`` means "as in the row above" (the game's row falls back on the player's,
    the player's on the defaults)."""

    class Mode(models.TextChoices):
        DECISIONS = "decisions", "when the player must decide (the default)"
        ALL = "all", "every mail"
        DIGEST = "digest", "decisions, and a daily mail of news"

    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="mail_preferences")
    game = models.ForeignKey(Game, null=True, blank=True, on_delete=models.CASCADE, related_name="+")
    mode = models.CharField(max_length=10, choices=Mode.choices, blank=True)
    picture = models.BooleanField(null=True, blank=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        constraints: ClassVar = [
            models.UniqueConstraint(
                fields=["player", "game"], condition=models.Q(game__isnull=False), name="mailpref_per_game"
            ),
            models.UniqueConstraint(
                fields=["player"], condition=models.Q(game__isnull=True), name="mailpref_per_player"
            ),
        ]

    def __str__(self) -> str:
        return f"mail {self.mode or '-'}, picture {self.picture} for {self.player_id} in {self.game_id}"


class DigestPart(models.Model):
    """One game's part of a player's daily digest (an ``OutboundMail`` of kind ``digest``, one
    per player and day): the news of ``seat`` in ``game`` after event ``since`` up to ``seq``.
    ``seatview.told_before`` counts it as told, like a mail of that game."""

    mail = models.ForeignKey(OutboundMail, on_delete=models.CASCADE, related_name="digest_parts")
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="+", db_index=False)
    seat = models.PositiveSmallIntegerField()
    seq = models.PositiveIntegerField()
    since = models.PositiveIntegerField()

    class Meta:
        indexes: ClassVar = [models.Index(fields=["game", "seat", "seq"], name="digestpart_game_seat_idx")]

    def __str__(self) -> str:
        return f"digest part: game {self.game_id} seat {self.seat} #{self.since}-#{self.seq}"


class BoardPicture(models.Model):
    """The board's PNG after one event, drawn once per language and shared by every mail about
    that event (``notifications.outbound.pictures``).  A cache in the database, because every worker process
    sees it; rows are dropped a few days later by the mail sweep."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="+", db_index=False)
    seq = models.PositiveIntegerField()
    language = models.CharField(max_length=2)  # the panel's words are the reader's
    png = models.BinaryField()
    # what the next event's picture is redrawn from (only the parts that changed are drawn):
    # each part's digest and box (games.rules.drawing.incremental), the PNG's bands' lengths
    parts = models.JSONField(default=dict)
    bands = models.JSONField(default=list)
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)

    class Meta:
        constraints: ClassVar = [
            models.UniqueConstraint(fields=["game", "seq", "language"], name="boardpicture_per_event"),
        ]

    def __str__(self) -> str:
        return f"picture of game {self.game_id} at #{self.seq}"


# the local mailbox's model lives with the rest of the local mailbox; imported here so the app
# registry (and makemigrations) sees it
from notifications.imap.models import FetchedMail, MailboxState, SendingPace  # noqa: E402
from notifications.localmail.models import LocalMail  # noqa: E402

__all__ = [
    "BoardPicture",
    "DigestPart",
    "FetchedMail",
    "InboundMail",
    "LocalMail",
    "MailPreference",
    "MailboxState",
    "OutboundMail",
    "ReplyToken",
    "SendingPace",
    "WebhookCall",
]
