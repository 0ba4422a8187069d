"""The IMAP fetcher: an ordinary mailbox's new messages into the inbound store, then out of the
way (the package's docstring says the rules; ``manage.py fetch_mail`` and the beat task
``notifications.tasks.fetch_mail`` run ``watch``).

One message at a time: fetched (``BODY.PEEK[]``: the message stays unread for a person who
looks at the mailbox too), stored with its ``FetchedMail`` row in one transaction, and only
then moved or flagged.  Whatever stops the fetcher between two of these steps, the next pass
finds the message where it was and the row saying how far it got.
"""

from __future__ import annotations

import contextlib
import logging
import os
import secrets
import socket
import ssl
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta
from email.parser import BytesHeaderParser
from email.policy import compat32
from email.utils import getaddresses
from typing import Any

from django.conf import settings
from django.db import DatabaseError, transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.module_loading import import_string
from imapclient import IMAPClient
from imapclient.exceptions import IMAPClientError

from ..inbound import MAX_BYTES, store_each
from ..models import InboundMail
from ..parsing import MailParseError, parse_message
from ..redact import one_line
from ..tokens import separator
from .models import FetchedMail, MailboxState

log = logging.getLogger(__name__)

#: where providers write the address a message was delivered to (the envelope recipient)
ENVELOPE_HEADERS = ("Delivered-To", "X-Original-To", "Envelope-To", "X-Envelope-To", "X-Delivered-To")
#: IDLE is ended and begun again this often (RFC 2177: servers may drop it after 30 minutes)
IDLE_RENEW = 300.0
#: a fetcher's hold on a mailbox lasts this long unless renewed (it renews while it waits)
LEASE = timedelta(seconds=90)
LONGEST_BACKOFF = 300.0
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


# --- which mailbox is whose ----------------------------------------------------------------


def new_holder() -> str:
    return f"{socket.gethostname()}:{os.getpid()}:{secrets.token_hex(3)}"


def _gone(holder: str) -> bool:
    """A holder on this machine whose process is no more (killed: its lease means nothing)."""
    host, _, rest = holder.partition(":")
    pid = rest.partition(":")[0]
    if host != socket.gethostname() or not pid.isdigit():
        return False
    try:
        os.kill(int(pid), 0)
    except ProcessLookupError:
        return True
    except PermissionError:
        return False
    return False


def claim(name: str, holder: str) -> MailboxState | None:
    """The mailbox's row, leased to ``holder`` for ``LEASE`` (renewed by each call), or None
    while another live fetcher holds it.  A conditional UPDATE: two fetchers cannot both win."""
    MailboxState.objects.get_or_create(name=name)
    now = timezone.now()
    free = Q(leased_until__isnull=True) | Q(leased_until__lt=now) | Q(holder=holder)
    current = MailboxState.objects.values_list("holder", flat=True).get(name=name)
    if current and current != holder and _gone(current):
        free |= Q(holder=current)
    won = MailboxState.objects.filter(free, name=name).update(holder=holder, leased_until=now + LEASE)
    return MailboxState.objects.get(name=name) if won else None


def release(name: str, holder: str) -> None:
    MailboxState.objects.filter(name=name, holder=holder).update(holder="", leased_until=None)


# --- one pass --------------------------------------------------------------------------------


def fetch_new(client: IMAPClient, account: Account, state: MailboxState, tally: Tally) -> int:
    """Store and move (or flag) every new message of the mailbox, oldest first; the UIDNEXT
    the pass began with (a message at or above it arrived during the pass)."""
    uidvalidity, uidnext = _select(client, account)
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


def _select(client: IMAPClient, account: Account) -> tuple[int, int]:
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


# --- watching ----------------------------------------------------------------------------------


def watch(
    account: Account,
    *,
    seconds: float | None = None,
    stop: threading.Event | None = None,
    holder: str | None = None,
    once: bool = False,
) -> Tally:
    """Fetch new mail until ``seconds`` have passed (forever when None) or ``stop`` is set:
    a pass, then IDLE until the server says something (or ``IDLE_RENEW``) where it offers IDLE,
    else a wait of ``poll_seconds``; a connection that fails is opened again after 1, 2, 4, …
    up to 300 seconds.  ``once``: one pass, and a connection that fails raises."""
    stop = stop or threading.Event()
    holder = holder or new_holder()
    until = None if seconds is None else time.monotonic() + seconds
    tally = Tally()
    backoff = 1.0
    try:
        while not stop.is_set() and not _over(until):
            try:
                if claim(account.name, holder) is None:  # before logging in: the holder is at it
                    log.info("mailbox %s is held by another fetcher", account.name)
                    return tally
                client = connect(account)
            except CONNECTION_ERRORS as error:
                if once:
                    raise
                backoff = _wait_after(error, account, backoff, stop, until)
                continue
            try:
                if _watch_connected(client, account, holder, stop, until, tally, once):
                    return tally
                backoff = 1.0
            except CONNECTION_ERRORS as error:
                if once:
                    raise
                tally.reconnects += 1
                backoff = _wait_after(error, account, backoff, stop, until)
            finally:
                _close(client)
    finally:
        with contextlib.suppress(DatabaseError):  # else the lease runs out by itself
            release(account.name, holder)
    return tally


def _over(until: float | None) -> bool:
    return until is not None and time.monotonic() >= until


def _remaining(until: float | None, most: float) -> float:
    return most if until is None else max(0.0, min(most, until - time.monotonic()))


def _wait_after(
    error: BaseException, account: Account, backoff: float, stop: threading.Event, until: float | None
) -> float:
    text = one_line(error)
    log.warning("mailbox %s: %s; trying again in %.0f s", account.name, text, backoff)
    with contextlib.suppress(DatabaseError):  # the database may be what is away
        MailboxState.objects.filter(name=account.name).update(last_error=text)
    stop.wait(_remaining(until, backoff))
    return min(backoff * 2, LONGEST_BACKOFF)


def _watch_connected(
    client: IMAPClient,
    account: Account,
    holder: str,
    stop: threading.Event,
    until: float | None,
    tally: Tally,
    once: bool,
) -> bool:
    """Passes on one connection; True when the watch is over (``once``, or another fetcher
    holds the mailbox), False when the time is up or stop is set."""
    idle = account.idle and client.has_capability("IDLE")
    while True:
        state = claim(account.name, holder)
        if state is None:
            log.info("mailbox %s is held by another fetcher", account.name)
            return True
        began = fetch_new(client, account, state, tally)
        if once:
            return True
        if stop.is_set() or _over(until):
            return False
        if _select(client, account)[1] > began:
            continue  # mail arrived during the pass (its EXISTS went by with the pass's commands)
        if idle:
            tally.idles += 1
            _idle(client, account, holder, stop, until)
        else:
            end = time.monotonic() + account.poll_seconds
            while not stop.is_set() and not _over(until) and time.monotonic() < end:
                stop.wait(_remaining(until, min(30.0, end - time.monotonic())))
                claim(account.name, holder)  # the lease lasts while the fetcher waits


def _idle(
    client: IMAPClient, account: Account, holder: str, stop: threading.Event, until: float | None
) -> None:
    """IDLE until the server reports a change (new mail: EXISTS), ``IDLE_RENEW`` passes, the
    time is up or stop is set; the lease is renewed every few seconds meanwhile."""
    end = time.monotonic() + IDLE_RENEW
    client._imap.untagged_responses.clear()  # what the pass's commands were told: read already
    client.idle()
    try:
        while not stop.is_set() and not _over(until) and time.monotonic() < end:
            if _news_read_ahead(client):
                return
            wait = _remaining(until, min(5.0, end - time.monotonic()))
            started = time.monotonic()
            responses = client.idle_check(timeout=wait)
            if any(r and r[0] == b"BYE" for r in responses):
                raise ConnectionError(f"the server closed the connection: {responses}")
            if not responses and time.monotonic() - started < wait - 0.5:
                # readable with nothing to read: the server closed the connection (imapclient
                # keeps the end of the stream to itself)
                raise ConnectionError("the server closed the connection")
            if any(len(r) > 1 and r[1] in (b"EXISTS", b"RECENT") for r in responses):
                return
            claim(account.name, holder)
    finally:
        client.idle_done()


def _news_read_ahead(client: IMAPClient) -> bool:
    """Whether the server said something that is already read off the socket, where
    ``idle_check`` (which waits for the socket) does not look: an ``EXISTS`` sent before the
    IDLE continuation (imaplib files it away), or one that came in the same packet as the
    continuation (it waits in imaplib's read buffer).  Without this a reply delivered during
    a pass waited for the next IDLE renewal (5 minutes)."""
    imap = client._imap
    if any(key in imap.untagged_responses for key in ("EXISTS", "RECENT")):
        return True
    sock = client.socket()
    timeout = sock.gettimeout()
    sock.setblocking(False)
    try:
        return bool(imap.file.peek(1))  # the buffer, or what the socket has now; never waits
    except (OSError, ValueError):  # nothing to read now (non-blocking: "would block")
        return False
    finally:
        sock.settimeout(timeout)


def _close(client: IMAPClient) -> None:
    try:
        client.logout()
    except Exception:  # a connection already gone: nothing to close politely
        with contextlib.suppress(Exception):
            client.shutdown()
