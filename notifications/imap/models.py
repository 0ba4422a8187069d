"""What the IMAP fetcher remembers of a mailbox (``notifications.imap``)."""

from __future__ import annotations

from typing import ClassVar

from django.db import models


class MailboxState(models.Model):
    """One folder of one account the fetcher reads: which of its messages are new, and which
    fetcher holds it now (the lease: ``manage.py fetch_mail`` and the beat task never read the
    same mailbox at once)."""

    name = models.CharField(max_length=400, unique=True)  # user@host/folder
    uidvalidity = models.BigIntegerField(null=True, blank=True)
    # the messages below this UID are old (the owner's mail before the fetcher first came)
    first_uid = models.BigIntegerField(default=1)
    # when the fetcher first opened the mailbox: after a UIDVALIDITY change the arrival date
    # (INTERNALDATE) tells old from new
    opened_at = models.DateTimeField(null=True, blank=True)
    renumbered_at = models.DateTimeField(null=True, blank=True)  # the last UIDVALIDITY change
    holder = models.CharField(max_length=200, blank=True)
    leased_until = models.DateTimeField(null=True, blank=True)
    looked_at = models.DateTimeField(null=True, blank=True)  # the last pass that ended well
    last_error = models.TextField(blank=True)

    def __str__(self) -> str:
        return f"mailbox {self.name}"


class FetchedMail(models.Model):
    """One message of a mailbox, stored (written in the transaction that stored it): the
    fetcher's word that the message at this UID is in the database, so it is moved (or
    flagged) and never stored again."""

    mailbox = models.CharField(max_length=400)
    uidvalidity = models.BigIntegerField()
    uid = models.BigIntegerField()
    message_id = models.CharField(max_length=255)
    inbound = models.ForeignKey(
        "notifications.InboundMail", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    unreadable = models.BooleanField(default=False)  # moved aside, not to the processed folder
    stored_at = models.DateTimeField(auto_now_add=True)
    done_at = models.DateTimeField(null=True, blank=True)  # moved or flagged on the server

    class Meta:
        constraints: ClassVar = [
            models.UniqueConstraint(fields=["mailbox", "uidvalidity", "uid"], name="fetched_once_per_uid"),
        ]

    def __str__(self) -> str:
        return f"{self.mailbox} uid {self.uid} ({'done' if self.done_at else 'stored'})"


class SendingPace(models.Model):
    """The account's sending, one row (``notifications.outbound.throttle``): locked by each send while
    the sending limits are on, so that two workers never take the same free slot, and paused
    when the provider refused for rate."""

    paused_until = models.DateTimeField(null=True, blank=True)
    refusals = models.PositiveIntegerField(default=0)  # in a row: each pause is twice as long
    last_refusal = models.TextField(blank=True)

    def __str__(self) -> str:
        return f"sending paused until {self.paused_until}" if self.paused_until else "sending"
