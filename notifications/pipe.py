"""The MTA pipe's entry point: ``python -m notifications.pipe --sender S --recipient R...``
(``manage.py receive_email`` comes here too, see ``manage.py``).

An MTA reads a pipe's exit status by sysexits(3): 75 defers the mail and tries again later,
anything else unexpected bounces it to the player, with whatever the command wrote on stderr.
So every failure before the mail is stored (a settings error, a missing package, a database
that does not answer, arguments it cannot read) must end here as 75 with one line on stderr
and no traceback, the Django import included: this module imports nothing but the standard
library until it is inside the ``try``.
"""

from __future__ import annotations

import argparse
import os
import re
import sys

EX_TEMPFAIL = 75
_TOKEN = re.compile(r"\+[^@\s]+@")  # reply tokens are credentials: never in a bounce or a log


def add_pipe_arguments(parser: argparse.ArgumentParser) -> None:
    """The pipe's arguments, shared with ``manage.py receive_email``."""
    parser.add_argument("--sender", default=None, help="the envelope sender ('' or <> for the null sender)")
    parser.add_argument(
        "--recipient",
        action="extend",
        nargs="+",
        default=[],
        help="envelope recipients: several after one --recipient (Postfix's ${recipient}), or repeated",
    )


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # type: ignore[override]
        raise ValueError(f"bad arguments: {message}")


def one_line(error: BaseException) -> str:
    """``receive_email: <what>; try again later`` with no path, no token, no newline."""
    text = " ".join(str(error).split())[:200]
    text = _TOKEN.sub("+…@", text)
    what = f"{type(error).__name__}: {text}" if text else type(error).__name__
    return f"receive_email: temporary failure ({what}); try again later"


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
        import django

        django.setup()
        from notifications.management.commands.receive_email import receive

        status, line = receive(sys.stdin.buffer, args.sender, args.recipient)
    except BaseException as error:  # SystemExit and KeyboardInterrupt too: the MTA must retry
        sys.stderr.write(one_line(error) + "\n")
        return EX_TEMPFAIL
    if status != 0 or args.verbosity > 1:
        (sys.stderr if status else sys.stdout).write(line + "\n")
    return status


if __name__ == "__main__":
    sys.exit(main())
