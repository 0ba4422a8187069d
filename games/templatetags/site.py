"""Template tags every page shares.

``{% when moment %}`` writes a moment for its reader: a ``<time>`` element whose
``datetime`` attribute is the UTC instant and whose text is the moment in the zone active while
the page is rendered, in the reader's pattern (``games.presentation.timefmt``, one for every page).  A page
rendered in a chosen zone (a seat page in its player's zone, set with ``timezone.override``)
says so and stays as written; on every other page the text is UTC and
``games/static/games/local-times.js`` rewrites it in the browser's own zone, in the same
pattern (without JavaScript the reader sees UTC, which the text says).
"""

from __future__ import annotations

from datetime import UTC, datetime

from django import template
from django.utils import timezone
from django.utils.html import format_html
from django.utils.safestring import SafeString
from django.utils.translation import gettext

from games.presentation import timefmt, words
from games.rules import registry

register = template.Library()


@register.filter
def colour(name: str) -> str:
    """A seat's name in the page's language, as a name begins ("red" → "Rot", "Rouge";
    "north" → "Nord")."""
    return _capitalised(words.colour(str(name)))


@register.filter
def colours(names: object) -> str:
    """Seats' names in the page's language, one after the other: a list, or a text that lists
    them with commas ("blue, yellow" → "Blau, Gelb")."""
    listed = names.split(",") if isinstance(names, str) else list(names or ())  # type: ignore[call-overload]
    return ", ".join(_capitalised(words.colour(str(name).strip())) for name in listed)


def _capitalised(said: str) -> str:
    return said[:1].upper() + said[1:]


@register.filter
def word(text: object) -> str:
    """A game's word (a colour of the board, a piece, a die, a phase, an edition) in the page's
    language: the engine's English words are the catalogue's msgids (``rules.about.MESSAGES``)."""
    said = str(text)
    return gettext(said) if said else said


@register.simple_tag
def game_word(rules: str, kind: str, code: object) -> str:
    """``{% game_word game.rules "phase" view.phase %}``: a code of a game's view or config in
    the page's language, through the game's words (``rules.about.PAGE_WORDS``)."""
    try:
        game = registry.get(str(rules))
    except registry.UnknownRules:
        return str(code)
    return words.game_word(game, kind, code)


@register.simple_tag
def when(moment: datetime | None, style: str = "datetime") -> SafeString | str:
    """``<time>`` for ``moment`` ("—" for none); ``style`` is ``datetime`` or ``date``."""
    if moment is None:
        return "—"
    # a page rendered for one reader (timezone.override) keeps their zone; any other page is
    # rewritten in the browser's, in the same pattern (games.presentation.timefmt)
    chosen = timezone.get_current_timezone_name() != timezone.get_default_timezone_name()
    return format_html(
        '<time datetime="{}"{}>{}</time>',
        moment.astimezone(UTC).isoformat(timespec="seconds").replace("+00:00", "Z"),
        "" if chosen else format_html(' data-local="{}" data-pattern="{}"', style, timefmt.pattern(style)),
        timefmt.reader_time(moment, style=style),
    )


@register.filter
def sealed(text: str, is_sealed: bool) -> str:
    """A decision's text marked "(sealed)" in the page's language, unless it says so already
    ("geheim Einfluss für Zhending (12) bieten", not "… bieten (geheim)")."""
    text = str(text)
    word = gettext("sealed")
    if not is_sealed or word.lower() in text.lower():
        return text
    return f"{text} ({word})"


@register.filter
def phase_words(view: dict[str, object], rules: str) -> str:
    """The view's phase in the page's language, as the game ``rules`` says it (its optional
    ``phase_text``: "bidding for Yanan", "Gebote für Yanan"), else its page words for the
    phase, else the engine's name."""
    game = registry.get(rules)
    try:
        return str(game.presentation.phase_text(view, gettext))
    except (KeyError, AttributeError, TypeError):
        return words.game_word(game, "phase", view.get("phase", ""))
