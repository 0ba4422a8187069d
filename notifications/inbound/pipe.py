"""The MTA pipe's entry point: ``python -m notifications.inbound.pipe --sender S --recipient R...``
(``manage.py receive_email`` comes here too, see ``manage.py``).

An MTA reads a pipe's exit status by sysexits(3): 75 defers the mail and tries again later,
anything else unexpected bounces it to the player, with whatever the command wrote on stderr.
So every failure before the mail is stored (a settings error, a missing package, a database
that does not answer, arguments it cannot read) must end here as 75 with one generic line on
stderr (the error's type, no traceback, no text: Postfix keeps it as the deferral reason and
puts it in the bounce the player finally gets), the details going to the mail log (syslog);
the Django import included: this module imports nothing but the standard library (and the
stdlib-only ``notifications.services.redact``) until it is inside the ``try``.
"""

from __future__ import annotations

import argparse
import os
import sys
from typing import Any, BinaryIO, Protocol

from notifications.services.redact import one_line  # the standard library only, as this module

EX_TEMPFAIL = 75


class Writer(Protocol):  # a text stream, or a management command's OutputWrapper
    def write(self, text: str, /) -> Any: ...


def add_pipe_arguments(parser: argparse.ArgumentParser) -> None:
    """The pipe's arguments, shared with ``manage.py receive_email``."""
    parser.add_argument("--sender", default=None, help="the envelope sender ('' or <> for the null sender)")
    parser.add_argument(
        "--recipient",
        action="extend",
        nargs="+",
        default=[],
        help="envelope recipients: several after one --recipient, or repeated (--recipient=R, as "
        "Postfix's --recipient=${recipient} expands: the '=' form takes an R beginning with '-')",
    )


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # type: ignore[override]
        raise ValueError(f"bad arguments: {message}")


def temporary_failure(error: BaseException, stderr: Writer | None = None) -> int:
    """Exit 75 for ``error``: its details to the operator's log, and on stderr, which the MTA
    keeps as the deferral reason and finally sends to the player in its bounce, one generic
    line naming only the error's type (its text can name database hosts, users, paths)."""
    to_the_log(f"receive_email: temporary failure, the mail stays queued: {one_line(error)}")
    (stderr or sys.stderr).write(
        f"receive_email: temporary failure ({type(error).__name__}); the mail stays queued\n"
    )
    return EX_TEMPFAIL


def to_the_log(line: str) -> None:
    """The mail system's log (syslog, facility mail, beside Postfix's own lines): not Django's
    logging, whose console handler writes to stderr, which is the sender's."""
    try:
        import syslog  # here: a Unix module, absent elsewhere (the except below)

        syslog.openlog("whitelotus", syslog.LOG_PID, syslog.LOG_MAIL)
        syslog.syslog(syslog.LOG_ERR, line)
    except Exception:  # no syslog here (not Unix): nothing better that is not the sender's
        pass


def deliver(
    stdin: BinaryIO,
    sender: str | None,
    recipients: list[str],
    verbosity: int = 1,
    *,
    stdout: Writer | None = None,
    stderr: Writer | None = None,
) -> int:
    """Store the mail on ``stdin`` (Django set up); the exit status for the MTA.  The one code
    path of ``python -m notifications.inbound.pipe``, ``manage.py receive_email`` and its ``Command``."""
    try:
        # here, not at the top: this module runs before Django is set up (``main``), and the
        # store needs the models; an import error becomes a 75 for the MTA, not a traceback
        from notifications.inbound.routing import receive

        status, line = receive(stdin, sender, recipients)
    except BaseException as error:  # SystemExit and KeyboardInterrupt too: the MTA must retry
        return temporary_failure(error, stderr)
    if status != 0 or verbosity > 1:
        ((stderr or sys.stderr) if status else (stdout or sys.stdout)).write(line + "\n")
    return status


def main(argv: list[str] | None = None) -> int:
    try:
        parser = _Parser(prog="receive_email", add_help=False, description=__doc__)
        add_pipe_arguments(parser)
        parser.add_argument("-v", "--verbosity", type=int, default=1)
        argv = sys.argv[1:] if argv is None else argv
        if {"-h", "--help"} & set(argv):
            parser.print_help()
            return 0
        args = parser.parse_args(argv)
        os.environ.setdefault("DJANGO_SETTINGS_MODULE", "whitelotus.settings")
        import django  # here: inside the try, so a broken install is a 75 for the MTA too

        django.setup()
    except BaseException as error:  # SystemExit and KeyboardInterrupt too: the MTA must retry
        return temporary_failure(error)
    return deliver(sys.stdin.buffer, args.sender, args.recipient, args.verbosity)


if __name__ == "__main__":
    sys.exit(main())
