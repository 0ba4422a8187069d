"""Sentences kept so that they can be said in any language later: :class:`Message` and the
words put into it (:class:`Word`, :class:`Spelled`).  The engine builds them and never
translates; the service renders them in the reader's language (``render(gettext)``).

Pure Python: no Django (the rules packages' import contract).  Re-exported by
:mod:`games.rules.base`, where every game imports them from.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from types import MappingProxyType
from typing import Any, NamedTuple

Translate = Callable[[str], str]


def as_is(text: str) -> str:
    """The English text itself: the ``translate`` of a reader of English (and of tests)."""
    return text


def particular(translate: Translate, context: str, message: str) -> str:
    """``message`` said in a context (``pgettext``) through a plain ``translate``: the
    catalogue keys it ``context + "\\x04" + message``; a translation missing gives the message."""
    said = translate(f"{context}\x04{message}")
    return message if "\x04" in said else said


class Word(NamedTuple):
    """An English word inserted into a :class:`Message` that the reader's language translates
    (a colour, a building, ``army``); a plain ``str`` argument (a province, what the player
    typed) is inserted as it is.  ``case`` ("capitalize", "lower") is applied to the word
    once translated (a seat's name at the start of a sentence)."""

    text: str
    case: str = ""

    def said(self, translate: Translate) -> str:
        word = translate(self.text)
        if self.case == "capitalize":
            return word.capitalize()
        if self.case == "lower":
            return word.lower()
        return word


# the msgid each catalogue translates as its own language's code ("de", "fr"): how a
# :class:`Spelled` argument knows which of its spellings the reader's ``translate`` wants
LANGUAGE_CODE = "language code: en"


class Spelled(NamedTuple):
    """A text the engine writes itself in each language, inserted into a :class:`Message`: a
    command in the reader's notation (``ablehnen`` for a German reader, ``decline`` for an
    English one), which no catalogue could hold.  The reader's ``translate`` names its
    language by translating :data:`LANGUAGE_CODE`; a language without a spelling gets the
    English one."""

    spellings: tuple[tuple[str, str], ...]  # (language, text), English first

    def said(self, translate: Translate) -> str:
        found = dict(self.spellings)
        return found.get(translate(LANGUAGE_CODE), found.get("en", ""))


# the last link of a list (:meth:`Message.listed`): a template of every game's MESSAGES that
# lists seats or things in a sentence
AND = "{some} and {last}"


class Message:
    """A sentence for a person, kept so that it can be said in any language later: an English
    template with ``{named}`` fields and their values.

    ``render()`` is the English text (logs, tests, ``str(error)``); ``render(gettext)`` the
    reader's: the template and every :class:`Word` go through ``translate``, a nested
    message is rendered the same way.  ``to_data`` / ``from_data`` keep it as JSON (the
    outbox stores a refusal so and the mail renders it at send time, in the reader's
    language).  The engine stays pure: it never calls a translation itself."""

    __slots__ = ("args", "count", "plain", "template")

    def __init__(self, template: str, /, **args: Argument) -> None:
        self.template = template
        self.args: Mapping[str, Argument] = MappingProxyType(args)
        self.plain = False
        self.count: tuple[int, str] | None = None  # (n, the template for "other"): counted

    @classmethod
    def counted(cls, n: int, one: str, other: str, /, **args: Argument) -> Message:
        """A sentence about ``n`` things, said with ``one`` or ``other`` as the reader's
        language chooses for ``n`` (1 is "one"; in French 0 is too): "mit 1 Palast", "mit 2
        Palästen", never "Palast/Paläste"."""
        message = cls(one, **args)
        message.count = (n, other)
        return message

    @classmethod
    def literal(cls, text: str) -> Message:
        """A text said as it is, in every language (a message nobody has made translatable)."""
        return cls("{text}", text=text)

    @classmethod
    def layout(cls, template: str, /, **args: Argument) -> Message:
        """Arguments put together by a template that is no sentence and is never translated
        (``"{code} ({hat}/{robe})"``): only its arguments are said in the reader's language."""
        message = cls(template, **args)
        message.plain = True
        return message

    @classmethod
    def joined(cls, parts: Sequence[Argument], separator: str = ", ") -> Message:
        """``parts`` one after the other with ``separator`` between them (a list of colours);
        each part is said in the reader's language, the separator as it is."""
        escaped = separator.replace("{", "{{").replace("}", "}}")
        template = escaped.join(f"{{p{i}}}" for i in range(len(parts)))
        return cls.layout(template, **{f"p{i}": part for i, part in enumerate(parts)})

    @classmethod
    def listed(cls, parts: Sequence[Argument]) -> Argument:
        """``parts`` as a list in a sentence: "Red", "Red and Blue", "Red, Blue and Green",
        its last link (:data:`AND`) said in the reader's language ("und", "et")."""
        if len(parts) < 2:
            return parts[0] if parts else ""
        return cls(AND, some=cls.joined(parts[:-1]), last=parts[-1])

    def render(self, translate: Translate = as_is) -> str:
        values = {k: _render_argument(v, translate) for k, v in self.args.items()}
        template = self.template
        if self.count is not None:
            n, other = self.count
            template = template if _is_one(n, translate(LANGUAGE_CODE)) else other
        if self.plain:
            return template.format(**values)
        try:
            return translate(template).format(**values)
        except (KeyError, IndexError, ValueError):  # a broken translation: say it in English
            return template.format(**values)

    def to_data(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "template": self.template,
            "args": {k: _argument_data(v) for k, v in self.args.items()},
        }
        if self.plain:
            data["plain"] = True
        if self.count is not None:
            data["count"], data["other"] = self.count
        return data

    @classmethod
    def from_data(cls, data: Any) -> Message | None:
        """The message :meth:`to_data` wrote, or None for anything else."""
        if not isinstance(data, Mapping) or not isinstance(data.get("template"), str):
            return None
        args: dict[str, Argument] = {}
        raw = data.get("args")
        for k, v in (raw if isinstance(raw, Mapping) else {}).items():
            if isinstance(v, Mapping) and isinstance(v.get("word"), str):
                args[str(k)] = Word(v["word"], str(v.get("case", "")))
            elif isinstance(v, Mapping) and isinstance(v.get("spelled"), Mapping):
                args[str(k)] = Spelled(tuple((str(lang), str(text)) for lang, text in v["spelled"].items()))
            elif isinstance(v, Mapping):
                nested = cls.from_data(v)
                args[str(k)] = nested if nested is not None else ""
            else:
                args[str(k)] = v if isinstance(v, str | int) else str(v)
        message = cls(data["template"], **args)
        message.plain = data.get("plain") is True
        if isinstance(data.get("count"), int) and isinstance(data.get("other"), str):
            message.count = (data["count"], data["other"])
        return message

    def templates(self) -> list[str]:
        """Every string :meth:`render` passes to ``translate``."""
        found = [] if self.plain else [self.template]
        if self.count is not None:
            found += [LANGUAGE_CODE] if self.plain else [LANGUAGE_CODE, self.count[1]]
        for v in self.args.values():
            if isinstance(v, Word):
                found.append(v.text)
            elif isinstance(v, Spelled):
                found.append(LANGUAGE_CODE)
            elif isinstance(v, Message):
                found += v.templates()
        return found

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Message) and self.to_data() == other.to_data()

    def __hash__(self) -> int:
        return hash(self.template)

    def __repr__(self) -> str:
        return f"Message({self.render()!r})"


Argument = str | int | Word | Spelled | Message

# the languages whose "one" form is said of 0 as well as of 1 (CLDR's plural rules)
ZERO_IS_ONE = frozenset({"fr"})


def _is_one(n: int, language: str) -> bool:
    """Whether ``language`` says ``n`` things with its singular ("language code: en", the
    untranslated msgid, is English)."""
    return n == 1 or (n == 0 and language in ZERO_IS_ONE)


def _render_argument(value: Argument, translate: Translate) -> str:
    if isinstance(value, Message):
        return value.render(translate)
    if isinstance(value, Word | Spelled):
        return value.said(translate)
    return str(value)


def _argument_data(value: Argument) -> Any:
    if isinstance(value, Message):
        return value.to_data()
    if isinstance(value, Word):
        return {"word": value.text, "case": value.case} if value.case else {"word": value.text}
    if isinstance(value, Spelled):
        return {"spelled": dict(value.spellings)}
    return value
