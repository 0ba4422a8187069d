"""Mail from a registered player to an address of the service that names no game: the
service address (the daily digest's and the welcome's Reply-To), the From address, or a reply
address whose token is no seat's.  It is read as that player's commands for all their games,
never dropped:

* mail settings without ``here`` (``mail decisions``, ``picture on``, ``post alle``…): for all
  the player's games, each game's own setting of the kind cleared
  (``preferences.apply_by_mail``), the answer names the games cleared;
* ``status`` (``log`` too): the player's games, where a decision is owed, and their pages;
* ``help``: what this address reads and where moves go;
* ``link`` (``lien``): the link to the player's own page.

A line that is none of these (a move, ``vacation``, a setting with ``here``, which needs a
game) is answered with what this address reads and that moves go to a game's address; the
mail is applied whole or not at all, as everywhere.  Prose above or below the commands
(``Hi,``, ``thanks!``) is ignored and said (``prose.split_prose``).  ``join <league>`` is read
before this (``inbound._join``).
"""

from __future__ import annotations

from typing import Any

from django.db import transaction

from games.models import Player
from notifications.inbound.parsing import ParsedMail
from notifications.models import InboundMail
from notifications.outbound import outbox
from notifications.services import preferences
from notifications.services.mailwords import MAIL_WORDS, TOPICS, key
from notifications.services.prose import Arguments, split_prose

__all__ = ["LINK_WORDS", "answer"]

LINK_WORDS = frozenset({"link", "links", "lien", "liens"})
_WORDS: dict[str, Arguments] = {**MAIL_WORDS, **{key(w): "none" for w in LINK_WORDS}}


def answer(mail: InboundMail, parsed: ParsedMail, player: Player) -> tuple[str, str]:
    """Read the mail as the player's commands for all their games and answer it."""
    lines, ignored = split_prose(parsed.lines, _WORDS)
    where: dict[str, Any] = {"in_reply_to": parsed.message_id, "player": player}
    topics: list[str] = []
    settings: list[preferences.Setting] = []
    for line in lines:
        word = key(line.split()[0])
        if word in LINK_WORDS and len(line.split()) == 1:
            topics.append("link")
        elif word in TOPICS and len(line.split()) == 1:
            topics.append("help" if TOPICS[word] == "help" else "status")
        elif preferences.is_setting(line):
            try:
                setting = preferences.parse(line)
            except preferences.BadSetting:
                return _refuse(mail, player, line, "setting", ignored, where)
            if setting.here:
                return _refuse(mail, player, line, "here", ignored, where)
            settings.append(setting)
        else:
            return _refuse(mail, player, line, "elsewhere", ignored, where)
    if not lines:
        return _refuse(mail, player, "", "nothing", ignored, where)
    cleared: list[dict[str, Any]] = []
    with transaction.atomic():
        for setting in settings:
            cleared += preferences.apply_by_mail(player, None, setting)
    context = {
        "topics": list(dict.fromkeys(topics)),
        "settings": bool(settings),
        "cleared": cleared,
        "ignored": ignored,
    }
    outbox.answer(mail, "account", player.email, context, **where)
    note = f"; ignored, not commands: {' | '.join(ignored)}" if ignored else ""
    status = InboundMail.Status.APPLIED if settings else InboundMail.Status.ANSWERED
    return status, f"for all games of {player.email}: {' | '.join(lines)}{note}"


def _refuse(
    mail: InboundMail, player: Player, line: str, why: str, ignored: list[str], where: dict[str, Any]
) -> tuple[str, str]:
    context = {"refused": why, "failing_line": line[:60], "ignored": ignored, "topics": ["help"]}
    outbox.answer(mail, "account", player.email, context, **where)
    return InboundMail.Status.REFUSED, f"to the service address, not for it ({why}): {line[:60]}"
