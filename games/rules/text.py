"""Text mechanisms every game's notation and words share, and the mails reuse: one copy.

* :func:`fold` and :func:`key`: how a typed word or name is compared (case, accents and
  punctuation ignored, ``ß`` = ``ss``);
* :func:`index`, :func:`spell`, :func:`check_language`: a game's multilingual word tables
  (``language -> canonical word -> spellings``, the first spelling the one written);
* :func:`similarity` and :func:`closest_scored`: the nearest spelling to a mistyped word;
* :func:`keyword_hint` and :func:`table_hint`: a table's words for a mail;
* :func:`visible` and :func:`nfkc`: invisible (format) characters removed, compatibility forms
  folded, as a command line is read;
* :func:`wrap_line`: a line broken between words for an 80-column mail.

Only the mechanisms live here; the words, messages and limits stay with each game.
Pure Python: no Django (the rules packages' import contract).
"""

from __future__ import annotations

import re
import sys
import unicodedata
from collections.abc import Iterable, Mapping, Sequence
from difflib import SequenceMatcher

# language -> canonical word -> spellings (the first is the one written)
Table = Mapping[str, Mapping[str, tuple[str, ...]]]


# --- comparing words ------------------------------------------------------------------------


def fold(text: str) -> str:
    """Lower case, accents and punctuation removed: how a typed name is compared."""
    norm = unicodedata.normalize("NFKD", text)
    return "".join(ch for ch in norm.lower() if ch.isalnum())


def key(word: str) -> str:
    """How a typed word is compared: case, accents and punctuation ignored, ``ß`` = ``ss``."""
    return fold(word.casefold())


def check_language(language: str, languages: Sequence[str]) -> None:
    if language not in languages:
        raise ValueError(f"unknown language {language!r} (known: {', '.join(languages)})")


def index(name: str, table: Table, languages: Sequence[str]) -> dict[str, str]:
    """Folded spelling -> canonical word; every language must have the English words, and a
    spelling meaning two words (across languages) is an error."""
    found: dict[str, str] = {}
    for language in languages:
        if set(table[language]) != set(table["en"]):
            raise ValueError(f"{name} words in {language!r} do not match the English ones")
        for canonical, spellings in table[language].items():
            for spelled in spellings:
                k = key(spelled)
                if found.setdefault(k, canonical) != canonical:
                    raise ValueError(f"{name} {spelled!r} means both {found[k]!r} and {canonical!r}")
    return found


def spell(table: Table, canonical: str, language: str, languages: Sequence[str]) -> str:
    """How ``language`` writes a canonical word (its first spelling)."""
    check_language(language, languages)
    return table[language][canonical][0]


def spellings(
    table: Table, canonicals: Iterable[str], languages: Sequence[str]
) -> tuple[tuple[str, str], ...]:
    """``(folded, spelled)`` of every spelling, language by language, in the order ties are
    decided by :func:`closest_scored`: folded once, not per call."""
    order = tuple(canonicals)
    return tuple(
        (key(spelled), spelled)
        for language in languages
        for canonical in order
        for spelled in table[language][canonical]
    )


def similarity(a: str, b: str, floor: float = 0.0) -> float:
    """The similarity ratio of ``a`` and ``b``, or 0.0 when its cheap upper bounds show it is
    below ``floor`` (the full comparison is passed over: same answer, less time)."""
    matcher = SequenceMatcher(None, a, b)
    if matcher.real_quick_ratio() < floor or matcher.quick_ratio() < floor:
        return 0.0
    return matcher.ratio()


def closest_scored(
    word: str, candidates: Iterable[tuple[str, str]], least: float = 0.6, longest: int = 24
) -> tuple[str, float] | None:
    """``(spelled, ratio)`` of the candidate (``(folded, spelled)`` pairs, see
    :func:`spellings`) closest to a mistyped word, or None when none reaches ``least``.  Ties
    go to the earlier candidate.  A word folded longer than ``longest`` is near none (and
    comparing would cost time per letter)."""
    typed = key(word)
    if len(typed) > longest:
        return None
    best: tuple[float, str] | None = None
    for folded, spelled in candidates:
        score = similarity(typed, folded, least if best is None else best[0])
        if score >= least and (best is None or score > best[0]):
            best = (score, spelled)
    return (best[1], best[0]) if best else None


def keyword_hint(table: Table, canonicals: Sequence[str], language: str) -> str:
    """The keywords of ``language`` with their English meaning, one per line, for mails::

        setze, setzen = place
        passe, passen = pass

    For English, the keywords on one line."""
    if language == "en":
        return ", ".join(canonicals)
    return "\n".join(f"{', '.join(table[language][k])} = {k}" for k in canonicals)


def table_hint(table: Table, language: str, bare_when_same: bool = False) -> str:
    """One line of a table's words in ``language`` with their English meaning
    (``rot = red, grün/gruen = green``); English words alone, and with ``bare_when_same`` a
    word spelled as its English one too."""

    def entry(canonical: str, spelled: tuple[str, ...]) -> str:
        written = "/".join(spelled)
        if language == "en" or (bare_when_same and written == canonical):
            return written
        return f"{written} = {canonical}"

    return ", ".join(entry(canonical, spelled) for canonical, spelled in table[language].items())


# --- reading a line as typed ----------------------------------------------------------------

# Unicode's format characters (category Cf): zero-width spaces and joiners, the byte order
# mark, soft hyphens, bidi marks...  Assigned only in planes 0, 1 and 14 (the planes between
# are unassigned or ideographs), so only those are looked through, once.  Two classes, not
# one: a class of BMP characters alone is a bitmap and costs little on a 5 MB mail body; the
# few others are looked for only in a text that has characters beyond the BMP at all.
_FORMAT = "".join(
    chr(c)
    for plane in (range(0x20000), range(0xE0000, min(0xF0000, sys.maxunicode + 1)))
    for c in plane
    if unicodedata.category(chr(c)) == "Cf"
)
_FORMAT_BMP = re.compile("[" + "".join(ch for ch in _FORMAT if ord(ch) < 0x10000) + "]")
_FORMAT_ASTRAL = re.compile("[" + "".join(ch for ch in _FORMAT if ord(ch) >= 0x10000) + "]")
_ASTRAL = re.compile("[\U00010000-\U0010ffff]")


def visible(text: str) -> str:
    """``text`` without its invisible format characters (Unicode category Cf)."""
    text = _FORMAT_BMP.sub("", text)
    return _FORMAT_ASTRAL.sub("", text) if _ASTRAL.search(text) else text


def nfkc(text: str, kept: tuple[str, ...] = ()) -> str:
    """Compatibility forms folded (NFKC: full-width ``ｂｉｄ ３`` is ``bid 3``), except the
    characters whose decomposition starts with one of ``kept`` (``"<super>"``...)."""
    if text.isascii():
        return text
    if not kept:
        return unicodedata.normalize("NFKC", text)
    out: list[str] = []
    run: list[str] = []
    for ch in text:
        if not ch.isascii() and unicodedata.decomposition(ch).startswith(kept):
            out += [unicodedata.normalize("NFKC", "".join(run)), ch]
            run = []
        else:
            run.append(ch)
    out.append(unicodedata.normalize("NFKC", "".join(run)))
    return "".join(out)


# --- wrapping -------------------------------------------------------------------------------

WIDTH = 76  # a mail's text columns: where its lines are wrapped
URL = re.compile(r"\bhttps?://\S+")
_BULLET = re.compile(r"(?:[-*>]|\d+\.) ")
# a word that is kept on the line of the word before it: "(17)", "(17),", "2;", "12", and the
# "==" that closes a heading ("== Partie 3 (Rot) ==")
_TRAILING = re.compile(r"\(?\d+\)?[,;:.]?|=+")


def wrap_line(line: str, width: int = WIDTH, hang: int | None = None) -> list[str]:
    """One line as lines of at most ``width`` columns, broken between words only (a word
    longer than the line stays whole), a number kept with the word before it; continuation
    lines are indented by ``hang`` columns (by default: under the text after a bullet, or four
    in from an indented line, or not at all for a paragraph)."""
    if len(line) <= width:
        return [line]
    body = line.lstrip(" ")
    indent = len(line) - len(body)
    if hang is None:
        bullet = _BULLET.match(body)
        hang = indent + (len(bullet.group(0)) if bullet else 4 if indent else 0)
    lines: list[str] = []
    current = " " * indent
    fresh = True  # nothing but indentation on the current line yet
    for space, word in _words(body):
        if not fresh and len(current) + len(space) + len(word) > width:
            lines.append(current)
            current, fresh = " " * hang, True
        current = current + word if fresh else current + space + word
        fresh = False
    lines.append(current)
    return lines


def _words(body: str) -> list[tuple[str, str]]:
    """The words of ``body``, each with the spaces before it (kept: a menu's double space
    stays double), a number glued to the word before it."""
    words: list[tuple[str, str]] = []
    # a no-break space (French typography: "Date limite\u00a0: …") binds, as its name says
    for space, word in re.findall(r"( *)([^ ]+)", body):
        if words and _TRAILING.fullmatch(word) and not URL.match(words[-1][1]):
            words[-1] = (words[-1][0], words[-1][1] + space + word)
        else:
            words.append((space, word))
    return words
