"""A league run from an ordinary mailbox: replies fetched by IMAP, mail sent by SMTP
submission through the same account.

Mail in (``fetch``: one pass; ``watching``: the connection; run by ``manage.py fetch_mail`` and
the beat task ``notifications.tasks.fetch_mail``):

* one connection to ``IMAP_HOST`` (IMAPS, or STARTTLS on 143), user and password or an OAuth2
  token (``IMAP_OAUTH2_TOKEN_HOOK``: a dotted path to a function returning the token, sent
  with XOAUTH2);
* each new message's raw bytes go through ``notifications.inbound.routing.store_each`` (the same path
  as the MTA pipe, the ESP webhook and the SMTP listener), its envelope recipients read from
  ``Delivered-To`` / ``X-Original-To`` / ``Envelope-To`` where the provider writes them, and
  in the same transaction a ``FetchedMail`` row (mailbox, UIDVALIDITY, UID);
* only after that transaction committed is the message moved to ``IMAP_PROCESSED_FOLDER``
  (or flagged ``IMAP_PROCESSED_FLAG``, ``IMAP_DONE=flag``).  A crash between the two leaves
  the message in the inbox with its row: the next run finds the row and only moves it (and
  the Message-ID would find it stored if the row were gone): nothing lost, nothing doubled;
* a message that is no mail at all is stored raw all the same and moved to
  ``IMAP_UNREADABLE_FOLDER``;
* which messages are new (``MailboxState``): the first time the fetcher opens a mailbox it
  notes its UIDNEXT and the time; the messages already there are the owner's old mail and
  are left alone.  After a UIDVALIDITY change (the server renumbered the mailbox) the UIDs
  say nothing, so the arrival date (INTERNALDATE) does: messages that arrived before the
  fetcher first opened the mailbox stay old; the others are stored (a duplicate by its
  Message-ID is only moved);
* IDLE when the server offers it (woken by new mail, and re-issued every 5 minutes), else a
  look every ``IMAP_POLL_SECONDS``, and 2, 4, 8, 16, 32 seconds after a look that stored a
  reply (the answer to the mail it brought about comes soonest); a dropped connection is
  opened again after 1, 2, 4, … up to 300 seconds;
* one fetcher at a time per mailbox (``MailboxState``'s lease, renewed while it waits):
  ``manage.py fetch_mail`` holds it for good (started while the beat task holds it, it waits
  for it, said in one line), the beat task for 50 seconds a minute.

Mail out (``notifications.outbound.throttle``; ``smtp_oauth2`` for providers that want an OAuth2
token): ``MAIL_SEND_PER_MINUTE`` and ``MAIL_SEND_PER_DAY``, the provider's limits; an outbox
row over the budget stays pending and is sent by the task ``drain_outbox`` (beat, every 10
seconds) in the order decision mails and answers first, then the rest, oldest first; a refusal
for rate (421, 450, 451, 452, 454), with the limits or without, holds the outbox for a while,
never counts as a failed attempt and loses nothing.

Addresses: the seats' reply addresses are ``<REPLY_PREFIX><REPLY_SEPARATOR><token>@<REPLY_DOMAIN>``
(``league+token@example.org``, or ``-`` for providers that use it), all delivered to one mailbox.
"""
