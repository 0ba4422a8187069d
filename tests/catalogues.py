"""Reading the gettext catalogues in tests: the service's .po files by language, their live
entries and each entry's translations."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
LOCALE = ROOT / "notifications" / "locale"
LANGUAGES = ("de", "fr")
KEYWORD = re.compile(r'^(msgctxt|msgid_plural|msgid|msgstr(?:\[\d+\])?)\s+"(.*)"\s*$')


ESCAPES = {"n": "\n", "t": "\t", '"': '"', "\\": "\\"}


def unquote(text: str) -> str:
    return re.sub(r"\\(.)", lambda m: ESCAPES.get(m.group(1), m.group(0)), text)


def read_po(path: Path) -> list[dict[str, object]]:
    """The live entries of a .po file (header included, obsolete ``#~`` ones left out), each
    ``{"flags": [...], "msgid": ..., "msgstr": ..., ...}``.  Entries may follow each other
    without a blank line (``makemessages`` writes the header so)."""
    entries: list[dict[str, object]] = []
    current: dict[str, object] = {}
    keyword = ""
    for line in [*path.read_text(encoding="utf-8").splitlines(), ""]:
        starts = not line.strip() or line.startswith(("#", "msgctxt", "msgid "))
        if starts and any(str(k).startswith("msgstr") for k in current):
            entries.append(current)
            current, keyword = {}, ""
        if line.startswith("#,"):
            flags = current.setdefault("flags", [])
            assert isinstance(flags, list)
            flags += [f.strip() for f in line[2:].split(",") if f.strip()]
        elif line.startswith("#") or not line.strip():
            continue
        elif match := KEYWORD.match(line):
            keyword = match.group(1)
            current[keyword] = unquote(match.group(2))
        elif line.startswith('"') and keyword:
            current[keyword] = str(current[keyword]) + unquote(line.strip()[1:-1])
        else:
            raise AssertionError(f"{path}: cannot read {line!r}")
    for entry in entries:
        entry.setdefault("flags", [])
    return entries


def translations(entry: dict[str, object]) -> list[str]:
    """The entry's msgstr, or each of its plural forms (``msgstr[0]``, ``msgstr[1]``...)."""
    forms = sorted(k for k in entry if k.startswith("msgstr["))
    return [str(entry[k]) for k in forms] if forms else [str(entry.get("msgstr", ""))]


def po_path(language: str) -> Path:
    return LOCALE / language / "LC_MESSAGES" / "django.po"


BLOCK = re.compile(r"{%\s*blocktranslate[^%]*%}(.*?){%\s*endblocktranslate\s*%}", re.DOTALL)


PLURAL = re.compile(r"{%\s*plural\s*%}")


def block_msgids(text: str) -> tuple[str, str | None]:
    """A blocktranslate body as its msgid and, with ``count``, its msgid_plural."""
    singular, *plural = (re.sub(r"{{\s*(\w+)\s*}}", r"%(\1)s", part) for part in PLURAL.split(text))
    return singular, plural[0] if plural else None
