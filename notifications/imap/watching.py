"""Watching a mailbox (``manage.py fetch_mail``, the beat task ``notifications.tasks.fetch_mail``):
passes of ``fetch.fetch_new`` on one connection, IDLE or polling between them, the connection
opened again with backoff when it drops, and one fetcher at a time per mailbox (a lease on its
``MailboxState`` row)."""

from __future__ import annotations

import contextlib
import logging
import os
import secrets
import socket
import threading
import time
from datetime import timedelta

from django.db import DatabaseError
from django.db.models import Q
from django.utils import timezone
from imapclient import IMAPClient

from notifications.imap import fetch
from notifications.imap.fetch import CONNECTION_ERRORS, Account, Tally, connect
from notifications.imap.models import MailboxState
from notifications.services.redact import one_line

log = logging.getLogger(__name__)

#: IDLE is ended and begun again this often (RFC 2177: servers may drop it after 30 minutes)
IDLE_RENEW = 300.0
#: a fetcher's hold on a mailbox lasts this long unless renewed (it renews while it waits)
LEASE = timedelta(seconds=90)
LONGEST_BACKOFF = 300.0
#: a fetcher that waits for another to let go of the mailbox asks again this often
LEASE_POLL = 5.0
#: polling (no IDLE), the waits before the looks that follow a pass that stored a reply, then
#: ``poll_seconds`` again: a stored reply brings about a mail, and the answer to it comes
#: soonest.  With one look every ``poll_seconds`` alone, the looks set the pace of a game: each
#: answer arrived a few seconds after a look and waited nearly the whole interval for the next
SOON: tuple[float, ...] = (2.0, 4.0, 8.0, 16.0, 32.0)


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


# --- watching ----------------------------------------------------------------------------------


def watch(
    account: Account,
    *,
    seconds: float | None = None,
    stop: threading.Event | None = None,
    holder: str | None = None,
    once: bool = False,
    wait_for_lease: bool = False,
) -> Tally:
    """Fetch new mail until ``seconds`` have passed (forever when None) or ``stop`` is set:
    a pass, then IDLE until the server says something (or ``IDLE_RENEW``) where it offers IDLE,
    else a wait of ``poll_seconds`` (shorter ones after a pass that stored a reply: ``SOON``);
    a connection that fails is opened again after 1, 2, 4, … up to 300 seconds.  ``once``:
    one pass, and a connection that fails raises.  While another fetcher holds the mailbox:
    over at once, or with ``wait_for_lease`` (the long-running fetcher, which must not stop
    because beat's minute of fetching was under way as it started) a wait, said in one line,
    until the mailbox is free, then the watch."""
    stop = stop or threading.Event()
    holder = holder or new_holder()
    until = None if seconds is None else time.monotonic() + seconds
    tally = Tally()
    backoff = 1.0
    try:
        while not stop.is_set() and not _over(until):
            try:
                if claim(account.name, holder) is None:  # before logging in: the holder is at it
                    if not wait_for_lease:
                        log.info("mailbox %s is held by another fetcher", account.name)
                        return tally
                    _wait_for_lease(account, holder, stop, until)
                    continue
                client = connect(account)
            except CONNECTION_ERRORS as error:
                if once:
                    raise
                backoff = _wait_after(error, account, backoff, stop, until)
                continue
            try:
                if _watch_connected(client, account, holder, stop, until, tally, once):
                    if once or not wait_for_lease:
                        return tally
                    continue  # another fetcher took the mailbox over: wait for it again
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


def _wait_for_lease(account: Account, holder: str, stop: threading.Event, until: float | None) -> None:
    """Until this fetcher holds the mailbox (or the time is up, or stop is set): asked again
    every ``LEASE_POLL`` seconds; the other holder's lease runs out 90 s after its last renewal
    at the latest, and beat's task lets go after its 50 seconds."""
    state = MailboxState.objects.filter(name=account.name).first()
    log.warning(
        "mailbox %s is held by another fetcher (%s, its lease runs to %s); waiting for it to let go",
        account.name,
        state.holder if state else "?",
        f"{state.leased_until:%H:%M:%S} UTC" if state and state.leased_until else "?",
    )
    waited = time.monotonic()
    while not stop.is_set() and not _over(until):
        stop.wait(_remaining(until, LEASE_POLL))
        if claim(account.name, holder) is not None:
            log.warning(
                "mailbox %s is free after %.0f s of waiting; fetching",
                account.name,
                time.monotonic() - waited,
            )
            return


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
    soon: list[float] = []  # the waits before the next looks while polling (see SOON)
    while True:
        state = claim(account.name, holder)
        if state is None:
            log.info("mailbox %s is held by another fetcher", account.name)
            return True
        stored = tally.stored
        began = fetch.fetch_new(client, account, state, tally)
        if tally.stored > stored:
            soon = list(SOON)
        if once:
            return True
        if stop.is_set() or _over(until):
            return False
        if fetch.select(client, account)[1] > began:
            continue  # mail arrived during the pass (its EXISTS went by with the pass's commands)
        if idle:
            tally.idles += 1
            _idle(client, account, holder, stop, until)
        else:
            end = time.monotonic() + min(soon.pop(0) if soon else account.poll_seconds, account.poll_seconds)
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
