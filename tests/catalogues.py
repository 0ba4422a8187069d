"""Reading the gettext catalogues in tests: the service's .po files by language and each shipped
game's own (``games/rules/<game>/locale``), their live entries, each entry's translations and
the TSV sources of the entries makemessages cannot see (``<home>/locale_src``)."""

from __future__ import annotations

import gettext
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SERVICE = ROOT / "notifications"  # the service's catalogue: what every game shares
LOCALE = SERVICE / "locale"
GAMES = {name: ROOT / "games" / "rules" / name for name in ("whitelotus", "verbotenestadt")}
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


def po_path(language: str, home: Path = SERVICE) -> Path:
    """The .po of a catalogue's home (the service's, or a game's package)."""
    return home / "locale" / language / "LC_MESSAGES" / "django.po"


def catalogue_paths(language: str) -> list[Path]:
    """Every .po Django merges for ``language``, in its order (``LOCALE_PATHS``): the
    service's first, then each registered game's own."""
    from games.rules import registry

    return [po_path(language), *(d / language / "LC_MESSAGES" / "django.po" for d in registry.locale_dirs())]


def translator(language: str) -> gettext.NullTranslations:
    """The compiled catalogues as Django merges them, read without Django: the service's first,
    each game's own behind it (English: none)."""
    if language == "en":
        return gettext.NullTranslations()
    found = []
    for path in catalogue_paths(language):
        with path.with_suffix(".mo").open("rb") as mo:
            found.append(gettext.GNUTranslations(mo))
    first, *rest = found
    for behind in rest:
        first.add_fallback(behind)
    return first


def read_tsv(home: Path, source: str, language: str) -> dict[str, str]:
    """``<home>/locale_src/<source>.<language>.tsv`` (``english<TAB>translation``), or {}."""
    path = home / "locale_src" / f"{source}.{language}.tsv"
    table: dict[str, str] = {}
    for line in path.read_text(encoding="utf-8").splitlines() if path.exists() else ():
        if line.strip() and not line.startswith("#"):
            english, _, translated = line.partition("\t")
            table[english] = translated
    return table


def msgstrs(path: Path) -> dict[str, str]:
    """msgid -> msgstr of the entries without context or plural forms."""
    return {str(e["msgid"]): str(e.get("msgstr", "")) for e in read_po(path) if "msgctxt" not in e}


BLOCK = re.compile(r"{%\s*blocktranslate[^%]*%}(.*?){%\s*endblocktranslate\s*%}", re.DOTALL)


PLURAL = re.compile(r"{%\s*plural\s*%}")


def block_msgids(text: str) -> tuple[str, str | None]:
    """A blocktranslate body as its msgid and, with ``count``, its msgid_plural."""
    singular, *plural = (re.sub(r"{{\s*(\w+)\s*}}", r"%(\1)s", part) for part in PLURAL.split(text))
    return singular, plural[0] if plural else None
