"""Sending by SMTP submission to a provider whose certificate a private CA signed (a club's own
server, a test server): ``EMAIL_BACKEND=notifications.imap.submission.EmailBackend`` with
``EMAIL_CA_FILE``, the CA's certificate, as ``IMAP_CA_FILE`` is for the mailbox.  Otherwise it
is Django's SMTP backend (STARTTLS with ``EMAIL_USE_TLS``, TLS from the first byte with
``EMAIL_USE_SSL``); ``smtp_oauth2`` builds on it."""

from __future__ import annotations

import ssl
from functools import cached_property

from django.conf import settings
from django.core.mail.backends import smtp


class EmailBackend(smtp.EmailBackend):
    """Django's SMTP backend, trusting ``EMAIL_CA_FILE`` (alone) for the server's certificate
    when it is set, the system's CAs when it is not."""

    @cached_property
    def ssl_context(self) -> ssl.SSLContext:
        context = ssl.create_default_context(cafile=settings.EMAIL_CA_FILE or None)
        if self.ssl_certfile:  # a client certificate (EMAIL_SSL_CERTFILE), as Django sends it
            context.load_cert_chain(self.ssl_certfile, self.ssl_keyfile)
        return context
