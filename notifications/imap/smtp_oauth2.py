"""Sending by SMTP submission with an OAuth2 access token (XOAUTH2) instead of a password, for
providers that take no password any more (Microsoft 365 and Outlook.com; Google Workspace where
app passwords are off): ``EMAIL_BACKEND=notifications.imap.smtp_oauth2.EmailBackend`` with
``EMAIL_OAUTH2_TOKEN_HOOK``, a dotted path to a function ``f(user) -> access token`` (the same
kind as ``IMAP_OAUTH2_TOKEN_HOOK``; getting and refreshing the token is the operator's).  It
trusts ``EMAIL_CA_FILE`` as ``submission`` does."""

from __future__ import annotations

import smtplib
from collections.abc import Callable

from django.conf import settings
from django.utils.module_loading import import_string

from notifications.imap import submission


class EmailBackend(submission.EmailBackend):
    """The SMTP submission backend, logging in with ``AUTH XOAUTH2`` and a token from the hook."""

    def open(self) -> bool | None:
        password, self.password = self.password, ""  # Django's open() logs in only with a password
        try:
            opened = super().open()
        finally:
            self.password = password
        if not opened or self.connection is None:
            return opened  # already open (False), or failed silently (None)
        try:
            token_of: Callable[[str], str] = import_string(settings.EMAIL_OAUTH2_TOKEN_HOOK)
            token = token_of(self.username)
            self.connection.ehlo_or_helo_if_needed()
            self.connection.auth("XOAUTH2", lambda challenge=None: _xoauth2(self.username, token))
        except (smtplib.SMTPException, OSError):
            self.close()
            if not self.fail_silently:
                raise
            return None
        return True


def _xoauth2(user: str, token: str) -> str:
    """The XOAUTH2 initial response (smtplib base64-encodes it)."""
    return f"user={user}\x01auth=Bearer {token}\x01\x01"
