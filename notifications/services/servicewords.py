"""The words the service's own catalogue (``notifications/locale``) already says in German and
French, which a game may use as they are: a game's ``translate("red")`` or ``Word("red")``
reads the service's entry, so the game's own catalogue needs none (and may not give another,
docs/ADDING-A-GAME.md *Translations*).  ``manage.py service_words`` prints them."""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from django.conf import settings

LANGUAGES = ("de", "fr")
_LINE = re.compile(r'^(msgctxt|msgid_plural|msgid|msgstr(?:\[\d+\])?)\s+"(.*)"\s*$')
_ESCAPES = {"n": "\n", "t": "\t", '"': '"', "\\": "\\"}


@dataclass
class Entry:
    """One entry of a ``.po`` or ``.pot`` file: its fields by keyword and its flags."""

    fields: dict[str, str] = field(default_factory=dict)
    flags: set[str] = field(default_factory=set)

    @property
    def msgid(self) -> str:
        return self.fields.get("msgid", "")

    @property
    def plain(self) -> bool:
        """What a plain ``gettext(msgid)`` finds: no context, no plural, not fuzzy, translated."""
        return (
            "msgctxt" not in self.fields
            and "msgid_plural" not in self.fields
            and "fuzzy" not in self.flags
            and bool(self.msgid)
            and bool(self.fields.get("msgstr", "").strip())
        )


def _unquote(text: str) -> str:
    return re.sub(r"\\(.)", lambda m: _ESCAPES.get(m.group(1), m.group(0)), text)


def read(path: Path) -> Iterator[Entry]:
    """The live entries of a ``.po`` or ``.pot`` file (obsolete ``#~`` ones left out)."""
    entry, keyword = Entry(), ""
    for line in [*path.read_text(encoding="utf-8").splitlines(), ""]:
        starts = not line.strip() or line.startswith(("#", "msgctxt", "msgid "))
        if starts and any(k.startswith("msgstr") for k in entry.fields):
            yield entry
            entry, keyword = Entry(), ""
        if line.startswith("#,"):
            entry.flags |= {f.strip() for f in line[2:].split(",")}
        elif match := _LINE.match(line):
            keyword = match.group(1)
            entry.fields[keyword] = _unquote(match.group(2))
        elif line.startswith('"') and keyword:
            entry.fields[keyword] += _unquote(line.strip()[1:-1])


def catalogue(language: str) -> dict[str, str]:
    """msgid -> the service's translation, for each msgid a plain ``gettext`` finds."""
    path = Path(settings.BASE_DIR) / "notifications" / "locale" / language / "LC_MESSAGES" / "django.po"
    return {e.msgid: e.fields["msgstr"] for e in read(path) if e.plain}


def service_words(words: Iterable[str] = (), of: Path | None = None) -> list[tuple[str, dict[str, str]]]:
    """Each msgid the service translates into every language, with its translations, in the
    catalogue's order: those that have one of ``words`` as a whole word (any case; all
    without), and with
    ``of`` (a game's ``.pot`` or ``.po``) only the msgids that file has too."""
    said = {language: catalogue(language) for language in LANGUAGES}
    wanted = [re.compile(rf"(?<!\w){re.escape(w)}(?!\w)", re.IGNORECASE) for w in words]
    mine = {e.msgid for e in read(of)} if of is not None else None
    found = []
    for msgid in said[LANGUAGES[0]]:
        if not all(msgid in said[language] for language in LANGUAGES):
            continue
        if wanted and not any(w.search(msgid) for w in wanted):
            continue
        if mine is not None and msgid not in mine:
            continue
        found.append((msgid, {language: said[language][msgid] for language in LANGUAGES}))
    return found
