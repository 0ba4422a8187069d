"""Attribution lines in a reply ("On … wrote:", "Am … schrieb …:", "2022年1月1日 … <…>:",
"2013/7/20 Ada <ada@…>"), one line or wrapped over up to four, in the languages of
:mod:`.replywords`. Read by :mod:`.quotes`.
"""

from __future__ import annotations

import re

from notifications.inbound import replywords
from notifications.inbound.replyheaders import HEADER_MAX
from notifications.services import mailwords

__all__ = ["WEEKDAY_START", "attribution_at", "first_word"]

# How many lines an attribution may be wrapped over.
_ATTRIBUTION_LINES = 4
# "<addr>:" closing a line that carries a time: Gmail's attribution without a verb (ja, ru).
_ADDRESS_END = re.compile(r"<[^<>\s]+@[^<>\s]+>\s*[:：]$|&gt;\s*[:：]$")
_TIME = re.compile(r"\d{1,2}[:.]\d{2}")
# "2013/7/20 Ada via Lotus Games <play@…>": Gmail's old attribution (a numeric date, the sender,
# nothing after the address but perhaps a colon)
_DATED_ADDRESS = re.compile(r"\d{1,4}[/.-]\d{1,2}[/.-]\d{1,4},? [^<>]{1,100}<[^<>\s]+@[^<>\s]+>\s*[:：]?")
# "<name> via <service>": how Google Groups and mailing lists name the sender they relay
_VIA = re.compile(r"^['\"]?[^\W\d][^<>]{0,60} via \S")
# "ons 4 dec.", "lør. 21. nov.", "Fr., 28. Okt.", "пн, 2 апр.": a weekday, a day and a month.
WEEKDAY_START = re.compile(r"^[^\W\d_]{2,4}\.?,? \d{1,2}\.?,? (?:[^\W\d_]{3}|\d{1,2}\.)")
# The first line of a wrapped attribution is long; a command ("army 3") never is this long
# and also starts like none of them, but the two rules together keep commands safe.
_WRAPPED_FIRST_MIN = 20
# ... but one that starts with an attribution's first word ("On Sat, Nov 28,") may be short:
# no command starts with "On", "Am", "Le"…
_WRAPPED_INTRO_MIN = 8


def attribution_at(lines: list[str], i: int) -> tuple[int, bool]:
    """(lines the attribution spans, whether it is anchored) or (0, False).

    Clients wrap long attributions ("… White Lotus <" / "game@… > wrote:"; "Max Mustermann <…>
    schrieb am Fr., 28." / "Okt. 2016 um …:"), so one may run over up to four lines, but only
    from a first line that can begin one. Anchored means it names a date or an address, so it
    is surely a client's line: followed by unmarked text it ends the reply. A bare "Ada wrote:"
    counts only right before a quote.
    """
    first = lines[i].strip()
    if not first or len(first) > HEADER_MAX:
        return 0, False
    kind = _attribution_kind(first)
    if kind:
        return 1, kind == 2
    short = first_word(first) in replywords.INTRO_WORDS and len(first) >= _WRAPPED_INTRO_MIN
    if (len(first) < _WRAPPED_FIRST_MIN and not short) or not _may_begin_attribution(first):
        return 0, False
    joined = first
    # a date and an address with no verb is an attribution wrapped only inside its address:
    # "2013/7/20 Ada via Lotus Games <" / "play@…>" (never "2026/11/28 is the date" / "Da: …")
    dated = True
    for span in range(2, _ATTRIBUTION_LINES + 1):
        if i + span - 1 >= len(lines):
            break
        more = lines[i + span - 1].strip()
        # a line that starts an attribution of its own is not this one's continuation, nor is
        # a line that may be a command
        if not more or more.startswith(">") or first_word(more) in replywords.INTRO_WORDS:
            break
        if mailwords.may_be_command_word(more):
            break
        # "White Lotus <" / "play@…>:": an address broken after its bracket is one word
        dated = dated and joined.endswith("<")
        joined = f"{joined}{more}" if joined.endswith("<") else f"{joined} {more}"
        if len(joined) > HEADER_MAX:
            break
        if _attribution_kind(joined, dated=dated) == 2:
            return span, True
    return 0, False


def _may_begin_attribution(first: str) -> bool:
    low = first.lower()
    return (
        first_word(first) in replywords.INTRO_WORDS
        or first[0].isdigit()
        or "@" in first
        or "<" in first
        or bool(WEEKDAY_START.match(low))
        or bool(replywords.WROTE.search(low))
    )


def _attribution_kind(line: str, *, dated: bool = True) -> int:
    """0: not an attribution; 1: "<name> wrote:"; 2: one with a date or address ("On <date>,
    <name> wrote:", "<date> <name> <addr>:", "2013/7/20 <name> <addr>" and the like); the last
    only when ``dated`` (a wrapped line joined nowhere but inside its address)."""
    if dated and _DATED_ADDRESS.fullmatch(line):
        return 2
    if not line.endswith((":", "：")):
        return 0
    low = line[:-1].rstrip().lower()
    if replywords.WROTE.search(low):
        anchored = (
            first_word(low) in replywords.INTRO_WORDS
            or low[:1].isdigit()
            or "@" in low
            or bool(WEEKDAY_START.match(low))
            or bool(_VIA.search(low))  # "Ada via Lotus Games wrote:": a list's relay
        )
        return 2 if anchored else 1
    if _ADDRESS_END.search(line) and _TIME.search(low):
        return 2  # Gmail in Japanese or Russian: "2022年1月1日(金) 9:00 田中太郎 <taro@…>:"
    return 0


def first_word(stripped: str) -> str:
    return stripped[:24].split(" ", 1)[0].rstrip(",").lower()
