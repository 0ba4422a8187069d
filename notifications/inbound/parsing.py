"""Reading players' reply mails: who sent them, to which game address, and the command lines in them.

Pure standard library plus mail-parser-reply, so it can be tested and fuzzed without Django.
Every input either gives a :class:`ParsedMail` or raises :class:`MailParseError`; hostile or
broken mails must not take the mail receiver down.
"""

from __future__ import annotations

import email
import email.header
import email.policy
import email.utils
import logging
import re
from collections.abc import Iterator
from dataclasses import dataclass
from email.message import Message
from html import unescape
from html.parser import HTMLParser

from notifications.inbound.quotes import strip_reply, unflow

__all__ = ["MailParseError", "ParsedMail", "html_to_text", "parse_message", "strip_reply"]

logger = logging.getLogger(__name__)

# Header fields that may name the game address the mail was delivered to.
_RECIPIENT_FIELDS = ("to", "cc", "delivered-to", "x-original-to", "envelope-to")
_BULK_PRECEDENCE = frozenset({"bulk", "junk", "list", "auto_reply"})
_DAEMONS = frozenset({"mailer-daemon", "postmaster"})
_REPORT_TYPES = frozenset(
    {"message/delivery-status", "message/global-delivery-status", "message/disposition-notification"}
)
# Codecs Python accepts as charset names that are not charsets, and punycode is quadratic.
_NOT_CHARSETS = frozenset({"idna", "punycode", "raw-unicode-escape", "unicode-escape", "undefined"})
# html.parser is slow on hostile markup; past this size an HTML part is only old quotes anyway.
_HTML_MAX_CHARS = 1_000_000
_MAX_PARTS = 500
# Lines starting "--" are a cheap upper bound on the number of MIME parts, counted before parsing.
_MAX_BOUNDARY_LINES = 2_000
_MSGID = re.compile(r"<([^<>\s]+)>")
_FOLD = re.compile(r"\r?\n(?=[ \t])")
# every way a text may break a line: CRLF, a lone CR (old Mac clients), and the Unicode line
# and paragraph separators and NEL, which some clients show as breaks and others do not: all
# one "\n", so that a line of talk or a ready text is the line the sender saw
_LINE_BREAKS = re.compile("\r\n|[\r\u2028\u2029\x85]")


class MailParseError(ValueError):
    """The bytes are not a mail; the message says why in words for a person."""


@dataclass(frozen=True)
class ParsedMail:
    """One mail as the game service needs it.

    Addresses are lower-cased addr-specs; ids have no angle brackets. ``auto_submitted`` marks
    auto-replies, bulk mail and delivery reports, which must never be answered (mail loops).
    ``reply`` is ``body`` without quotes and signatures; ``lines`` its non-blank, non-``#``
    lines, stripped and complete however many there are.
    """

    message_id: str
    from_address: str
    from_name: str
    recipients: tuple[str, ...]
    subject: str
    in_reply_to: str
    references: tuple[str, ...]
    auto_submitted: bool
    body: str
    reply: str
    lines: tuple[str, ...]


def parse_message(raw: bytes, *, max_lines: int = 50) -> ParsedMail:
    """Parse one raw RFC 5322 message.

    ``lines`` is never truncated: a reply with more than ``max_lines`` command lines is logged,
    and the caller compares ``len(parsed.lines)`` with its limit and answers as it sees fit.
    """
    try:
        parsed = _parse(bytes(raw))
    except MailParseError:
        raise
    except Exception as exc:  # the email package has crashed on hostile input before (bpo/gh issues)
        raise MailParseError("This could not be read as an email.") from exc
    if len(parsed.lines) > max_lines:
        logger.info(
            "mail %s: %d command lines, over the limit of %d", parsed.message_id, len(parsed.lines), max_lines
        )
    return parsed


def _parse(raw: bytes) -> ParsedMail:
    if not raw.strip():
        raise MailParseError("The message is empty.")
    # policy.default parses each part's Content-Type through a freshly built header class (about
    # 0.2 ms a part), so a mail of 100,000 tiny parts would block the receiver for half a minute.
    if raw.count(b"\n--") > _MAX_BOUNDARY_LINES:
        raise MailParseError("This mail has thousands of parts; it is not a reply to a game.")
    msg = email.message_from_bytes(raw, policy=email.policy.default)
    headers = _headers(msg)
    if not headers:
        raise MailParseError("This is not an email: it has no header lines.")
    if "from" not in headers:
        raise MailParseError("This email has no From line, so there is no one to answer.")
    from_name, from_address = _first_address(headers["from"])
    body, is_report = _body(msg)
    reply = strip_reply(body)
    lines = tuple(s for line in reply.split("\n") if (s := line.strip()) and not s.startswith("#"))
    return ParsedMail(
        message_id=_first_id(headers.get("message-id", [])),
        from_address=from_address,
        from_name=from_name,
        recipients=_recipients(headers),
        subject=_decode_words(headers["subject"][0]).strip() if "subject" in headers else "",
        in_reply_to=_first_id(headers.get("in-reply-to", [])),
        references=_ids(headers.get("references", [])),
        auto_submitted=is_report or _is_automatic(headers, from_address),
        body=body,
        reply=reply,
        lines=lines,
    )


# --- headers -------------------------------------------------------------------------------------


def _headers(msg: Message) -> dict[str, list[str]]:
    """Raw header values by lower-case name, unfolded, 8-bit bytes read as UTF-8.

    The raw values are used rather than policy.default's parsed header objects because those
    parse lazily and have raised on malformed addresses and Message-IDs.
    """
    found: dict[str, list[str]] = {}
    for name, value in msg.raw_items():
        text = _FOLD.sub("", str(value))
        text = text.encode("utf-8", "surrogateescape").decode("utf-8", "replace")
        found.setdefault(str(name).strip().lower(), []).append(text.strip())
    return found


def _decode_words(value: str) -> str:
    """RFC 2047 encoded words decoded; an unknown charset or broken base64 must not lose the rest."""
    try:
        chunks = email.header.decode_header(value)
    except Exception:  # HeaderParseError on bad base64, and worse on hostile input
        return value
    return "".join(
        chunk if isinstance(chunk, str) else _decode_bytes(chunk, charset) for chunk, charset in chunks
    )


def _first_address(values: list[str]) -> tuple[str, str]:
    name, address = email.utils.parseaddr(values[0])
    return _decode_words(name).strip(), address.strip().lower()


def _recipients(headers: dict[str, list[str]]) -> tuple[str, ...]:
    found: dict[str, None] = {}
    for field in _RECIPIENT_FIELDS:
        for _, address in email.utils.getaddresses(headers.get(field, [])):
            address = address.strip().lower()
            if "@" in address:
                found.setdefault(address)
    return tuple(found)


def _ids(values: list[str]) -> tuple[str, ...]:
    joined = " ".join(values)
    found = _MSGID.findall(joined)
    return tuple(found) if found else tuple(joined.replace("<", " ").replace(">", " ").split())


def _first_id(values: list[str]) -> str:
    found = _ids(values[:1])
    return found[0] if found else ""


def _is_automatic(headers: dict[str, list[str]], from_address: str) -> bool:
    """Whether answering could start a mail loop (RFC 3834, and what servers do in practice)."""

    def token(value: str) -> str:
        return value.split(";", 1)[0].strip().lower()

    if any(token(v) not in ("", "no") for v in headers.get("auto-submitted", [])):
        return True
    if any(token(v) in _BULK_PRECEDENCE for v in headers.get("precedence", [])):
        return True
    if any(token(v) not in ("", "no") for f in ("x-autoreply", "x-autorespond") for v in headers.get(f, [])):
        return True
    # Delivery status notifications are sent with an empty envelope sender.
    if any(v.replace(" ", "") == "<>" for v in headers.get("return-path", [])):
        return True
    return from_address.partition("@")[0] in _DAEMONS


# --- body ----------------------------------------------------------------------------------------


def _body(msg: Message) -> tuple[str, bool]:
    """The text to look for commands in, and whether the mail is a delivery or read report."""
    is_report = msg.get_content_type() == "multipart/report"
    plain: Message | None = None
    html: Message | None = None
    for part in _leaf_parts(msg):
        try:
            content_type = part.get_content_type()
            if content_type in _REPORT_TYPES:
                is_report = True
            elif _is_attachment(part):
                continue
            elif content_type == "text/plain" and plain is None:
                plain = part
            elif content_type == "text/html" and html is None:
                html = part
        except Exception:  # one unreadable part (bad parameters) must not cost the others
            continue
    text = _part_text(plain) if plain is not None else ""
    if not text.strip() and html is not None:
        text = html_to_text(_part_text(html)[:_HTML_MAX_CHARS])
    return text, is_report


def _leaf_parts(msg: Message) -> Iterator[Message]:
    """Non-multipart parts in reading order, without descending into attached messages.

    An attached message (a forward as attachment, the returned mail in a bounce) is someone
    else's text, never the sender's commands. Iterative, so deep nesting cannot recurse.
    """
    stack: list[Message] = [msg]
    seen = 0
    while stack and seen < _MAX_PARTS:
        part = stack.pop()
        seen += 1
        if part.get_content_maintype() == "message":
            yield part
        elif part.is_multipart():
            children = part.get_payload()
            if isinstance(children, list):
                stack.extend(reversed([c for c in children if isinstance(c, Message)]))
        else:
            yield part


def _is_attachment(part: Message) -> bool:
    # A body part carries no file name; clients that attach text files inline still name them.
    return part.get_content_disposition() == "attachment" or part.get_filename() is not None


def _part_text(part: Message) -> str:
    try:
        payload = part.get_payload(decode=True)
    except Exception:  # broken transfer encoding: the part is unreadable, not the mail
        return ""
    if not isinstance(payload, bytes):
        return ""
    text = _LINE_BREAKS.sub("\n", _decode_bytes(payload, part.get_content_charset()))
    if part.get_content_type() == "text/plain" and _param(part, "format") == "flowed":
        text = unflow(text, delsp=_param(part, "delsp") == "yes")
    return text


def _param(part: Message, name: str) -> str:
    value = part.get_param(name, "")
    return value.strip().lower() if isinstance(value, str) else ""


def _decode_bytes(data: bytes, charset: str | None) -> str:
    """Declared charset first, then UTF-8, Windows-1252 and finally Latin-1, which cannot fail.

    Like browsers, ISO-8859-1 and US-ASCII labels are read as Windows-1252: Outlook writes
    curly quotes and the euro sign under those labels.
    """
    label = (charset or "").strip().strip('"').lower()
    if label in ("iso-8859-1", "iso8859-1", "latin-1", "latin1", "us-ascii", "ascii"):
        label = "windows-1252"
    for candidate in (label, "utf-8", "windows-1252"):
        if not candidate or candidate.replace("_", "-") in _NOT_CHARSETS:
            continue
        try:
            return data.decode(candidate)
        except (LookupError, UnicodeError, ValueError, TypeError):
            continue
    return data.decode("latin-1")


# --- HTML ----------------------------------------------------------------------------------------


def html_to_text(html: str) -> str:
    """Plain text of an HTML mail part; blockquotes come out as ``> `` lines like a text quote."""
    # html.parser in Python 3.11 searches the rest of the text for a ">" at each "<" that lacks
    # one, which is quadratic ("</" repeated takes minutes); a "<" with no ">" after it is text.
    last = html.rfind(">")
    html = html[: last + 1] + html[last + 1 :].replace("<", "&lt;")
    extractor = _TextExtractor()
    try:
        extractor.feed(html)
        extractor.close()
    except Exception:  # malformed markup: keep what was read, strip tags crudely from the rest
        return extractor.text() + "\n" + unescape(re.sub(r"<[^<>]*>", " ", html)).replace("\xa0", " ")
    return extractor.text()


class _TextExtractor(HTMLParser):
    _BLOCKS = frozenset(
        {"p", "div", "li", "ul", "ol", "tr", "table", "pre", "dt", "dd", "h1", "h2", "h3", "h4", "h5"}
        | {"h6", "section", "article", "header", "footer", "address", "center", "hr"}
    )
    _HIDDEN = frozenset({"style", "script", "head", "title", "template"})
    _HEAD = frozenset({"meta", "link", "title", "style", "script", "base", "noscript", "template", "xml"})

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self._lines: list[str] = []
        self._current: list[str] = []
        self._current_has_text = False
        self._line_depth = 0
        self._depth = 0
        self._hidden: str | None = None
        self._pre = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if self._hidden == "head" and tag not in self._HEAD:
            self._hidden = None  # mails often leave <head> open; the first body tag ends it
        if self._hidden is not None:
            return
        if tag in self._HIDDEN:
            self._hidden = tag
        elif tag == "br":
            self._break(hard=True)
        elif tag == "blockquote":
            self._break()
            self._depth += 1
        elif tag in self._BLOCKS:
            self._break()
            self._pre += tag == "pre"

    def handle_endtag(self, tag: str) -> None:
        if self._hidden is not None:
            if tag == self._hidden:
                self._hidden = None
            return
        if tag == "blockquote":
            self._break()
            self._depth = max(0, self._depth - 1)
        elif tag in self._BLOCKS:
            self._break()
            self._pre = max(0, self._pre - (tag == "pre"))

    def handle_data(self, data: str) -> None:
        if self._hidden is not None:
            return
        if self._pre:
            first, *rest = data.split("\n")
            self._add(first)
            for piece in rest:
                self._break(hard=True)
                self._add(piece)
        else:
            self._add(re.sub(r"[ \t\n\r\f\v]+", " ", data))

    def _add(self, text: str) -> None:
        if not text:
            return
        if not self._current_has_text and text.strip():
            self._current_has_text = True
            self._line_depth = self._depth
        self._current.append(text)

    def _break(self, *, hard: bool = False) -> None:
        text = "".join(self._current).replace("\xa0", " ").strip()
        self._current = []
        self._current_has_text = False
        if text:
            self._lines.append(f"{'> ' * self._line_depth}{text}")
        elif hard:
            self._lines.append("")

    def text(self) -> str:
        self._break()
        out: list[str] = []
        for line in self._lines:
            if line or (out and out[-1]):
                out.append(line)
        return "\n".join(out).strip("\n")
