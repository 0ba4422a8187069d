"""Merge the narration and refusal translations into the gettext catalogues.

The rules narrate and refuse in English, and the mails look every sentence up with Django's
``gettext`` at send time, in the reader's language (``games.rules.base.Message``).  Those
sentences live in the games' tables, not in ``gettext`` calls, so ``makemessages`` does not see
them (it would turn them into obsolete ``#~`` entries).  Their German and French are kept in
``<package>/locale_src/<source>.<language>.tsv`` (``english<TAB>translation`` per line) beside the
catalogue they belong to, ``<package>/locale/<language>/LC_MESSAGES/django.po``: the service's
(``notifications/``: the refusals every game shares) and each game's own (``games/rules/<game>/``:
its narration and refusals).  Run this after editing a TSV, then compile::

    .venv/bin/python tools/merge_catalogue.py
    for po in notifications/locale/*/LC_MESSAGES/django.po games/rules/*/locale/*/LC_MESSAGES/django.po; do
        msgfmt --check-format -o "${po%.po}.mo" "$po"; done

Idempotent: an entry already right is written back byte for byte.  A msgid the templates
already have appears once; its translation becomes the TSV's.  Entries of the TSV are never
``fuzzy`` and never get a ``python-format`` flag (``{name}`` braces are no gettext format).

Pure standard library, so it runs without Django.
"""

from __future__ import annotations

import re
import sys
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LANGUAGES = ("de", "fr")
ORIGIN = "{source} ({folder}/{source}.{language}.tsv)"
SOURCES = ("narration", "refusals")  # the rules' sentences and their (and the service's) refusals
WIDTH = 79  # gettext's line width
KEYWORD = re.compile(r'^(msgctxt|msgid_plural|msgid|msgstr(?:\[\d+\])?)\s+(".*")\s*$')
ESCAPES = {"n": "\n", "t": "\t", '"': '"', "\\": "\\", "r": "\r", "a": "\a", "b": "\b", "f": "\f", "v": "\v"}


class PoError(ValueError):
    """A .po file this reader does not understand."""


@dataclass
class Entry:
    """One entry of a .po file.  ``lines`` is its text as read (kept when nothing changes)."""

    lines: list[str]
    comments: list[str] = field(default_factory=list)  # every "#" line except the flags
    flags: list[str] = field(default_factory=list)
    fields: dict[str, str] = field(default_factory=dict)  # keyword -> unescaped text
    obsolete: bool = False
    changed: bool = False

    @property
    def msgid(self) -> str:
        return self.fields.get("msgid", "")

    @property
    def msgstr(self) -> str:
        return self.fields.get("msgstr", "")

    @property
    def complete(self) -> bool:
        return any(keyword.startswith("msgstr") for keyword in self.fields)

    @property
    def simple(self) -> bool:
        """No context, no plural: what a plain ``gettext(msgid)`` finds."""
        return "msgctxt" not in self.fields and "msgid_plural" not in self.fields

    def text(self) -> list[str]:
        if not self.changed:
            return self.lines
        out = [line for line in self.lines if not line.strip()][:1]  # the blank line before it
        out += [c for c in self.comments if not c.startswith(("#|", "#~|"))]  # stale "previous"
        if self.flags:
            out.append("#, " + ", ".join(self.flags))
        body: list[str] = []
        for keyword, value in self.fields.items():
            body += quote(keyword, value)
        if self.obsolete:
            body = ["#~ " + line for line in body]
        return out + body


def unquote(literal: str) -> str:
    """The text of one ``"..."`` string of a .po file."""
    if len(literal) < 2 or literal[0] != '"' or literal[-1] != '"':
        raise PoError(f"not a quoted string: {literal!r}")
    return re.sub(r"\\(.)", lambda m: ESCAPES.get(m.group(1), m.group(0)), literal[1:-1])


def escape(text: str) -> str:
    return text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n").replace("\t", "\\t")


def quote(keyword: str, value: str) -> list[str]:
    """``keyword "value"`` as msgmerge writes it: one line when it fits, else ``""`` and pieces
    broken after spaces and after newlines."""
    escaped = escape(value)
    single = f'{keyword} "{escaped}"'
    if len(single) <= WIDTH and "\\n" not in escaped[:-2]:
        return [single]
    tokens: list[str] = []  # words with their space, and text up to a newline
    current = ""
    i = 0
    while i < len(escaped):
        step = 2 if escaped[i] == "\\" else 1
        current += escaped[i : i + step]
        i += step
        if current.endswith(" ") or (step == 2 and current.endswith("\\n")):
            tokens.append(current)
            current = ""
    if current:
        tokens.append(current)
    pieces: list[str] = []
    line = ""
    for token in tokens:
        if line and len(line) + len(token) + 2 > WIDTH:
            pieces.append(line)
            line = ""
        line += token
        if token.endswith("\\n"):
            pieces.append(line)
            line = ""
    if line:
        pieces.append(line)
    return [f'{keyword} ""'] + [f'"{piece}"' for piece in pieces]


def parse(text: str) -> list[Entry]:
    """The entries of a .po file, the header first.

    An entry ends at a blank line or where the next one's comments or msgid begin (a .po
    fresh from ``makemessages`` has no blank line after its header)."""
    entries: list[Entry] = []
    entry = Entry(lines=[])
    keyword = ""
    for line in text.split("\n"):
        obsolete = line.startswith("#~")
        stripped = line[2:].lstrip() if obsolete else line
        starts = stripped.startswith(("msgctxt", "msgid ", "|")) or (line.startswith("#") and not obsolete)
        if (not line.strip() or starts) and entry.complete:
            entries.append(entry)
            entry = Entry(lines=[])
            keyword = ""
        entry.lines.append(line)
        if not line.strip():
            continue
        if obsolete:
            entry.obsolete = True
            if stripped.startswith("|"):  # "#~|": the previous msgid of an obsolete entry
                entry.comments.append(line)
                continue
        elif line.startswith("#,"):
            entry.flags += [f.strip() for f in line[2:].split(",") if f.strip()]
            continue
        elif line.startswith("#"):
            entry.comments.append(line)
            continue
        match = KEYWORD.match(stripped)
        if match:
            keyword = match.group(1)
            entry.fields[keyword] = unquote(match.group(2))
        elif stripped.startswith('"') and keyword:
            entry.fields[keyword] += unquote(stripped.strip())
        else:
            raise PoError(f"cannot read line {line!r}")
    if entry.fields:
        entries.append(entry)  # (blank lines at the end of the file are dropped: render ends it)
    for each in entries:
        if "msgid" not in each.fields or not each.complete:
            raise PoError(f"incomplete entry: {each.lines[:3]!r}")
    return entries


def render(entries: list[Entry]) -> str:
    return "\n".join(line for entry in entries for line in entry.text()).rstrip("\n") + "\n"


def read_tsv(path: Path) -> dict[str, str]:
    """``english<TAB>translation`` per line; blank lines and ``#`` lines are skipped."""
    table: dict[str, str] = {}
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip() or line.startswith("#"):
            continue
        english, sep, translation = line.partition("\t")
        if not sep or "\t" in translation or not translation.strip():
            raise PoError(f"{path.name}:{number}: not english<TAB>translation")
        if english in table and table[english] != translation:
            raise PoError(f"{path.name}:{number}: {english!r} translated twice")
        table[english] = translation
    return table


def fix_header(header: Entry, language: str) -> None:
    """A header from ``makemessages`` is ``fuzzy`` and names no language: the catalogue is
    finished, so it is neither."""
    text = re.sub(r"^Language: \n", f"Language: {language}\\n", header.msgstr, flags=re.MULTILINE)
    flags = [f for f in header.flags if f != "fuzzy"]
    if text != header.msgstr or flags != header.flags:
        header.fields["msgstr"] = text
        header.flags = flags
        header.changed = True


def merge(entries: list[Entry], table: dict[str, str], origin: str) -> list[Entry]:
    """The entries with every TSV row live, translated as the TSV says and not fuzzy."""
    live = {e.msgid: e for e in entries[1:] if e.simple and not e.obsolete}
    # an obsolete entry of the TSV is an earlier merge that makemessages put aside: made live below
    kept = [e for e in entries if not (e.obsolete and e.simple and e.msgid in table)]
    for english, translation in table.items():
        found = live.get(english)
        if found is None:
            entry = Entry(lines=[""], comments=[f"#. {origin}"], fields={"msgid": english, "msgstr": ""})
            entry.changed = True
            kept.append(entry)
        else:
            entry = found
        flags = [f for f in entry.flags if f != "fuzzy"]
        if "%" in english and english not in live:
            # a narration string is no printf format: say so, so no tool guesses otherwise
            flags = [f for f in flags if f != "python-format"] + ["no-python-format"]
        if entry.msgstr != translation or flags != entry.flags:
            entry.fields["msgstr"] = translation
            entry.flags = flags
            entry.changed = True
    return kept


def merge_file(po: Path, tsv: Path, language: str) -> bool:
    """Merge ``tsv`` into ``po``; True when the file changed."""
    before = po.read_text(encoding="utf-8")
    entries = parse(before)
    fix_header(entries[0], language)
    source = tsv.name.partition(".")[0]
    origin = ORIGIN.format(source=source, folder=tsv.parent.relative_to(ROOT), language=language)
    after = render(merge(entries, read_tsv(tsv), origin))
    if after == before:
        return False
    po.write_text(after, encoding="utf-8")
    return True


def packages() -> list[Path]:
    """The folders that hold a catalogue and its TSV sources: the service's, then each game's."""
    found = [ROOT / "notifications", *sorted((ROOT / "games" / "rules").glob("*/locale_src"))]
    return [folder.parent if folder.name == "locale_src" else folder for folder in found]


def main() -> int:
    for package in packages():
        for language in LANGUAGES:
            po = package / "locale" / language / "LC_MESSAGES" / "django.po"
            if not po.exists():
                print(f"{po.relative_to(ROOT)} is missing", file=sys.stderr)
                return 1
            for source in SOURCES:
                tsv = package / "locale_src" / f"{source}.{language}.tsv"
                if tsv.exists():
                    changed = merge_file(po, tsv, language)
                    print(f"{po.relative_to(ROOT)} ({source}): {'merged' if changed else 'up to date'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
