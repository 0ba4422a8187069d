"""How long a reply waits in a mailbox whose server offers no IDLE (the fetcher polls): a real
Dovecot told to leave IDLE out, ``notifications.imap.watching.watch`` in a thread as
``manage.py fetch_mail`` runs it, Postgres.

Two kinds of player, ``BENCH_REPLIES`` replies each, ``BENCH_POLL`` seconds between looks
(``IMAP_POLL_SECONDS``, scaled down from 60; the waits are reported as a share of it too):

* at random: each reply arrives at a random moment of the interval after the one before was
  stored (independent of the fetcher's looks): the textbook case, half an interval on average;
* at once: each reply arrives ``BENCH_ANSWER`` seconds after the one before was stored, as
  when a player answers the decision mail the last reply brought about (the mail goes out a
  second or two after the reply is stored, a player at the screen answers within seconds):
  the replies of a game follow the fetcher's looks.

The wait is from the delivery into the mailbox to the reply's stored row.  ``BENCH_SOON=off``
leaves out the quicker looks after a pass that stored a reply (``watching.SOON``): one look
every interval, for comparison.  ``DATABASE_URL=postgres://... python -m bench.polling``.
"""

from __future__ import annotations

import os
import random
import statistics
import threading
import time
from collections.abc import Callable
from email.message import EmailMessage

from bench.common import pct, setup_django

REPLIES = int(os.environ.get("BENCH_REPLIES", "12"))
POLL = float(os.environ.get("BENCH_POLL", "10"))
ANSWER = float(os.environ.get("BENCH_ANSWER", "2"))
SOON = os.environ.get("BENCH_SOON", "on") != "off"


def main() -> None:
    setup_django("bench.polling")
    from dataclasses import replace

    from django.db import connection
    from django.test.utils import setup_databases, teardown_databases

    from notifications.imap import watching
    from notifications.models import InboundMail, MailboxState
    from tests.notifications.dovecot import running_dovecot

    old = setup_databases(verbosity=0, interactive=False)
    try:
        with running_dovecot(idle=False) as server:
            account = replace(server.account(), poll_seconds=POLL)
            stop = threading.Event()
            if not SOON:
                watching.SOON = ()

            def fetcher() -> None:
                try:
                    watching.watch(account, stop=stop)
                finally:
                    connection.close()  # the thread's own: the database is dropped at the end

            thread = threading.Thread(target=fetcher)
            thread.start()
            try:
                _until(lambda: MailboxState.objects.filter(looked_at__isnull=False).exists())
                # the random moments spread evenly over the interval, in a random order
                spread = [(n + 0.5) * POLL / REPLIES for n in range(REPLIES)]
                random.Random(7).shuffle(spread)
                for kind in ("at random", "at once"):
                    waits: list[float] = []
                    for n in range(REPLIES):
                        time.sleep(spread[n] if kind == "at random" else ANSWER)
                        tag = f"{kind.replace(' ', '-')}-{n}"
                        raw = _reply(f"<{tag}@bench.invalid>")
                        delivered = time.monotonic()
                        server.deliver(raw)
                        found = InboundMail.objects.filter(message_id=f"{tag}@bench.invalid")
                        _until(found.exists)
                        waits.append(time.monotonic() - delivered)
                    _report(kind, waits)
            finally:
                stop.set()
                thread.join(120)
    finally:
        teardown_databases(old, verbosity=0)


def _reply(message_id: str) -> bytes:
    message = EmailMessage()
    message["From"] = "ada@bench.invalid"
    message["To"] = "play+nobody@lotus.test"
    message["Subject"] = "Re: your move"
    message["Message-ID"] = message_id
    message.set_content("help")
    return message.as_bytes()


def _until(condition: Callable[[], bool], limit: float = 600.0) -> None:
    start = time.monotonic()
    while not condition():
        if time.monotonic() - start > limit:
            raise SystemExit("the fetcher never stored the reply")
        time.sleep(0.05)


def _report(kind: str, waits: list[float]) -> None:
    mean = statistics.mean(waits)
    looks = "on" if SOON else "off"
    print(
        f"{kind:9}: {len(waits)} replies, quick looks {looks}, poll {POLL:.0f} s: wait mean "
        f"{mean:.2f} s ({mean / POLL:.0%} of the interval), p50 {pct(waits, 50):.2f} s, "
        f"max {max(waits):.2f} s"
    )


if __name__ == "__main__":
    main()
