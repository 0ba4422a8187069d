"""The local mailbox: the embedded default's stand-in for an email provider.

Outgoing mail is stored whole (``backend.EmailBackend``: the raw MIME as sent, one row per
recipient), shown on the ``/mailbox/`` page (only with ``settings.LOCAL_MAILBOX``, on by
default with ``DEBUG``), and answered from there as the recipient: the reply is a real mail
sent by SMTP to the service's own listener, so it comes in through the same pipeline as a
player's mail.  ``bots`` answers for bot seats the same way.
"""
