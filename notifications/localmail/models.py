"""A mail the local mailbox holds: the raw message as sent, one row per recipient."""

from __future__ import annotations

from typing import ClassVar

from django.db import models


class LocalMail(models.Model):
    to_address = models.CharField(max_length=320)  # lower-cased: one mailbox per address
    sender = models.CharField(max_length=320, blank=True)
    subject = models.CharField(max_length=300, blank=True)
    message_id = models.CharField(max_length=255, blank=True)  # without angle brackets
    raw = models.BinaryField()  # the message exactly as the backend sent it
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        indexes: ClassVar = [
            models.Index(fields=["to_address", "id"], name="localmail_box_idx"),
            models.Index(fields=["message_id"], name="localmail_msgid_idx"),
        ]

    def __str__(self) -> str:
        return f"{self.subject} to {self.to_address}"
