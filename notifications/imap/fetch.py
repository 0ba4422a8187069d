"""The IMAP fetcher's pass: an ordinary mailbox's new messages into the inbound store, then out
of the way (the package's docstring says the rules; ``watching`` runs passes on a connection,
for ``manage.py fetch_mail`` and the beat task ``notifications.tasks.fetch_mail``).

One message at a time: fetched (``BODY.PEEK[]``: the message stays unread for a person who
looks at the mailbox too), stored with its ``FetchedMail`` row in one transaction, and only
then moved or flagged.  Whatever stops the fetcher between two of these steps, the next pass
finds the message where it was and the row saying how far it got.
"""

from __future__ import annotations

import logging
import ssl
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta
from email.parser import BytesHeaderParser
from email.policy import compat32
from email.utils import getaddresses
from typing import Any

from django.conf import settings
from django.db import DatabaseError, transaction
from django.utils import timezone
from django.utils.module_loading import import_string
from imapclient import IMAPClient
from imapclient.exceptions import IMAPClientError

from notifications.imap.models import FetchedMail, MailboxState
from notifications.inbound.parsing import MailParseError, parse_message
from notifications.inbound.routing import MAX_BYTES, store_each
from notifications.models import InboundMail
from notifications.services.tokens import separator

log = logging.getLogger(__name__)

#: where providers write the address a message was delivered to (the envelope recipient)
ENVELOPE_HEADERS = ("Delivered-To", "X-Original-To", "Envelope-To", "X-Envelope-To", "X-Delivered-To")
#: what a dropped connection, a server away, a refused login (or a database away) raise
CONNECTION_ERRORS = (IMAPClientError, OSError, EOFError, DatabaseError)


@dataclass(frozen=True)
class Account:
    host: str
    port: int
    user: str
    password: str = ""
    security: str = "ssl"  # ssl (IMAPS) or starttls
    oauth2_token_hook: str = ""  # dotted path: f(user) -> an OAuth2 access token (XOAUTH2)
    ca_file: str = ""
    folder: str = "INBOX"
    done: str = "move"  # move or flag
    processed_folder: str = "WhiteLotus/Processed"
    unreadable_folder: str = "WhiteLotus/Unreadable"
    flag: str = "$WhiteLotusDone"
    idle: bool = True
    poll_seconds: float = 60.0

    @property
    def name(self) -> str:
        return f"{self.user}@{self.host}/{self.folder}"

    @classmethod
    def from_settings(cls) -> Account:
        return cls(
            host=settings.IMAP_HOST,
            port=settings.IMAP_PORT,
            user=settings.IMAP_USER,
            password=settings.IMAP_PASSWORD,
            security=settings.IMAP_SECURITY.lower(),
            oauth2_token_hook=settings.IMAP_OAUTH2_TOKEN_HOOK,
            ca_file=settings.IMAP_CA_FILE,
            folder=settings.IMAP_FOLDER,
            done=settings.IMAP_DONE.lower(),
            processed_folder=settings.IMAP_PROCESSED_FOLDER,
            unreadable_folder=settings.IMAP_UNREADABLE_FOLDER,
            flag=settings.IMAP_PROCESSED_FLAG,
            idle=settings.IMAP_IDLE,
            poll_seconds=settings.IMAP_POLL_SECONDS,
        )


@dataclass
class Tally:
    """What passes did: ``stored`` new rows, ``duplicates`` known by Message-ID (only moved),
    ``done`` moved or flagged, ``unreadable`` moved aside, ``passes`` looks at the mailbox."""

    passes: int = 0
    stored: int = 0
    duplicates: int = 0
    done: int = 0
    unreadable: int = 0
    reconnects: int = 0
    idles: int = 0  # IDLE commands (0: the fetcher polled)

    def __str__(self) -> str:
        return (
            f"{self.passes} passes: {self.stored} stored, {self.duplicates} known already, "
            f"{self.done} moved or flagged, {self.unreadable} unreadable, "
            f"{self.reconnects} reconnects, {self.idles} IDLE"
        )


def connect(account: Account) -> IMAPClient:
    """Logged in: IMAPS or STARTTLS (never in the clear), with a password or an OAuth2 token."""
    context = ssl.create_default_context(cafile=account.ca_file or None)
    if account.security == "starttls":
        client = IMAPClient(account.host, account.port, ssl=False, timeout=60)
        client.starttls(context)
    elif account.security == "ssl":
        client = IMAPClient(account.host, account.port, ssl=True, ssl_context=context, timeout=60)
    else:
        raise ValueError(f"IMAP_SECURITY must be ssl or starttls, not {account.security!r}")
    client.normalise_times = False  # INTERNALDATE with its zone: compared with opened_at
    if account.oauth2_token_hook:
        token_of: Callable[[str], str] = import_string(account.oauth2_token_hook)
        client.oauth2_login(account.user, token_of(account.user))
    else:
        client.login(account.user, account.password)
    return client


# --- one pass --------------------------------------------------------------------------------


def fetch_new(client: IMAPClient, account: Account, state: MailboxState, tally: Tally) -> int:
    """Store and move (or flag) every new message of the mailbox, oldest first; the UIDNEXT
    the pass began with (a message at or above it arrived during the pass)."""
    uidvalidity, uidnext = select(client, account)
    first = _first_new_uid(client, state, uidvalidity, uidnext)
    criteria: list[Any] = ["UID", f"{first}:*"]
    if account.done == "flag":
        criteria += ["UNKEYWORD", account.flag]
    # "n:*" names the last message even below n (RFC 3501): hence the filter
    for uid in sorted(int(u) for u in client.search(criteria) if int(u) >= first):
        _one(client, account, uidvalidity, uid, tally)
    tally.passes += 1
    MailboxState.objects.filter(pk=state.pk).update(looked_at=timezone.now(), last_error="")
    return uidnext


def select(client: IMAPClient, account: Account) -> tuple[int, int]:
    """(UIDVALIDITY, UIDNEXT) of the folder, selected anew (which also tells what arrived)."""
    selected = client.select_folder(account.folder)
    return int(selected[b"UIDVALIDITY"]), int(selected.get(b"UIDNEXT") or 0) or _next_uid(client)


def _next_uid(client: IMAPClient) -> int:
    uids = client.search(["ALL"])
    return max((int(u) for u in uids), default=0) + 1


def _first_new_uid(client: IMAPClient, state: MailboxState, uidvalidity: int, uidnext: int) -> int:
    """The rule for what is new (documented in deploy/README.md, "Run from an ordinary mailbox"):

    * the first time: what is in the mailbox is old, what arrives from now on (UID >= the
      UIDNEXT of that moment) is new;
    * after a UIDVALIDITY change (the server renumbered the mailbox): new are the messages
      from the first one whose arrival date (INTERNALDATE, whole seconds) is not before the
      second of that first look."""
    now = timezone.now()
    if state.uidvalidity is None or state.opened_at is None:
        state.uidvalidity, state.first_uid, state.opened_at = uidvalidity, uidnext, now
        state.save(update_fields=["uidvalidity", "first_uid", "opened_at"])
        log.info("mailbox %s opened the first time: messages from UID %s on are new", state.name, uidnext)
        return uidnext
    if state.uidvalidity == uidvalidity:
        return state.first_uid
    # INTERNALDATE has whole seconds: a message of the first look's second counts as new
    opened: datetime = state.opened_at.replace(microsecond=0)
    candidates = [int(u) for u in client.search(["SINCE", opened.date() - timedelta(days=1)])]
    arrived = client.fetch(candidates, ["INTERNALDATE"]) if candidates else {}
    new = [uid for uid, data in arrived.items() if _aware(data[b"INTERNALDATE"]) >= opened]
    first = min(new, default=uidnext)
    log.warning(
        "mailbox %s: UIDVALIDITY changed from %s to %s; messages from UID %s on are new",
        state.name,
        state.uidvalidity,
        uidvalidity,
        first,
    )
    state.uidvalidity, state.first_uid, state.renumbered_at = uidvalidity, first, now
    state.save(update_fields=["uidvalidity", "first_uid", "renumbered_at"])
    return first


def _aware(value: datetime) -> datetime:
    return value if value.tzinfo is not None else timezone.make_aware(value, timezone.get_default_timezone())


def _one(client: IMAPClient, account: Account, uidvalidity: int, uid: int, tally: Tally) -> None:
    row = FetchedMail.objects.filter(mailbox=account.name, uidvalidity=uidvalidity, uid=uid).first()
    if row is None:
        size = client.fetch([uid], ["RFC822.SIZE"]).get(uid, {}).get(b"RFC822.SIZE")
        if size is None:
            return  # expunged meanwhile (a person deleted it): nothing to store
        if int(size) > MAX_BYTES:
            row = _too_large(account, uidvalidity, uid, int(size))
        else:
            data = client.fetch([uid], ["BODY.PEEK[]"]).get(uid)
            if data is None:
                return
            row = _store(account, uidvalidity, uid, bytes(data[b"BODY[]"]), tally)
    if row.done_at is None:
        _put_away(client, account, uid, row.unreadable)
        FetchedMail.objects.filter(pk=row.pk).update(done_at=timezone.now())
        tally.done += 1


def _store(account: Account, uidvalidity: int, uid: int, raw: bytes, tally: Tally) -> FetchedMail:
    """The message through the inbound store and its ``FetchedMail`` row: one transaction."""
    unreadable = not _readable(raw)
    with transaction.atomic():
        rows = store_each(
            raw, InboundMail.Via.IMAP, envelope_from=return_path(raw), envelope_to=envelope_recipients(raw)
        )
        mail, created = rows[0][0], any(new for _, new in rows)
        row = FetchedMail.objects.create(
            mailbox=account.name,
            uidvalidity=uidvalidity,
            uid=uid,
            message_id=mail.message_id,
            inbound=mail,
            unreadable=unreadable,
        )
    if created:
        tally.stored += 1
    else:
        tally.duplicates += 1
    if unreadable:
        tally.unreadable += 1
    return row


def _too_large(account: Account, uidvalidity: int, uid: int, size: int) -> FetchedMail:
    """Over ``MAX_BYTES``: not stored (the pipe and the listener refuse such mail too), moved
    aside where the mailbox's owner sees it."""
    log.warning("mailbox %s: UID %s has %s bytes, over %s: moved aside", account.name, uid, size, MAX_BYTES)
    return FetchedMail.objects.create(
        mailbox=account.name, uidvalidity=uidvalidity, uid=uid, message_id="", unreadable=True
    )


def _readable(raw: bytes) -> bool:
    try:
        parse_message(raw)
    except MailParseError:
        return False
    return True


def _headers(raw: bytes) -> Any:
    try:  # compat32: any bytes at all may be there, and a header that fails is no reason to stop
        return BytesHeaderParser(policy=compat32).parsebytes(raw[:65536], headersonly=True)
    except Exception:
        return None


def envelope_recipients(raw: bytes) -> list[str]:
    """The reply addresses the provider says the message was delivered to (``Delivered-To``
    and its kin): the envelope recipient, as the MTA pipe is told it.  Only seats' reply
    addresses count: a provider that writes the mailbox's plain address there (without the
    token) says nothing about the seat, and then the To and Cc headers do (``inbound._addressed``)."""
    headers = _headers(raw)
    if headers is None:
        return []
    start = settings.REPLY_PREFIX.lower() + separator()
    domain = settings.REPLY_DOMAIN.lower()
    found = []
    for name in ENVELOPE_HEADERS:
        for _, address in getaddresses([str(v) for v in headers.get_all(name) or []]):
            local, _, host = address.strip().lower().rpartition("@")
            if host == domain and local.startswith(start) and len(local) > len(start):
                found.append(address.strip())
    return list(dict.fromkeys(found))


def return_path(raw: bytes) -> str | None:
    """The envelope sender as the delivering server wrote it (``Return-Path: <>`` for a bounce),
    or None when there is none."""
    headers = _headers(raw)
    value = headers.get("Return-Path") if headers is not None else None
    return None if value is None else str(value).strip()


def _put_away(client: IMAPClient, account: Account, uid: int, unreadable: bool) -> None:
    if account.done == "flag" and not unreadable:
        client.add_flags([uid], [account.flag], silent=True)
        return
    folder = _folder(client, account.unreadable_folder if unreadable else account.processed_folder)
    if not client.folder_exists(folder):
        client.create_folder(folder)
    if client.has_capability("MOVE"):
        client.move([uid], folder)
        return
    client.copy([uid], folder)
    client.delete_messages([uid], silent=True)
    if client.has_capability("UIDPLUS"):
        client.uid_expunge([uid])
    else:
        client.expunge()


def _folder(client: IMAPClient, name: str) -> str:
    """``a/b`` with the server's hierarchy delimiter (Dovecot's maildir has ``.``)."""
    listed = client.list_folders(directory="", pattern="")
    delimiter = listed[0][1] if listed and listed[0][1] else b"/"
    text = delimiter.decode() if isinstance(delimiter, bytes) else str(delimiter)
    return name.replace("/", text)
