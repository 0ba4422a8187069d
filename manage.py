#!/usr/bin/env python
"""Django's command-line utility for administrative tasks."""

from __future__ import annotations

import os
import sys


def main() -> None:
    if sys.argv[1:2] == ["receive_email"]:
        # the MTA pipe: every failure before the mail is stored, Django's own setup included,
        # must be exit 75 with one line on stderr (notifications/inbound/pipe.py)
        try:
            from notifications.inbound.pipe import main as pipe
        except BaseException as error:
            sys.stderr.write(
                f"receive_email: temporary failure ({type(error).__name__}); the mail stays queued\n"
            )
            sys.exit(75)
        sys.exit(pipe(sys.argv[2:]))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "whitelotus.settings")
    from django.core.management import execute_from_command_line

    execute_from_command_line(sys.argv)


if __name__ == "__main__":
    main()
