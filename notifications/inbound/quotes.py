"""What a person wrote in a reply: the text with quotes, attribution lines and signatures removed.

The service's own line rules run first, because they are linear and never drop an unquoted line
by accident (attribution lines are read by :mod:`.attributions`, header blocks and markers by
:mod:`.replyheaders`, in the languages of :mod:`.replywords`):

* ``>`` lines are quoted.  An attribution ("On … wrote:", "Am … schrieb …:", wrapped over up to
  four lines) followed by ``>`` lines only introduces that quote: unquoted lines after it
  (bottom-posting, interleaved answers) are kept.
* The reply ends at an attribution followed by unmarked text, an Outlook header block (two
  different fields: From/Von/De… with Sent, To…), a forward or "-----Original Message-----"
  marker, a "-- " signature line, or a separator line with only a short footer after it.  A
  marker or header block followed by ``>`` lines only introduces that quote; a forward with
  nothing above it gives the text under its header block (a player sending on their own mail).
* Device signatures ("Sent from my iPhone", "iPhoneから送信"), with an apology for typos or not,
  are dropped where they stand; a closing phrase on its own line ("Mvh", "Pozdrawiam,") with at
  most a few short lines after it ends its stretch.

The unquoted stretches left are then shown to mail-parser-reply, which knows more closing
phrases and header styles.  Its cut is taken only when its answer is a prefix of what the rules
kept and nothing it cuts may be a command: it can shorten a stretch, never drop or rewrite a
line in its middle, nor drop a command below a line it takes for a signature.
"""

from __future__ import annotations

import re

from mailparser_reply import EmailReplyParser
from mailparser_reply.parser import EmailMessage

from games.rules.text import visible
from notifications.inbound import replywords
from notifications.inbound.attributions import WEEKDAY_START, attribution_at, first_word
from notifications.inbound.replyheaders import (
    DECORATION,
    HEADER_MAX,
    QUOTE_LOOKAHEAD,
    field_name,
    header_block_end,
    is_forward,
    is_marker,
    next_nonblank,
    outlook_block_at,
)
from notifications.services import mailwords

__all__ = ["strip_reply", "unflow"]

# Only these: the library's closing phrases of other languages match any line starting with
# them ("Tak" cuts "take Fuzhou", "Kh" cuts "Khan…") and its Polish header needs one field
# ("Do: …"). Closing phrases of every language are the own rule's, matched whole.
_LANGUAGES: tuple[str, ...] = tuple(EmailReplyParser(languages=["en", "de", "fr"]).languages)

# The library's regexes backtrack badly: 50k blank lines take minutes, and long lines are
# quadratic or worse. It therefore sees only non-blank lines, each cut short, and at most this
# many characters per mail; commands are short and sit at the top, so nothing is lost.
_LIBRARY_BUDGET = 20_000
_LIBRARY_LINE_CHARS = 200

# A closing phrase is one when at most this many short lines follow it.
_CLOSING_TAIL = 4
_CLOSING_TAIL_CHARS = 60
# "-Abhishek Kona", "/John": a name signed on its own line.
_NAME_SIGNATURE = re.compile(r"[-/][^\W\d_][\w.'-]*(?: [^\W\d_][\w.'-]*){0,3}")
# A separator line ends the reply when no more than this many lines follow it (a footer).
_FOOTER_LINES = 6

# Gmail and Outlook put no-break spaces in "a écrit :" and in times ("10:02 AM"); iOS starts
# quoted text with a BOM; zero-width characters and bidi marks hide in pasted text: the same
# invisible (format) characters a command line drops (games.rules.text.visible).  Regular
# expressions, not str.translate: these characters are rare, and translate walks a 5 MB body
# char by char.
_NO_BREAK_SPACES = re.compile("[\u00a0\u202f\u2007]")
# Marks that show nothing but are no format characters, so ``visible`` keeps them: the
# combining grapheme joiner, the Hangul fillers and the blank Braille cell, which newsletters
# and trackers put in rows ("\u200c\u034f \u200c\u034f …") to pad a preview
_INVISIBLE_MARKS = re.compile("[\u034f\u115f\u1160\u2800\u3164\uffa0]")


# Mail trackers in Gmail (Streak, Mailtrack) end the text with a line of "ᐧ" (U+1427), where
# the HTML part has their pixel: nothing the sender wrote.
_TRACKING_GLYPH = "\u1427 "


def _visible(text: str) -> str:
    return _INVISIBLE_MARKS.sub("", visible(_NO_BREAK_SPACES.sub(" ", text)))


_DEVICE_SIGNATURE_MAX = 100
_DEVICE_SIGNATURE_WORDS = 12


def strip_reply(text: str, *, _forward_depth: int = 0) -> str:
    """The part of a mail body its sender wrote: quotes, attributions and signatures removed.

    Blank lines inside what is kept stay; stretches separated by quotes are joined by one blank
    line. The result is empty when the body holds nothing but quotes.
    """
    lines = _visible(text.replace("\r\n", "\n").replace("\r", "\n")).split("\n")
    lines = _without_banner(lines)
    budget = _LIBRARY_BUDGET
    kept: list[str] = []
    forwarded: list[int] = []
    for stretch in _unquoted_stretches(lines, forwarded):
        stretch = _without_closing(stretch)
        if budget > 0:
            stretch, used = _shorten_with_library(stretch, budget)
            budget -= used
        stretch = _trim_blank(stretch)
        if stretch:
            if kept:
                kept.append("")
            kept.extend(stretch)
    if not kept and forwarded and _forward_depth == 0:
        # a forward with nothing written above it (a player sending on their own mail that
        # went astray): what is under the forwarded message's header block is the text,
        # read by the same rules once more
        return strip_reply("\n".join(lines[forwarded[0] :]), _forward_depth=1)
    return "\n".join(kept)


def _unquoted_stretches(lines: list[str], forwarded: list[int]) -> list[list[str]]:
    """The stretches of unquoted lines, up to the first line that ends the reply; when that
    is a forward's (or a header block's), ``forwarded`` gets the index of the first line
    under its header block."""
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
        if stripped == "--":
            break
        marker = is_marker(stripped)
        if marker or outlook_block_at(lines, i):
            end = header_block_end(lines, i, marker)
            after = next_nonblank(lines, end)
            if after is not None and lines[after].lstrip().startswith(">"):
                # the block only introduces a quote, as an attribution does: text written
                # below the quote is kept (bottom-posting under Outlook's block)
                stretches.append(current)
                current = []
                i = end
                continue
            if is_forward(stripped):
                forwarded.append(end)
            break
        span, anchored = attribution_at(lines, i)
        if span:
            after = next_nonblank(lines, i + span)
            if after is None or lines[after].lstrip().startswith(">"):
                stretches.append(current)
                current = []
                i += span
                continue
            if anchored:
                break
        if _is_separator(stripped):
            if _header_block_after(lines, i + 1):
                break
            if _only_a_footer_after(lines, i + 1):
                break
            i += 1
            continue
        if _is_device_signature(stripped) or not stripped.strip(_TRACKING_GLYPH):
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
    first = stripped[0]
    if len(stripped) > HEADER_MAX:  # too long for any rule but a quote or a separator
        return first in ">-_"
    return (
        first in ">-_=*"
        or first in DECORATION
        or first.isdigit()
        or ":" in stripped
        or "：" in stripped
        or "@" in stripped
        or "<" in stripped
        or not stripped.isascii()
        or first_word(stripped) in _SPECIAL_WORDS
        or bool(WEEKDAY_START.match(stripped[:40].lower()))  # "pe 20. lokakuuta 2017 klo …"
    )


# First words of the lines the rules look at that may have no colon, digit or "@" (a wrapped
# attribution's first line, a device signature, Apple's forward line).
_SPECIAL_WORDS = frozenset(
    {
        *replywords.INTRO_WORDS,
        *("sent", "get", "von", "gesendet", "outlook", "holen", "envoyé", "obtenir", "téléchargez"),
        *("enviado", "enviada", "obtener", "obtén", "baixe", "obtenha", "inviato", "scarica", "ottieni"),
        *("verstuurd", "verzonden", "download", "wysłane", "wysłano", "pobierz", "skickat", "skickades"),
        *("hämta", "sendt", "hent", "få", "odesláno", "stáhněte", "begin", "anfang", "début", "télécharger"),
        *("inicio", "inizio", "início", "początek", "videresendt", "början", "začátek"),
        *("diese", "this", "ce"),  # "Diese Nachricht wurde von meinem … gesendet."
        "from",  # "From my iPhone 6"
    }
)


def _is_device_signature(stripped: str) -> bool:
    """ "Sent from my iPhone" and its kind, perhaps with the sender's apology after it ("Sent from
    my Galaxy, please excuse any typos."); another comma makes it a sentence, not a signature."""
    low = stripped.lower()
    apology = replywords.TYPO_APOLOGY.search(low)
    if apology:
        low = low[: apology.start()].rstrip()
    return (
        len(stripped) <= _DEVICE_SIGNATURE_MAX
        and len(stripped.split()) <= _DEVICE_SIGNATURE_WORDS
        and "," not in low
        and bool(replywords.DEVICE_SIGNATURE.fullmatch(low))
    )


def _is_separator(stripped: str) -> bool:
    return len(stripped) >= 10 and (not stripped.strip("_") or not stripped.strip("-"))


def _header_block_after(lines: list[str], start: int) -> bool:
    """Whether the next two lines that are not blank are two different header fields ("From: …"
    / "Sent: …", as Outlook writes above the mail it quotes); one field alone, or one field
    twice, is no block (the Polish "Do:" is "To:", and "Do: place 3" a player's line)."""
    first = next_nonblank(lines, start)
    name = field_name(lines[first]) if first is not None else ""
    if first is None or not name:
        return False
    second = next_nonblank(lines, first + 1)
    return second is not None and field_name(lines[second]) not in ("", name)


def _only_a_footer_after(lines: list[str], start: int) -> bool:
    """Whether at most a few lines follow (a mailing list's footer, a signature's contact lines)
    and none of them may be a command (a player who underlines a heading: "My moves" /
    "----------" / "place Hangzhou")."""
    rest: list[str] = []
    for j in range(start, len(lines)):
        if lines[j].strip():
            rest.append(lines[j])
            if len(rest) > _FOOTER_LINES:
                return False
    return not any(mailwords.may_be_command_word(line) for line in rest)


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
    # its signature rule cuts at any line that starts "Thanks," or "Grüße" and takes all below
    # it; a mail is applied whole or not at all, so a cut that would drop a command is not taken
    if any(mailwords.may_be_command_word(line) for line in shown[kept:]):
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


def _without_banner(lines: list[str]) -> list[str]:
    """The lines without a mail server's warning above them ("CAUTION: This email originated
    from outside of the organization…"), which the sender never wrote."""
    for index, line in enumerate(lines[:QUOTE_LOOKAHEAD]):
        if line.strip():
            if _is_banner(line.strip()):
                return lines[index + 1 :]
            return lines
    return lines


def _is_banner(stripped: str) -> bool:
    low = stripped[:HEADER_MAX].lower()
    return len(stripped) <= HEADER_MAX * 2 and bool(replywords.BANNER.match(low))


def _without_closing(stretch: list[str]) -> list[str]:
    """The stretch without its closing: a line that is only a closing phrase ("Mvh", "Med venlig
    hilsen", "Pozdrawiam,", "С уважением,") with at most a few short lines after it (a name, a
    phone number) none of which may be a command, or a last "-Name" / "/Name" line after a
    blank one.

    A closing with a command after it ("Thanks!" then "bid red 3") is kept whole: a mail is
    applied whole or not at all, so a line that may be a command is never dropped as a
    signature; the trailing-prose rule (``prose``) deals with a sign-off after the commands."""
    nonblank = [index for index, line in enumerate(stretch) if line.strip()]
    # the last closing wins: "Thank you." then "Best regards" keeps the thanks as text
    for position in range(len(nonblank) - 1, max(-1, len(nonblank) - _CLOSING_TAIL - 2), -1):
        index, after = nonblank[position], nonblank[position + 1 :]
        if mailwords.may_be_command_word(stretch[index]):
            break  # nothing above a command is cut ("Danke" then "setze Hangzhou")
        if _is_closing(stretch[index]) and all(len(stretch[j].strip()) <= _CLOSING_TAIL_CHARS for j in after):
            return stretch[:index]
    if len(nonblank) >= 2 and _NAME_SIGNATURE.fullmatch(stretch[nonblank[-1]].strip()):
        last = nonblank[-1]
        if not stretch[last - 1].strip():
            return stretch[:last]
    return stretch


def _is_closing(line: str) -> bool:
    text = line.strip()
    return len(text) <= 40 and text.rstrip(",.!;: ").lower() in replywords.CLOSINGS


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
