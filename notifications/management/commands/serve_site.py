"""``manage.py serve_site``: Django's development server for ``scripts/serve``, without its
banner.  ``scripts/serve`` prints the links a person needs in one short block; the server's
date, version, "Starting development server" and production warning only pushed them off the
screen.  The system checks ran with ``migrate`` just before; a failing request is still logged
(Django's own loggers, at ``LOG_LEVEL``).  Django's core ``runserver`` is enough: /static/
is served by WhiteNoise's middleware (settings.MIDDLEWARE), from the apps' folders while DEBUG
is on, as by gunicorn in production."""

from __future__ import annotations

from typing import Any

from django.core.management.commands.runserver import Command as RunServer


class Command(RunServer):
    help = "Django's development server without its start-up banner (scripts/serve prints the links)."

    def inner_run(self, *args: Any, **options: Any) -> None:
        options["skip_checks"] = True  # checked by migrate a moment before
        super().inner_run(*args, **options)

    def on_bind(self, server_port: int) -> None:
        """Say nothing: scripts/serve has said where the site is."""
