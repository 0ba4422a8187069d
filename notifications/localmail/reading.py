"""Reading a stored mail: headers, the text and HTML parts, and inline (cid:) parts.

The HTML part is never shown as it is: ``html_for_frame`` points its ``cid:`` images at the
mailbox's own URLs and the page shows it in a sandboxed iframe (no scripts, no same origin).
"""

from __future__ import annotations

import email
import re
from dataclasses import dataclass
from datetime import datetime
from email.message import EmailMessage, Message
from email.policy import default as default_policy
from email.utils import getaddresses, parsedate_to_datetime
from urllib.parse import quote, unquote

from notifications.localmail.models import LocalMail

# how a decision mail introduces its menu, in each language it is written in
_MENU_INTRO = ("What you can do now:", "Das kannst du jetzt tun:", "Voici ce que vous pouvez faire :")
_CID = re.compile(r"""(["'(])cid:([^"')\s>]+)""", re.IGNORECASE)


@dataclass(frozen=True)
class Part:
    content_type: str
    data: bytes


@dataclass(frozen=True)
class Reading:
    """What the mailbox page shows of one mail."""

    subject: str
    sender: str
    date: datetime | None
    message_id: str
    reply_to: str
    references: str
    text: str
    html: str
    inline: dict[str, Part]

    @property
    def menu(self) -> list[str]:
        """The commands a decision mail offers (its indented lines after the menu's intro; a
        line indented further continues the one before, as the text part wraps long lines)."""
        lines = self.text.splitlines()
        start = next((i for i, line in enumerate(lines) if line.rstrip().endswith(_MENU_INTRO)), None)
        if start is None:
            return []
        menu: list[str] = []
        for line in lines[start + 1 :]:
            if not line.startswith("  "):
                break
            if menu and line.startswith("   "):
                menu[-1] = f"{menu[-1]} {line.strip()}"
            else:
                menu.append(line.strip())
        return menu


def parse(raw: bytes) -> EmailMessage:
    message = email.message_from_bytes(raw, policy=default_policy)
    assert isinstance(message, EmailMessage)  # the default policy builds EmailMessage objects
    return message


def read(mail: LocalMail) -> Reading:
    message = parse(bytes(mail.raw))
    reply_to = getaddresses([str(message.get("Reply-To") or message.get("From") or "")])
    try:
        date = parsedate_to_datetime(str(message["Date"])) if message["Date"] else None
    except (TypeError, ValueError):
        date = None
    return Reading(
        subject=" ".join(str(message.get("Subject") or "").split()),
        sender=str(message.get("From") or ""),
        date=date,
        message_id=str(message.get("Message-ID") or "").strip(),
        reply_to=reply_to[0][1] if reply_to else "",
        references=str(message.get("References") or "").strip(),
        text=_body(message, "plain"),
        html=_body(message, "html"),
        inline=_inline_parts(message),
    )


def _body(message: EmailMessage, subtype: str) -> str:
    part = message.get_body(preferencelist=(subtype,))
    if part is None:
        return ""
    content = part.get_content()
    return content if isinstance(content, str) else ""


def _inline_parts(message: Message) -> dict[str, Part]:
    """The parts a ``cid:`` URL can name, by Content-ID (without angle brackets)."""
    parts = {}
    for part in message.walk():
        cid = str(part.get("Content-ID") or "").strip().strip("<>")
        payload = part.get_payload(decode=True)
        if cid and isinstance(payload, bytes):
            parts[cid] = Part(part.get_content_type(), payload)
    return parts


def html_for_frame(html: str, mail_pk: int) -> str:
    """The HTML part with its ``cid:`` images served from the stored message, and links
    opening outside the frame (the sandbox lets popups escape it, nothing else)."""

    def local(match: re.Match[str]) -> str:
        return f"{match.group(1)}/mailbox/mail/{mail_pk}/cid/{quote(unquote(match.group(2)), safe='')}/"

    return '<base target="_blank">\n' + _CID.sub(local, html)
