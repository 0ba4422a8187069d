"""The scripted players: they read their mails from the sink and answer each decision at the
plan's rate, by SMTP and by the ESP webhook, with duplicates, stale replies and strangers mixed in."""

from __future__ import annotations

import base64
import email
import email.policy
import json
import random
import smtplib
import threading
import time
import urllib.request
import uuid
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from email.message import EmailMessage
from pathlib import Path
from typing import Any

from bench.load.plan import WEBHOOK, Plan
from bench.load.sink import Received, read_spool


@dataclass
class Reply:
    kind: str  # player, duplicate, stale, stranger
    message_id: str
    game: int
    seat: int
    route: str  # smtp, webhook
    sent: float
    answers: str = ""  # the Message-ID of the mail it answers
    raw: bytes = b""
    ok: bool = True


@dataclass
class Players:
    """The scripted players: each seat answers the latest decision mail its player got, with
    the rules' default move for the head it reads (a player who knows the rules), by SMTP or
    by the webhook in turn."""

    plan: Plan
    smtp_port: int
    web_port: int
    spool: Path
    rng: random.Random
    replies: list[Reply] = field(default_factory=list)
    errors: Counter[str] = field(default_factory=Counter)
    latest: dict[tuple[int, int], Received] = field(default_factory=dict)
    answered: dict[tuple[int, int], str] = field(default_factory=dict)  # seat -> mail answered
    past: list[Reply] = field(default_factory=list)  # the players' replies, for stale ones
    seen: set[str] = field(default_factory=set)
    inflight: dict[tuple[int, int], str] = field(default_factory=dict)  # seat -> its reply not yet taken
    busy: set[tuple[int, int]] = field(default_factory=set)  # seats a sender is answering for
    count: Iterator[int] = field(default_factory=lambda: iter(range(1 << 62)))
    stale_due: bool = False
    seats_by_address: dict[str, tuple[int, int, str]] = field(default_factory=dict)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def read(self) -> None:
        from notifications.services import tokens

        for mail in read_spool(self.spool, self.seen):
            address = mail.reply_to.strip().strip("<>").split("<")[-1].strip(">")
            if "+" not in address:
                continue
            if address not in self.seats_by_address:
                token = tokens.find([address])
                if token is None:
                    continue
                self.seats_by_address[address] = (token.seat.game_id, token.seat.position, token.player.email)
            game, seat, _ = self.seats_by_address[address]
            with self.lock:
                self.latest[(game, seat)] = mail

    def due(self) -> list[tuple[int, int]]:
        with self.lock:
            return [key for key, mail in self.latest.items() if self.answered.get(key) != mail.message_id]

    def answer(self, key: tuple[int, int]) -> bool:
        """One player's reply to the latest mail of a seat that must decide; False if it need not
        (or another sender is answering for that seat now)."""
        with self.lock:
            if key in self.busy:
                return False
            self.busy.add(key)
        try:
            return self._answer(key)
        finally:
            with self.lock:
                self.busy.discard(key)

    def _answer(self, key: tuple[int, int]) -> bool:
        from games import services
        from games.models import Game, PendingDecision
        from notifications.models import InboundMail, OutboundMail

        with self.lock:
            mail = self.latest[key]
        if key in self.inflight:  # the player's last reply is not taken yet: no second answer
            mine = InboundMail.objects.filter(message_id=self.inflight[key]).exclude(
                status=InboundMail.Status.NEW
            )
            if not mine.exists():
                return False
            self.inflight.pop(key, None)
        game = Game.objects.get(pk=key[0])
        if game.status != Game.Status.RUNNING:
            self.answered[key] = mail.message_id
            return False
        rules = services.rules_of(game)
        state = services.head_state(game)
        if not any(d.seat == key[1] for d in rules.pending(state)):
            self.answered[key] = mail.message_id  # told of something else: wait for a prompt
            return False
        # a person answers the mail that puts the decision to them, not an older one still on
        # top of their inbox while the prompt is on its way (the service would call it stale)
        about = OutboundMail.objects.filter(message_id=mail.message_id).values_list("seq", flat=True).first()
        since = (
            PendingDecision.objects.filter(game=game, seat=key[1]).values_list("since_seq", flat=True).first()
        )
        if about is None or since is None or about < since:
            return False
        text = rules.notation.format_command(state, rules.default(state, key[1]))
        address = mail.reply_to.strip().split("<")[-1].strip(">")
        player = self.seats_by_address[address][2]
        reply = self.send("player", key, player, address, text, mail)
        self.answered[key] = mail.message_id
        if reply.ok:
            self.inflight[key] = reply.message_id
        # the others mixed in at their shares, in a fixed pattern (a short run has each)
        n = next(self.count)
        if reply.ok and n % round(1 / self.plan.duplicates) == 3:
            self.resend(reply)
        if n % round(1 / self.plan.stale) == 7:
            self.stale_due = True
        if self.stale_due:  # an old answer of a seat that has been put a newer decision since
            with self.lock:
                old = next(
                    (r for r in self.past if self.latest[(r.game, r.seat)].message_id != r.answers), None
                )
            if old is not None:
                self.stale_due = False
                self.past.remove(old)
                sender = str(email.message_from_bytes(old.raw)["From"])
                to = str(email.message_from_bytes(old.raw)["To"])
                self.send(
                    "stale", (old.game, old.seat), sender, to, text_of(old.raw), None, in_reply_to=old.answers
                )
        if n % round(1 / self.plan.strangers) == 11:
            self.send(
                "stranger", key, f"someone{self.rng.randrange(10**6)}@elsewhere.invalid", address, text, mail
            )
        if reply.ok:
            self.past.append(reply)
        return True

    def send(
        self,
        kind: str,
        key: tuple[int, int],
        sender: str,
        address: str,
        text: str,
        mail: Received | None,
        *,
        in_reply_to: str = "",
    ) -> Reply:
        answers = mail.message_id if mail is not None else in_reply_to
        msg = EmailMessage()
        msg["From"] = sender
        msg["To"] = address
        msg["Subject"] = f"Re: {mail.subject}" if mail is not None else "Re: your move"
        msg["Message-ID"] = f"<{uuid.uuid4().hex}@players.load.invalid>"
        msg["In-Reply-To"] = f"<{answers}>"
        msg["References"] = f"<{answers}>"
        msg.set_content(f"{text}\n")
        raw = msg.as_bytes()
        route = "smtp" if len(self.replies) % 2 == 0 else "webhook"
        reply = Reply(kind, msg["Message-ID"].strip("<>"), key[0], key[1], route, time.time(), answers, raw)
        reply.ok = self.deliver(route, sender, address, raw)
        with self.lock:
            self.replies.append(reply)
        return reply

    def sent_each_kind(self) -> bool:
        """Whether a reply of every kind (player, duplicate, stale, stranger) has been sent."""
        with self.lock:
            return {"player", "duplicate", "stale", "stranger"} <= {r.kind for r in self.replies}

    def resend(self, reply: Reply) -> None:
        """The same mail again (same Message-ID), by the other way: a retry, a second hop."""
        route = "webhook" if reply.route == "smtp" else "smtp"
        sender = str(email.message_from_bytes(reply.raw)["From"])
        address = str(email.message_from_bytes(reply.raw)["To"])
        copy = Reply("duplicate", reply.message_id, reply.game, reply.seat, route, time.time(), reply.answers)
        copy.ok = self.deliver(route, sender, address, reply.raw)
        with self.lock:
            self.replies.append(copy)

    def deliver(self, route: str, sender: str, address: str, raw: bytes) -> bool:
        try:
            if route == "smtp":
                with smtplib.SMTP("127.0.0.1", self.smtp_port, timeout=30) as smtp:
                    smtp.sendmail(sender, [address], raw)
            else:
                payload = postmark(sender, address, raw)
                request = urllib.request.Request(
                    f"http://127.0.0.1:{self.web_port}/anymail/postmark/inbound/",
                    data=json.dumps(payload).encode(),
                    headers={
                        "Content-Type": "application/json",
                        "Authorization": "Basic " + base64.b64encode(":".join(WEBHOOK).encode()).decode(),
                    },
                )
                with urllib.request.urlopen(request, timeout=30) as response:
                    response.read()
            return True
        except Exception as error:  # counted: a reply the service refused to take is a finding
            self.errors[f"{route}: {type(error).__name__}: {str(error)[:80]}"] += 1
            return False


def text_of(raw: bytes) -> str:
    body = email.message_from_bytes(raw, policy=email.policy.default).get_body(("plain",))
    return str(body.get_content()).strip() if body is not None else ""


def postmark(sender: str, address: str, raw: bytes) -> dict[str, Any]:
    """Postmark's inbound webhook body with the raw message ("Include raw email content")."""
    head = email.message_from_bytes(raw, policy=email.policy.default)
    return {
        "FromFull": {"Email": sender, "Name": "", "MailboxHash": ""},
        "ToFull": [{"Email": address, "Name": "", "MailboxHash": ""}],
        "CcFull": [],
        "BccFull": [],
        "OriginalRecipient": address,
        "Subject": str(head["Subject"]),
        "MessageID": str(uuid.uuid4()),
        "Date": str(head.get("Date", "")),
        "TextBody": text_of(raw),
        "HtmlBody": "",
        "Headers": [{"Name": "Message-ID", "Value": str(head["Message-ID"])}],
        "Attachments": [],
        "RawEmail": raw.decode(),
    }
