"""Test helpers: a player's mailbox on a real SMTP server, and scripted players that read the
mails they get and answer from each mail's own menu."""

from __future__ import annotations

import email
import random
import re
import smtplib
import socket
import threading
from dataclasses import dataclass, field
from email.message import EmailMessage, Message
from email.policy import default as default_policy
from email.utils import make_msgid
from typing import Any

from aiosmtpd.controller import Controller


@dataclass
class Received:
    to: str
    message: Message

    @property
    def subject(self) -> str:
        return str(self.message["Subject"])

    @property
    def text(self) -> str:
        part = self.message.get_body(preferencelist=("plain",))  # type: ignore[attr-defined]
        return str(part.get_content()) if part is not None else ""

    @property
    def html(self) -> str:
        part = self.message.get_body(preferencelist=("html",))  # type: ignore[attr-defined]
        return str(part.get_content()) if part is not None else ""


@dataclass
class Mailbox:
    """Every mail delivered to it over SMTP, by recipient, in order of arrival."""

    mails: list[Received] = field(default_factory=list)
    arrived: threading.Condition = field(default_factory=threading.Condition)

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        message = email.message_from_bytes(envelope.original_content, policy=default_policy)
        with self.arrived:
            for rcpt in envelope.rcpt_tos:
                self.mails.append(Received(rcpt.lower(), message))
            self.arrived.notify_all()
        return "250 OK"

    def wait_for(self, count: int, timeout: float) -> bool:
        with self.arrived:
            return self.arrived.wait_for(lambda: len(self.mails) >= count, timeout)


def free_port() -> int:
    """A loopback port nobody listens on (aiosmtpd's controller cannot take port 0)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def start_mailbox() -> tuple[Mailbox, Controller]:
    box = Mailbox()
    server = Controller(box, hostname="127.0.0.1", port=free_port())
    server.start()
    return box, server


# --- scripted players -----------------------------------------------------------------------

_WHERE = re.compile(r"^(\w+) <province>\s+where <province> is one of: (.*)$")
_AREA = re.compile(r"([^,]+?) \((\d+)\)")
_BID = re.compile(r"^bid <colour> <points>\s+with <colour>: (.*?); <points>: (.*)$")
_COLOUR = re.compile(r"^(\w+) <colour>\s+with <colour>: (.*)$")
_ARMY = re.compile(r"^army <points>\s+from (\d+) to (\d+)$")


def _amounts(text: str) -> list[int]:
    if " to " in text:
        low, high = text.split(" to ")
        return list(range(int(low), int(high) + 1))
    return [int(x) for x in text.split(" or ")]


def choices(line: str) -> list[str]:
    """The commands one menu line of a mail offers."""
    line = line.strip()
    if m := _WHERE.match(line):
        return [f"{m.group(1)} {a.group(2)}" for a in _AREA.finditer(m.group(2))]
    if m := _BID.match(line):
        return [f"bid {c} {n}" for c in m.group(1).split(" or ") for n in _amounts(m.group(2))]
    if m := _COLOUR.match(line):
        return [f"{m.group(1)} {c}" for c in m.group(2).split(" or ")]
    if m := _ARMY.match(line):
        return [f"army {n}" for n in range(int(m.group(1)), int(m.group(2)) + 1)]
    if line.startswith("palace "):
        return ["palace influence", "palace army"]
    if line.startswith("give "):
        return []
    return [part.strip() for part in line.split("|") if "<" not in part]


def menu_of(text: str) -> list[str]:
    """The menu lines of a decision mail: the indented lines after "What you can do now:" (a
    line indented further continues the one before: the text part is wrapped at 76 columns)."""
    lines = text.splitlines()
    start = next(i for i, line in enumerate(lines) if line.rstrip().endswith("What you can do now:"))
    menu: list[str] = []
    for line in lines[start + 1 :]:
        if not line.startswith("  "):
            break
        if menu and line.startswith("   "):
            menu[-1] = f"{menu[-1]} {line.strip()}"
        else:
            menu.append(line)
    return menu


def pick(text: str, rng: random.Random) -> str:
    options = [c for line in menu_of(text) for c in choices(line)]
    assert options, text
    return rng.choice(options)


def reply(mail: Received, sender: str, body: str, host: str, port: int) -> None:
    """Answer a mail the way a mail client does: to its Reply-To, quoting it, threaded."""
    answer = EmailMessage()
    answer["From"] = sender
    answer["To"] = str(mail.message["Reply-To"])
    answer["Subject"] = "Re: " + mail.subject
    answer["Message-ID"] = make_msgid(domain="player.test")
    answer["In-Reply-To"] = str(mail.message["Message-ID"])
    answer["References"] = str(mail.message["Message-ID"])
    quoted = "\n".join("> " + line for line in mail.text.splitlines())
    answer.set_content(f"{body}\n\nOn Sun, 22 Nov 2026 at 10:00, White Lotus wrote:\n{quoted}\n")
    with smtplib.SMTP(host, port, timeout=10) as smtp:
        smtp.send_message(answer)
