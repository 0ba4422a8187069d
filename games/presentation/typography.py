"""French typography for everything the service writes in French, in one place.

French sets a no-break space before the high punctuation ``: ; ! ?`` and inside the
guillemets « … ».  The catalogue's strings are written with ordinary spaces (or none, as
translators and the English originals leave them); :func:`french_typography` puts the right
space in at render time, so no string has to carry it and none can forget it.

An apostrophe between two letters is French's own (``l’ouest``, ``d’une``), whichever the
catalogue's string was written with.

What it leaves alone: what a player types, copies or wrote (a line quoted from their mail,
``> …``, or relayed table talk, ``| …``; an HTML ``<pre>``/``<code>``/``<blockquote>``), the
text board of a text part (its lines in columns, marked by :func:`verbatim`: a ``:`` there
is a square, and every space keeps a column), a URL, a time or a ratio (``12:30``, ``2:1``), an e-mail
address, and punctuation with no word before it (``:)``, a line that starts with ``?``).
"""

from __future__ import annotations

import re

from django.utils.translation import get_language

NBSP = "\u00a0"  # before a colon, and inside « »
NNBSP = "\u202f"  # narrow, before ; ! ?

# something printed (not an opening bracket) then optional plain spaces then the mark,
# followed by the end of the text, a space or a closing bracket: "12:30", "https://",
# "?token=" and "a:b" stay as they are
_HIGH = re.compile(r"(?<=[^\s(\[{«:;!?])[ \u00a0\u202f]*([:;!?]+)(?=$|[\s)\]])")
_OPEN = re.compile(r"«[ \u00a0\u202f]*")
_CLOSE = re.compile(r"[ \u00a0\u202f]*»")
_CURLY = re.compile(r"“\s*([^“”\n]+?)\s*”")
_STRAIGHT = re.compile(r'(?<![\w=])"([^"\n<>=]+?)"(?![\w=])')
# kept whole: a URL, an e-mail address, an HTML entity (the ";" of "&gt;" is no semicolon)
_KEPT = re.compile(r"\b(?:https?://|mailto:)\S+|\S+@\S+\.\w+|&(?:#x?[0-9a-fA-F]+|\w+);")
_QUOTED_LINE = re.compile(r"^\s*[>|]")  # a line quoted from a mail, or table talk relayed
# an apostrophe between two letters, as typed or as HTML escapes it
_APOSTROPHE = re.compile(r"(?<=[^\W\d_])(?:'|&#x27;|&#39;)(?=[^\W\d_])")
# the mark of a line left as it is (Shift Out: no text has it); :func:`unmarked` takes it away
VERBATIM = "\x0e"
_COLUMNS = re.compile(r"\S {2,}\S")
_TAG = re.compile(r"(<[^>]*>)")
_VERBATIM = ("pre", "code", "kbd", "samp", "tt", "style", "script", "textarea", "blockquote")


def is_french(language: str | None = None) -> bool:
    return (language or get_language() or "").lower().startswith("fr")


def verbatim(text: str) -> str:
    """``text`` (a text board) with each of its lines laid out in columns (two spaces or more
    between two things) marked to be left as it is by :func:`french_typography`; its prose
    (a legend, the players' lines) is set as any other.  Every mail goes through
    :func:`unmarked` before it is sent."""
    return "\n".join(VERBATIM + line if _COLUMNS.search(line) else line for line in text.split("\n"))


def unmarked(text: str) -> str:
    """``text`` without the marks of :func:`verbatim`."""
    return text.replace(VERBATIM, "")


def french_typography(text: str) -> str:
    """``text`` with French spacing before ``: ; ! ?`` and inside « », curly or straight
    double quotes around prose made guillemets, French apostrophes; quoted lines (``> …``),
    lines marked :func:`verbatim` and URLs untouched."""
    return "\n".join(
        line if _QUOTED_LINE.match(line) or line.startswith(VERBATIM) else _line(line)
        for line in text.split("\n")
    )


def french_typography_html(html: str) -> str:
    """:func:`french_typography` for an HTML document: only its text between tags, and not
    inside ``<pre>``, ``<code>``, ``<blockquote>`` and the like or an element of class ``said``
    (what a player copies or wrote must stay as it is)."""
    out: list[str] = []
    verbatim: list[str] = []  # the open elements whose text is left alone, innermost last
    for part in _TAG.split(html):
        if part.startswith("<") and part.endswith(">"):
            name = re.match(r"</?\s*([a-zA-Z0-9]+)", part)
            tag = name.group(1).lower() if name else ""
            if part.startswith("</"):
                if verbatim and verbatim[-1] == tag:
                    verbatim.pop()
            elif (
                tag
                and not part.endswith("/>")
                and (tag in _VERBATIM or re.search(r"""class=["'][^"']*\bsaid\b""", part))
            ):
                verbatim.append(tag)
            out.append(part)
        elif verbatim or not part.strip():
            out.append(part)
        else:
            out.append(_html_text(part))
    return "".join(out)


def _html_text(text: str) -> str:
    # entities such as &quot; and &#x27; are the escaped form of quotes; &gt; is a quoted line's
    # mark: leave such a text run's lines alone as in plain text
    return "\n".join(
        line if line.lstrip().startswith(("&gt;", ">")) else _line(line) for line in text.split("\n")
    )


def _line(line: str) -> str:
    kept: list[str] = []

    def keep(match: re.Match[str]) -> str:
        kept.append(match.group(0))
        return f"\x00{len(kept) - 1}\x00"

    line = _KEPT.sub(keep, _APOSTROPHE.sub("’", line))
    line = _CURLY.sub(lambda m: f"«{NBSP}{m.group(1)}{NBSP}»", line)
    line = _STRAIGHT.sub(lambda m: f"«{NBSP}{m.group(1).strip()}{NBSP}»", line)
    line = _OPEN.sub(f"«{NBSP}", line)
    line = _CLOSE.sub(f"{NBSP}»", line)
    line = _HIGH.sub(_space_before, line)
    return re.sub("\x00(\\d+)\x00", lambda m: kept[int(m.group(1))], line)


def _space_before(match: re.Match[str]) -> str:
    marks = match.group(1)
    return (NBSP if marks[0] == ":" else NNBSP) + marks
