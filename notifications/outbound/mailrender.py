"""What every mail kind shares in the end: the three templates rendered into a ``Rendered``
(subject, text, HTML; French typography, the text wrapped), and the moments, titles and
setting lines its context says in the reader's language and time zone.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any, NamedTuple

from django.template import Context
from django.template.loader import get_template, render_to_string
from django.utils import dateformat, timezone
from django.utils.translation import gettext

from games.models import Game, Player
from games.presentation import timefmt, typography
from games.services.links import player_page_url
from notifications.outbound import plaintext
from notifications.services import preferences


class Rendered(NamedTuple):
    subject: str
    text: str
    html: str
    picture: bytes = b""  # the board as PNG, for the mails that show it


def local_time(moment: datetime | None) -> str:
    """A moment as the reader's pages write it (``games.presentation.timefmt``: "25.11.2026, 10:00 MEZ")."""
    if moment is None:
        return ""
    return timefmt.reader_time(moment)


def short_time(moment: datetime | None) -> str:
    """A deadline for a subject line: weekday and time ("Wed 18:00"); reminders come in the
    last day or two before it, so the week is clear."""
    if moment is None:
        return ""
    return dateformat.format(timezone.localtime(moment), "D H:i")


def short_far_time(moment: datetime | None) -> str:
    """A moment for a subject line that may be more than a week off (the end of a ready
    window): weekday and time within six days, else with its date too ("Wed 2026-12-02 18:00")."""
    if moment is None or moment - timezone.now() <= timedelta(days=6):
        return short_time(moment)
    return dateformat.format(timezone.localtime(moment), "D Y-m-d H:i")


def game_name(game: Game) -> str:
    """The game's own name, else "Game 12" in the reader's language."""
    return game.name or gettext("Game %(id)s") % {"id": game.pk}


def cleared_lines(cleared: list[dict[str, Any]], language: str) -> list[dict[str, str]]:
    """The games whose own setting a setting for all games cleared, each with the line that
    sets it apart again (``mail digest here``), in the reader's language."""
    names = {g.pk: game_name(g) for g in Game.objects.filter(pk__in={c.get("game") for c in cleared})}
    out = []
    for item in cleared:
        if item.get("game") not in names:
            continue
        if "mode" in item:
            line = preferences.line(language, mode=str(item["mode"]), here=True)
        else:
            line = preferences.line(language, picture=bool(item.get("picture")), here=True)
        out.append({"title": names[item["game"]], "line": line})
    return out


def _plain(name: str, context: dict[str, Any]) -> str:
    """A template rendered without HTML escaping: a subject line is plain text, and a game
    or league named "Tom & Jerry's" must not reach the inbox as "Tom &amp; Jerry&#x27;s"."""
    template = get_template(name).template  # type: ignore[attr-defined]
    return str(template.render(Context(context, autoescape=False)))


def render_template(template: str, context: dict[str, Any]) -> Rendered:
    """A kind's three templates (``notifications/mail/<template>-subject.txt``, ``-body.txt``,
    ``-body.html``) rendered with ``context`` in the language active now."""
    base = f"notifications/mail/{template}"
    reader = context.get("player")
    if isinstance(reader, Player):
        # every mail to a player ends with the link to their own page (``_player_page.*``);
        # the moderators' mails have no player, and no such link
        context = {**context, "player_page": player_page_url(reader)}
    subject = " ".join(_plain(f"{base}-subject.txt", context).split())
    text: str = render_to_string(f"{base}-body.txt", context)
    html: str = render_to_string(f"{base}-body.html", context)
    if typography.is_french():
        subject = typography.french_typography(subject)
        text = typography.french_typography(text)
        html = typography.french_typography_html(html)
    return Rendered(subject, plaintext.wrap(typography.unmarked(text)), typography.unmarked(html))
