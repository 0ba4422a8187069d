"""A game's own words for a phrase of the service's mails and pages (``MAIL_WORDS``).

    {% load gamewords %}
    {% game_words rules_name "begins" colour=colour edition=edition as own %}
    {% if own %}{{ own }}{% else %}{% blocktranslate %}A game of …{% endblocktranslate %}{% endif %}

The game's English template (``{field}`` placeholders) is said in the reader's language
(``gettext``) and its fields filled in, escaped as ``blocktranslate`` escapes its variables
(in HTML; never in a plain-text part).  Empty for a game that has no words of its own for the
phrase (or no game at all): the template's own words, the service's generic ones, follow.
"""

from __future__ import annotations

from string import Formatter
from typing import Any

from django import template
from django.template.base import render_value_in_context
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext

from games.rules import registry

register = template.Library()


def own_phrase(rules_name: str, key: str) -> str | None:
    """The English template of the game ``rules_name`` for ``key``, or None."""
    if rules_name not in registry.names():  # no game (a mail about none), or a stale name
        return None
    phrase = registry.get(rules_name).presentation.MAIL_WORDS.get(key)
    return phrase if isinstance(phrase, str) else None


class _Kept(dict[str, str]):
    """Fields no value was given for stay as they are written (a mail is never lost to a
    game's phrase that asks for a field the service does not give)."""

    def __missing__(self, key: str) -> str:
        return "{" + key + "}"


def say(phrase: str, values: dict[str, Any], render: Any = str) -> str:
    """``phrase`` in the reader's language with ``values`` put in (each through ``render``);
    a translation whose fields do not match is said in English."""
    filled = _Kept({k: render(v) for k, v in values.items()})
    translated = gettext(phrase)
    fields = {name for _, name, _, _ in Formatter().parse(translated) if name}
    if not fields <= filled.keys():
        translated = phrase
    return translated.format_map(filled)


@register.simple_tag(takes_context=True)
def game_words(context: template.Context, rules_name: str, key: str, **values: Any) -> SafeString:
    phrase = own_phrase(str(rules_name or ""), key)
    if phrase is None:
        return mark_safe("")
    return mark_safe(say(phrase, values, lambda v: render_value_in_context(v, context)))
