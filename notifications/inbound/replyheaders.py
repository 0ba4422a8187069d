"""Header blocks and markers above a quoted or forwarded message in a reply: "-----Original
Message-----" and the forward markers, decorated as clients decorate them, and the fields under
them or alone (Outlook's From/Von/Da/De/Van/Od/Fra… block), a field wrapped onto the next line
included. Read by :mod:`.quotes`; the words are in :mod:`.replywords`.
"""

from __future__ import annotations

from notifications.inbound import replywords
from notifications.services import mailwords

__all__ = [
    "DECORATION",
    "HEADER_MAX",
    "QUOTE_LOOKAHEAD",
    "field_name",
    "header_block_end",
    "is_forward",
    "is_marker",
    "next_nonblank",
    "outlook_block_at",
]

# An attribution or header field longer than this is prose, not a header.
HEADER_MAX = 400
# How many blank lines may sit between an attribution and the quote it introduces.
QUOTE_LOOKAHEAD = 4
# Clients wrap plain text at 72 to 78 characters: a line that long with a short one under it.
_WRAP_WIDTH = 70
# No header block is longer (From, Sent, To, Cc, Subject… each wrapped once, blank lines between)
_HEADER_BLOCK_LINES = 40
# ... and the line above a wrapped one is at least this long, the word that went down at most
_WRAPPED_MIN = 50
_WRAPPED_WORD = 30

# what clients put around "Original Message": dashes of every width, underscores, stars,
# equals signs, tildes, brackets ("----- Original Message -----", "*** … ***", "——— … ———",
# "[Original Message]", "<<< … >>>")
DECORATION = "-_=*~#—–‒―·•[]()<>| "


def is_marker(stripped: str) -> bool:
    """ "-----Original Message-----", "-------- Message d'origine --------", "Begin forwarded message:"."""
    if len(stripped) > HEADER_MAX:
        return False
    core = stripped.strip(DECORATION).lower()
    if core in replywords.ORIGINAL_MESSAGE and stripped[0] in DECORATION and stripped[-1] in DECORATION:
        return True
    return core.rstrip(":： ") in replywords.FORWARD_LINES and stripped.rstrip().endswith((":", "："))


def is_forward(stripped: str) -> bool:
    """A forward's marker ("---------- Forwarded message ---------", "Begin forwarded
    message:"), not a reply's ("-----Original Message-----")."""
    core = stripped.strip(DECORATION).rstrip(":： ").lower()
    return core in replywords.FORWARD_MARKERS or core in replywords.FORWARD_LINES


def header_block_end(lines: list[str], i: int, marker: bool) -> int:
    """The index of the first line after the header block at ``i`` (a marker line and the
    fields under it, or the fields alone), blank lines between fields included."""
    j = i + 1 if marker else i
    end = first = j
    while j < len(lines) and j - first < _HEADER_BLOCK_LINES:
        if field_name(lines[j]):
            j += 1
            end = j
        elif not lines[j].strip() and j - end < 2:
            j += 1
        elif j == end > first and _continues_field(lines, j):
            j += 1
            end = j
        else:
            break
    return end


def _continues_field(lines: list[str], j: int) -> bool:
    """Whether line ``j``, right under a header field, is that field wrapped ("Subject: Re: Your
    move: place a control" / "marker"): folded with a space, followed by another field, closing
    an address the line above opened, or the end of a line wrapped at the clients' width that
    is followed by the block's blank line. A line that may be a command is never one."""
    line, above = lines[j], lines[j - 1].rstrip()
    stripped = line.strip()
    if len(stripped) > HEADER_MAX or stripped.startswith(">"):
        return False
    if line[:1] in " \t" or (j + 1 < len(lines) and field_name(lines[j + 1])):
        wraps = True
    elif "<" in above and ">" not in above.rsplit("<", 1)[1]:
        wraps = stripped.endswith((">", ">,", ">;"))
    else:
        wraps = (j + 1 >= len(lines) or not lines[j + 1].strip()) and _wrapped(above, stripped)
    return wraps and not mailwords.may_be_command_word(stripped)


def outlook_block_at(lines: list[str], i: int) -> bool:
    """Outlook quotes without ``>``: a From/Von/Da/Od/От… field followed by another field, the
    first perhaps wrapped onto a second line ("Da: White Lotus <" / "play@…>")."""
    if field_name(lines[i]) not in replywords.FROM_FIELDS:
        return False
    after = next_nonblank(lines, i + 1, lookahead=1)
    if after is not None and not field_name(lines[after]) and after == i + 1:
        after = after + 1 if _wrapped(lines[i], lines[after]) and _continues_field(lines, after) else None
    return after is not None and after < len(lines) and bool(field_name(lines[after]))


def _wrapped(line: str, below: str) -> bool:
    """Whether ``below`` looks like the rest of ``line`` wrapped by a client: folded with a
    space, the rest of an address left open, or a line so long that the next word went down."""
    above, word = line.rstrip(), below.split()[0]
    return (
        below[:1] in " \t"
        or ("<" in above and ">" not in above.rsplit("<", 1)[1])
        or (
            len(above) >= _WRAPPED_MIN
            and len(word) <= _WRAPPED_WORD
            and len(above) + 1 + len(word) > _WRAP_WIDTH
        )
    )


def field_name(line: str) -> str:
    stripped = line.strip()
    if len(stripped) > HEADER_MAX:
        return ""
    found = replywords.FIELD.match(stripped)
    return found[1].lower() if found else ""


def next_nonblank(lines: list[str], start: int, lookahead: int = QUOTE_LOOKAHEAD) -> int | None:
    for j in range(start, min(len(lines), start + lookahead + 1)):
        if lines[j].strip():
            return j
    return None
