"""Public corpora of real replies through the reply stripper: every fixture of
github/email_reply_parser, alfonsrv/mail-parser-reply and mailgun/talon, and short excerpts of
crisp-oss/email-reply-parser's (copied with their
licences into tests/notifications/corpus/<source>/, see each README) gives the reply its
sender wrote, as read by hand into ``expected/``.

The fixtures the stripper does not yet get exactly right are listed in ``MISSES`` and run as
strict expected failures, so fixing one (or breaking another) shows. The figures per corpus are
in tests/notifications/corpus/README.md.
"""

from __future__ import annotations

import quopri
from pathlib import Path

import pytest

from notifications.inbound.parsing import html_to_text, parse_message, strip_reply

CORPUS = Path(__file__).parent / "corpus"
SOURCES = ("email_reply_parser", "mail_parser_reply", "talon", "crisp")
# Fixtures that are no reply, only run to show they are read without error (see the READMEs).
NOT_REPLIES = {
    "mail_parser_reply": {
        "email_pl_1_1.txt",
        "email_pl_1_2.txt",
        "email_pl_1_3.txt",
        "multiline_on.txt",
        "multiline_on_de.txt",
    },
}
# Stored quoted-printable encoded, as in the message source: decoded as a mail client would.
QUOTED_PRINTABLE = {"begins_with_signature.txt"}
MISSES: dict[str, set[str]] = {
    "email_reply_parser": set(),
    # a signature and disclaimer after a bare name, a ticket system's own header: see the
    # corpus README
    "mail_parser_reply": {"caution2.txt", "email_3_1.txt"},
    "talon": set(),
    "crisp": set(),
}


def fixtures(source: str) -> list[Path]:
    folder = CORPUS / source
    return sorted(
        p
        for p in folder.rglob("*")
        if p.is_file()
        and p.parent.name != "expected"
        and p.name not in ("LICENSE", "README.md")
        and not p.name.endswith("_reply_text")  # talon's own expectations (they keep signatures)
    )


def expected_path(source: str, fixture: Path) -> Path:
    relative = fixture.relative_to(CORPUS / source)
    name = "__".join((*relative.parent.parts, relative.stem))
    return CORPUS / source / "expected" / f"{name}.txt"


def reply_of(fixture: Path) -> str:
    if fixture.suffix == ".eml":
        return parse_message(fixture.read_bytes()).reply
    if fixture.suffix == ".html":
        return strip_reply(html_to_text(fixture.read_text(encoding="utf-8")))
    if fixture.name in QUOTED_PRINTABLE:
        return strip_reply(quopri.decodestring(fixture.read_bytes()).decode("utf-8"))
    return strip_reply(fixture.read_text(encoding="utf-8"))


def normalised(text: str) -> str:
    return "\n".join(line.rstrip() for line in text.strip("\n").split("\n"))


def cases() -> list[object]:
    out: list[object] = []
    for source in SOURCES:
        for fixture in fixtures(source):
            name = str(fixture.relative_to(CORPUS / source))
            if name in NOT_REPLIES.get(source, set()):
                continue
            marks = [pytest.mark.xfail(strict=True, reason="known miss")] if name in MISSES[source] else []
            out.append(pytest.param(source, fixture, id=f"{source}/{name}", marks=marks))
    return out


@pytest.mark.parametrize(("source", "fixture"), cases())
def test_the_reply_of_a_real_mail_is_what_its_sender_wrote(source: str, fixture: Path) -> None:
    assert normalised(reply_of(fixture)) == normalised(expected_path(source, fixture).read_text("utf-8"))


def test_every_fixture_has_an_expectation_or_is_named_not_a_reply() -> None:
    for source in SOURCES:
        for fixture in fixtures(source):
            name = str(fixture.relative_to(CORPUS / source))
            assert (name in NOT_REPLIES.get(source, set())) != expected_path(source, fixture).exists(), name
        assert MISSES[source] <= {str(f.relative_to(CORPUS / source)) for f in fixtures(source)}


@pytest.mark.parametrize(
    "fixture", [CORPUS / source / name for source, names in NOT_REPLIES.items() for name in sorted(names)]
)
def test_a_fixture_that_is_no_reply_is_read_without_error(fixture: Path) -> None:
    assert isinstance(reply_of(fixture), str)
