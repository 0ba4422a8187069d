"""What the mails of table talk say (``emails.press``, and the sender's confirmation lines):
in the reader's language, with the commands to answer written in it too (``sag blau: …``)."""

from __future__ import annotations

import textwrap
from collections.abc import Mapping, Sequence
from typing import Any

from django.utils.translation import gettext

from games import services
from games.models import Game, Press
from games.presentation import words
from games.rules.base import Rules
from games.services.press import lines_of
from notifications.models import OutboundMail
from notifications.outbound.plaintext import WIDTH

# how a reader writes ``say`` and ``all`` (every spelling of ``mailwords.SAY`` is read)
SAY_WORD = {"en": "say", "de": "sag", "fr": "dis"}
ALL_WORD = {"en": "all", "de": "alle", "fr": "tous"}
PREVIEW = 50  # characters of a message a confirmation quotes


def typed_colour(rules: Rules, colour: str, language: str) -> str:
    """How a reader of ``language`` types the seat ``colour`` (``blau``, ``nord``): the first
    spelling of the first of the game's tables that has it, else the colour itself."""
    vocabulary = rules.notation.words
    for name, table in getattr(vocabulary, "TABLES", {}).items():
        spelled = table.get(language, {}).get(colour) if name != "keyword" else None
        if spelled:
            return str(spelled[0])
    return colour


def _named(colour: str, names: Mapping[str, str]) -> str:
    name = names.get(colour, "")
    return f"{words.colour(colour)} ({name})" if name else words.colour(colour)


def _and(items: Sequence[str]) -> str:
    if len(items) <= 1:
        return "".join(items)
    return gettext("%(first)s and %(last)s") % {"first": ", ".join(items[:-1]), "last": items[-1]}


def told(mail: OutboundMail, game: Game, state: Any, names: dict[str, str]) -> dict[str, Any]:
    """The context of a ``press`` mail to ``mail.seat``: the message and how to answer it."""
    message = game.press_messages.get(pk=mail.context["press"])
    assert message.reaches(mail.seat or 0) and message.seat != mail.seat  # never someone else's
    colours = dict(game.seats.values_list("position", "colour"))
    rules = services.rules_of(game)
    language = mail.player.language if mail.player else "en"
    others = [p for p in message.to_seats if p != mail.seat]
    say, sender = SAY_WORD.get(language, "say"), colours[message.seat]
    answers = []
    if game.press == Game.Press.FULL:
        answers.append(f"{say} {typed_colour(rules, sender, language)}: …")
        if others and not message.to_all:
            group = [typed_colour(rules, colours[p], language) for p in [message.seat, *others]]
            answers.append(f"{say} {' '.join(group)}: …")
    answers.append(f"{say} {ALL_WORD.get(language, 'all')}: …")
    return {
        "sender": words.colour(sender),
        "sender_named": _named(sender, names),
        "to_all": message.to_all,
        "others": "" if message.to_all else _and([words.colour(colours[p]) for p in others]),
        "press_text": message.text,
        "press_lines": box_lines(message.text),
        "answers": answers,
    }


# the quote box's lines ("  | " and the text) fit the mail's 76 columns
BOX_WIDTH = WIDTH - 4


def box_lines(text: str, width: int = BOX_WIDTH) -> list[str]:
    """A message as the lines of its quote box: broken between words at ``width`` columns,
    and a word longer than that (a link, a 2,000-letter shout) broken inside, so no line of
    the box runs out of it; every kind of line break is one."""
    out: list[str] = []
    for line in lines_of(text).split("\n"):
        if not line.strip():
            out.append("")
            continue
        out.extend(
            textwrap.wrap(line, width, break_long_words=True, break_on_hyphens=False, replace_whitespace=True)
            or [""]
        )
    return out


def said_lines(game: Game, ids: Sequence[int]) -> list[str]:
    """One line per message a sender said ("to Blue and Green: Shall we …")."""
    colours = dict(game.seats.values_list("position", "colour"))
    lines = []
    for message in Press.objects.filter(game=game, pk__in=list(ids)).order_by("pk"):
        whom = (
            gettext("to all")
            if message.to_all
            else gettext("to %(seats)s")
            % {"seats": _and([words.colour(colours[p]) for p in message.to_seats])}
        )
        text = " ".join(message.text.split())
        preview = text if len(text) <= PREVIEW else text[: PREVIEW - 1] + "…"
        lines.append(f"{whom}: {preview}")
    return lines
