"""Mail in for a game that has not started: the seat's ``ready`` (``bereit``, ``prêt``) and the
entropy written after it on its line, during the game's ready window.

The first line of the reply that begins with the word counts; what follows it on that line
(perhaps nothing) and the mail's Message-ID (for a mail without one, the id it was stored
under: ``sha256-…@no-message-id``, a digest of the mail) make the seat's contribution to the draws
(``games.rules.rng.contribution``, appended by ``games.services.contribute``).  The answer
(``ready``) tells the contribution's value, so the player can find it among those the game
lists when it starts; a mail without the word, a second ``ready``, or one after the start is
answered with why it did not count.  Every answer is written in the transaction that
processes the mail.
"""

from __future__ import annotations

import unicodedata
from typing import Any

from games import services
from games.models import Event, Game, Seat
from games.rules.base import Message
from notifications.inbound import press
from notifications.inbound.parsing import ParsedMail
from notifications.models import InboundMail
from notifications.outbound import outbox

READY_WORDS = frozenset({"ready", "bereit", "prêt", "pret"})


def ready_text(lines: tuple[str, ...] | list[str]) -> str | None:
    """What follows the ready word on the first line that begins with it ("" when nothing
    does), or None when no line does."""
    for line in lines:
        word, _, rest = line.strip().partition(" ")
        word = unicodedata.normalize("NFC", word).casefold().rstrip(".!:,;")
        if word in READY_WORDS:
            return rest.strip()
    return None


def begins_with_ready(lines: tuple[str, ...] | list[str]) -> bool:
    """Whether the mail's first command line (its first line that is not blank) is a ready
    word's: a late ``ready`` after the start, to be told the draws are fixed rather than
    read as a misspelt command."""
    first = next((line for line in lines if line.strip()), "")
    return ready_text([first]) is not None


def answer_ready(mail: InboundMail, parsed: ParsedMail, game: Game, seat: Seat) -> tuple[str, str]:
    """Count a seat's ``ready`` (see the module's docstring); the mail's status and outcome."""
    where: dict[str, Any] = {"game": game, "seat": seat.position, "in_reply_to": parsed.message_id}
    # table talk (``say …``) is no ready line, nor is a message's text; it opens at the start
    lines, said = press.split(parsed.reply, lambda line: ready_text([line]) is not None)
    held = {"talk_held": len(said)} if said else {}
    text = ready_text(lines)
    if text is None:
        reason = Message("I found no 'ready' in your mail: game {game} has not started yet.", game=game.pk)
        return _refuse(mail, seat, reason, where, held)
    # a mail without a Message-ID is known by the id it was stored under (a digest of the
    # mail, ``inbound.message_id_of``): still the mail's own, so no two contributions of
    # "ready" alone are the same, and shown in the answer as what was hashed
    message_id = parsed.message_id.strip() or mail.message_id
    try:
        done = services.contribute(game, seat.position, text, message_id=message_id, source=Event.Source.MAIL)
    except services.GameError as error:
        return _refuse(mail, seat, error.text, where, held)
    # what was hashed, exactly, so the player can recompute the value (``rng.contribution``)
    context = {
        "value": done.value,
        "started": done.started is not None,
        "text": text.strip(),
        "message_id": message_id,
        **held,
    }
    outbox.answer(mail, "ready", seat.player.email, context, **where)
    note = "; every seat is ready: the game started" if done.started is not None else ""
    return InboundMail.Status.APPLIED, f"ready: contribution {done.value}{note}"


def _refuse(
    mail: InboundMail, seat: Seat, reason: Message, where: dict[str, Any], held: dict[str, Any] | None = None
) -> tuple[str, str]:
    context = {"refusal": reason.to_data(), **(held or {})}
    outbox.answer(mail, "ready", seat.player.email, context, **where)
    return InboundMail.Status.REFUSED, reason.render()
