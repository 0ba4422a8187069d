"""What a person wrote in a reply: the text with quotes, attribution lines and signatures removed.

Own line rules come first because they are linear and never drop an unquoted line by accident:
``>`` lines are quoted; an attribution ("On … wrote:", "Am … schrieb …:", "Le … a écrit :")
followed by ``>`` lines only introduces that quote, so unquoted lines after the quote
(bottom-posting, interleaved answers) are kept; an attribution followed by unmarked text, an
Outlook header block, a forward or "-----Original Message-----" marker, or a "-- " signature
line ends the reply. The unquoted stretches left over are then shown to mail-parser-reply, which
knows closing phrases ("Best regards,", "Viele Grüße") and more header styles; its cut is only
taken when its answer is a prefix of what the rules kept, so it can shorten a stretch but
never drop or rewrite a line in the middle of it.
"""

from __future__ import annotations

import re

from mailparser_reply import EmailReplyParser
from mailparser_reply.parser import EmailMessage

__all__ = ["strip_reply", "unflow"]

_LANGUAGES: tuple[str, ...] = tuple(EmailReplyParser(languages=["en", "de", "fr"]).languages)

# The library's regexes backtrack badly: 50k blank lines take minutes, and long lines are
# quadratic or worse. It therefore sees only non-blank lines, each cut short, and at most this
# many characters per mail; commands are short and sit at the top, so nothing is lost.
_LIBRARY_BUDGET = 20_000
_LIBRARY_LINE_CHARS = 200

# An attribution or header field longer than this is prose, not a header.
_HEADER_MAX = 400
# How many blank lines may sit between an attribution and the quote it introduces.
_QUOTE_LOOKAHEAD = 4

_INVISIBLE = str.maketrans(
    {
        # Gmail and Outlook put no-break spaces in "a écrit :" and in times ("10:02 AM").
        "\u00a0": " ",
        "\u202f": " ",
        "\u2007": " ",
        # iOS starts quoted text with a BOM; zero-width characters hide in pasted text.
        "\ufeff": None,
        "\u200b": None,
        "\u200c": None,
        "\u200d": None,
        "\u2060": None,
    }
)

_MARKER = re.compile(
    r"-{2,} ?(?:original message|ursprüngliche nachricht|message d'origine|forwarded message"
    r"|weitergeleitete nachricht|message transféré|nachricht weitergeleitet) ?-{2,}"
    r"|begin forwarded message ?:|anfang der weitergeleiteten nachricht ?:"
    r"|début du message réexpédié ?:",
    re.IGNORECASE,
)
_FIELD = re.compile(
    r"\*?(from|sent|to|cc|bcc|date|subject|von|gesendet|an|datum|betreff|de|envoyé|à|a|objet)\*? ?:",
    re.IGNORECASE,
)
_FROM_FIELDS = frozenset({"from", "von", "de"})
_DEVICE_SIGNATURE = re.compile(
    r"sent (?:from|with|via) .+|get outlook for .+"
    r"|von meinem .+|gesendet (?:von|mit) .+|outlook für .+ (?:beziehen|herunterladen)"
    r"|holen sie sich outlook für .+"
    r"|envoyé (?:de|depuis|à partir de|avec) .+|obtenir outlook pour .+",
    re.IGNORECASE,
)
_DEVICE_SIGNATURE_MAX = 100
# Every rule needs one of these: a quote, marker or separator character, a colon, or the first
# word of a wrapped attribution or of a device signature.
_SPECIAL_FIRST = frozenset(">-_")
_SPECIAL_WORDS = (
    *("on ", "am ", "le "),
    *("sent ", "get ", "von ", "gesendet ", "outlook ", "holen ", "envoyé ", "obtenir "),
)


def strip_reply(text: str) -> str:
    """The part of a mail body its sender wrote: quotes, attributions and signatures removed.

    Blank lines inside what is kept stay; stretches separated by quotes are joined by one blank
    line. The result is empty when the body holds nothing but quotes.
    """
    lines = text.replace("\r\n", "\n").replace("\r", "\n").translate(_INVISIBLE).split("\n")
    budget = _LIBRARY_BUDGET
    kept: list[str] = []
    for stretch in _unquoted_stretches(lines):
        if budget > 0:
            stretch, used = _shorten_with_library(stretch, budget)
            budget -= used
        stretch = _trim_blank(stretch)
        if stretch:
            if kept:
                kept.append("")
            kept.extend(stretch)
    return "\n".join(kept)


def _unquoted_stretches(lines: list[str]) -> list[list[str]]:
    stretches: list[list[str]] = []
    current: list[str] = []
    i = 0
    while i < len(lines):
        line = lines[i].rstrip()
        stripped = line.strip()
        if not _may_be_special(stripped):
            current.append(line)
            i += 1
            continue
        if stripped.startswith(">"):
            stretches.append(current)
            current = []
            i += 1
            continue
        if stripped == "--" or _MARKER.fullmatch(stripped) or _outlook_block_at(lines, i):
            break
        span, anchored = _attribution_at(lines, i)
        if span:
            after = _next_nonblank(lines, i + span)
            if after is None or lines[after].lstrip().startswith(">"):
                stretches.append(current)
                current = []
                i += span
                continue
            if anchored:
                break
        if _is_separator(stripped):
            after = _next_nonblank(lines, i + 1)
            if after is not None and _field_name(lines[after]):
                break
            i += 1
            continue
        if len(stripped) <= _DEVICE_SIGNATURE_MAX and _DEVICE_SIGNATURE.fullmatch(stripped):
            i += 1
            continue
        current.append(line)
        i += 1
    stretches.append(current)
    return stretches


def _may_be_special(stripped: str) -> bool:
    """A cheap screen so that ordinary lines (nearly all of them) skip the rules below."""
    if not stripped:
        return False
    return (
        stripped[0] in _SPECIAL_FIRST or ":" in stripped or stripped[:10].lower().startswith(_SPECIAL_WORDS)
    )


def _attribution_at(lines: list[str], i: int) -> tuple[int, bool]:
    """(lines the attribution spans, whether it has the On/Am/Le form) or (0, False).

    Gmail wraps long attributions ("… White Lotus <" / "game@… > wrote:"), so the anchored forms
    may run over up to three lines. Other "… wrote:" lines count only on their own line.
    """
    first = lines[i].strip()
    if not first or len(first) > _HEADER_MAX:
        return 0, False
    kind = _attribution_kind(first)
    if kind:
        return 1, kind == 2
    if not first.lower().startswith(("on ", "am ", "le ")):
        return 0, False
    joined = first
    for span in (2, 3):
        if i + span - 1 >= len(lines):
            break
        more = lines[i + span - 1].strip()
        if not more or more.startswith(">"):
            break
        joined = f"{joined} {more}"
        if len(joined) > _HEADER_MAX:
            break
        if _attribution_kind(joined) == 2:
            return span, True
    return 0, False


def _attribution_kind(line: str) -> int:
    """0: not an attribution; 1: "<name> wrote:"; 2: "On <date>, <name> wrote:" and the like."""
    if not line.endswith(":"):
        return 0
    low = line[:-1].rstrip().lower()
    anchored = (
        (low.startswith("on ") and low.endswith(" wrote"))
        or (low.startswith("am ") and (" schrieb " in low or low.endswith((" schrieb", " geschrieben"))))
        or (low.startswith("le ") and low.endswith(" a écrit"))
    )
    if anchored:
        return 2
    if low.endswith((" wrote", " schrieb", " a écrit")):
        return 1
    return 0


def _outlook_block_at(lines: list[str], i: int) -> bool:
    """Outlook quotes without ``>``: a From/Von/De field followed by another field starts it."""
    if _field_name(lines[i]) not in _FROM_FIELDS:
        return False
    after = _next_nonblank(lines, i + 1, lookahead=1)
    return after is not None and bool(_field_name(lines[after]))


def _field_name(line: str) -> str:
    stripped = line.strip()
    if len(stripped) > _HEADER_MAX:
        return ""
    found = _FIELD.match(stripped)
    return found[1].lower() if found else ""


def _is_separator(stripped: str) -> bool:
    return len(stripped) >= 10 and not stripped.strip("_")


def _next_nonblank(lines: list[str], start: int, lookahead: int = _QUOTE_LOOKAHEAD) -> int | None:
    for j in range(start, min(len(lines), start + lookahead + 1)):
        if lines[j].strip():
            return j
    return None


def _shorten_with_library(stretch: list[str], budget: int) -> tuple[list[str], int]:
    """The stretch cut where mail-parser-reply sees a signature or header, and the budget used."""
    nonblank = [(index, line.strip()) for index, line in enumerate(stretch) if line.strip()]
    shown: list[str] = []
    used = 0
    for _, text in nonblank:
        piece = text[:_LIBRARY_LINE_CHARS]
        if used + len(piece) + 1 > budget:
            break
        shown.append(piece)
        used += len(piece) + 1
    if not shown:
        return stretch, used
    kept = _library_keeps(shown)
    if kept is None or kept >= len(shown):
        return stretch, used
    last = nonblank[kept - 1][0]
    return stretch[: last + 1], used


def _library_keeps(shown: list[str]) -> int | None:
    """How many leading lines of ``shown`` the library keeps, or None when its answer is unusable."""
    try:
        message = EmailMessage(text="\n".join(shown), languages=list(_LANGUAGES), keep_hyphen_lists=True)
        replies = message.read().replies
        body = str(replies[0].body) if replies else ""
    except Exception:  # a heuristic helper must not break parsing; the own rules still apply
        return None
    kept = [line.strip() for line in body.split("\n") if line.strip()]
    # Empty means it took everything for a header or signature, which the rules would have
    # caught if it were one; anything but a prefix means it rewrote lines (disclaimer removal).
    if not kept or kept != shown[: len(kept)]:
        return None
    return len(kept)


def _trim_blank(lines: list[str]) -> list[str]:
    start, end = 0, len(lines)
    while start < end and not lines[start].strip():
        start += 1
    while end > start and not lines[end - 1].strip():
        end -= 1
    return lines[start:end]


def unflow(text: str, *, delsp: bool) -> str:
    """Undo format=flowed (RFC 3676): a line ending in a space continues on the next line."""
    out: list[str] = []
    pending: list[str] = []
    pending_depth = 0
    for line in text.split("\n"):
        depth = len(line) - len(line.lstrip(">"))
        content = line[depth:]
        if content.startswith(" "):
            content = content[1:]
        flowed = content.endswith(" ") and content != "-- "
        if flowed and delsp:
            content = content[:-1]
        if pending and depth != pending_depth:
            out.append(_quoted(pending_depth, "".join(pending)))
            pending = []
        pending_depth = depth
        pending.append(content)
        if not flowed:
            out.append(_quoted(depth, "".join(pending)))
            pending = []
    if pending:
        out.append(_quoted(pending_depth, "".join(pending)))
    return "\n".join(out)


def _quoted(depth: int, text: str) -> str:
    return f"{'>' * depth} {text}" if depth else text
