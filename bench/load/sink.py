"""The SMTP sink the service sends to (``python -m bench.load sink PORT SPOOL``): every mail a
file in the spool, read back by the players.

The spool is laid out as a Maildir is: the sink writes a mail in ``tmp/`` and renames it into
``new/``; a reader takes what is in ``new/`` and moves it to ``cur/``.  So a reader lists only
the mails it has not read yet: globbing and sorting the whole spool every 0.2 s (12,000 files
by the end of a run) was about a sixth of the players' CPU, counted against the service."""

from __future__ import annotations

import email
import email.policy
import os
import signal
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any


def sink(port: int, spool: Path) -> None:
    """``python -m bench.load sink PORT SPOOL``: every mail received becomes a file in SPOOL
    named by its arrival time (written aside, then renamed: a reader never sees half a mail)."""
    from aiosmtpd.controller import Controller

    for folder in ("tmp", "new", "cur"):
        (spool / folder).mkdir(parents=True, exist_ok=True)
    counter = iter(range(1 << 62))

    class Keep:
        async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
            name = f"{time.time_ns()}-{os.getpid()}-{next(counter)}.eml"
            data = envelope.original_content or envelope.content
            tmp = spool / "tmp" / name
            tmp.write_bytes(b"X-Sink-To: " + ",".join(envelope.rcpt_tos).encode() + b"\r\n" + data)
            tmp.rename(spool / "new" / name)
            return "250 kept"

    controller = Controller(Keep(), hostname="127.0.0.1", port=port)
    controller.start()
    stop = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: stop.set())
    stop.wait()
    controller.stop()


@dataclass
class Received:
    message_id: str
    to: str
    reply_to: str
    subject: str
    arrived: float  # epoch seconds


def kept(spool: Path) -> list[Path]:
    """Every mail the sink kept, read or not, in the order it arrived."""
    return sorted([*(spool / "cur").glob("*.eml"), *(spool / "new").glob("*.eml")], key=lambda p: p.name)


def read_spool(spool: Path, seen: set[str], *, everything: bool = False) -> list[Received]:
    """The mails not read yet (moved to ``cur/`` as they are read), or with ``everything``
    every mail kept, each once per ``seen``."""
    out = []
    paths = kept(spool) if everything else sorted((spool / "new").glob("*.eml"), key=lambda p: p.name)
    for path in paths:
        if path.name in seen:
            continue
        seen.add(path.name)
        raw = path.read_bytes()
        if not everything:
            path = path.rename(spool / "cur" / path.name)
        head = email.message_from_bytes(
            raw.split(b"\r\n\r\n", 1)[0] + b"\r\n\r\n", policy=email.policy.default
        )
        out.append(
            Received(
                message_id=str(head.get("Message-ID", "")).strip().strip("<>"),
                to=str(head.get("X-Sink-To", "")),
                reply_to=str(head.get("Reply-To", "")),
                subject=str(head.get("Subject", "")),
                arrived=int(path.name.split("-", 1)[0]) / 1e9,
            )
        )
    return out
