"""The path a request takes through the house: the modules of the service a call visits, and how
often it steps back into a module it is still inside (a module on the call stack, called again
from a module it called: the running form of an import that goes back up).

Three figures a path: the modules it visits; the calls that go from one module into another
and how many of them come back to a module the path had left before (in call order, a module's
run of calls folded into one); and the calls into a module still on the stack below the caller.

Two paths: an inbound reply (a stored mail with a move, processed as the worker does, with the
mails it answers with rendered and sent in the same process) and a seat page (a GET of a seat's
private page).  Each is traced once warm (the second time it runs, so imports and caches are
not counted) with ``sys.setprofile``: only calls of Python functions of ``games``,
``notifications``, ``leagues`` and ``whitelotus`` count; Django and the rules packages' own
games (``games.rules.<game>``) are left out, the rules core is in.

    python -m bench.paths             # a SQLite database of its own, removed after

It reaches the service only through names that every layout of the house has had (models,
``services``, the seat page's URL), so the same file measures an older checkout too.
"""

from __future__ import annotations

import os
import sys
import tempfile
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from importlib import import_module
from pathlib import Path
from types import FrameType
from typing import Any

ROOTS = ("games", "notifications", "leagues", "whitelotus")


@dataclass
class Path_:
    """What one traced call visited."""

    visited: list[str] = field(default_factory=list)  # modules, in the order first entered
    calls: int = 0  # calls of the service's functions
    order: list[str] = field(default_factory=list)  # the module of each call, repeats folded
    resolved: int = 0  # a game's rules looked up by its name (``registry.get``)
    back: Counter[tuple[str, str]] = field(default_factory=Counter)  # (from, back into) -> times


def _module(frame: FrameType) -> str | None:
    name = frame.f_globals.get("__name__", "")
    if not name.startswith(ROOTS) or name.startswith(_GAMES):
        return None
    return str(name)


_GAMES: tuple[str, ...] = ()


def trace(run: Callable[[], Any]) -> Path_:
    """Run ``run`` under a profiler that follows the service's modules on the call stack."""
    seen = Path_()
    stack: list[str | None] = []

    def profile(frame: FrameType, event: str, _arg: Any) -> None:
        if event == "call":
            module = _module(frame)
            if module is not None:
                seen.calls += 1
                if module not in seen.visited:
                    seen.visited.append(module)
                if not seen.order or seen.order[-1] != module:
                    seen.order.append(module)
                caller = next((m for m in reversed(stack) if m is not None), None)
                if caller is not None and caller != module and module in stack:
                    seen.back[(caller, module)] += 1
            stack.append(module)
        elif event == "return" and stack:
            stack.pop()

    from games.rules import registry

    lookup = registry.get

    def counted(name: str) -> Any:  # registry.get is a functools.cache: no call the profiler sees
        seen.resolved += 1
        return lookup(name)

    registry.get = counted  # type: ignore[assignment]
    sys.setprofile(profile)
    try:
        run()
    finally:
        sys.setprofile(None)
        registry.get = lookup
    return seen


def _first(*names: str) -> Any:
    """The first of ``module:attribute`` names that imports (the layout of the checkout)."""
    for name in names:
        module, _, attribute = name.partition(":")
        try:
            return getattr(import_module(module), attribute)
        except (ImportError, AttributeError):
            continue
    raise ImportError(f"none of {names}")


def report(title: str, seen: Path_) -> None:
    print(f"{title}: {len(seen.visited)} modules visited, {seen.calls} calls")
    print(f"  a game's rules looked up by name: {seen.resolved} times")
    left = sum(1 for i, module in enumerate(seen.order) if module in seen.order[:i])
    print(
        f"  calls from one module into another: {len(seen.order) - 1}, "
        f"{left} of them back into a module left before"
    )
    print(
        f"  steps back into a module still on the stack: {sum(seen.back.values())} calls "
        f"over {len(seen.back)} pairs"
    )
    for (caller, module), times in seen.back.most_common(12):
        print(f"    {caller} -> {module}  ({times})")
    print("  modules, in the order first entered:")
    for module in seen.visited:
        print(f"    {module}")


def main() -> None:
    folder = Path(tempfile.mkdtemp(prefix="paths-"))
    os.environ["DATABASE_URL"] = f"sqlite:///{folder / 'paths.sqlite3'}"
    os.environ["CELERY_TASK_ALWAYS_EAGER"] = "true"
    os.environ["CELERY_BROKER_URL"] = "memory://"
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "whitelotus.settings")
    import django

    django.setup()
    from django.conf import settings
    from django.core.management import call_command
    from django.test import Client
    from django.test.utils import setup_test_environment

    from games import services
    from games.models import Game, Player, Seat
    from games.rules import registry
    from notifications.models import InboundMail, ReplyToken

    global _GAMES
    _GAMES = tuple(f"{package}." for package in registry.PACKAGES.values()) + tuple(
        registry.PACKAGES.values()
    )
    settings.ALLOWED_HOSTS = ["*"]
    setup_test_environment()  # the locmem mail backend
    call_command("migrate", verbosity=0)
    process = _first("notifications.inbound.routing:process", "notifications.inbound:process")
    seat_page_url = _first("games.services.links:seat_page_url", "games.links:seat_page_url")

    def new_game() -> Game:
        players = [
            Player.objects.create(name=n, email=f"{n.lower()}@example.org") for n in ("Ada", "Bo", "Cy")
        ]
        game = services.create_game(players, seed="paths")
        services.start_game(game)
        game.refresh_from_db()
        return game

    def reply(game: Game) -> int:
        game.refresh_from_db()
        state = services.state_at(game)
        rules = registry.get(game.rules)
        seat_number = rules.pending(state)[0].seat
        seat = Seat.objects.get(game=game, position=seat_number)
        token = ReplyToken.objects.filter(seat=seat).order_by("-pk").first()
        assert token is not None
        notation: Any = getattr(rules, "notation", rules)  # an older checkout: the rules say it
        command = notation.format_command(state, rules.default(state, seat_number))
        address = f"{settings.REPLY_PREFIX}{settings.REPLY_SEPARATOR}{token.token}@{settings.REPLY_DOMAIN}"
        message_id = f"<{game.pk}-{game.events.count()}@example.org>"
        raw = (
            f"From: {seat.player.email}\r\nTo: {address}\r\nSubject: Re: your move\r\n"
            f"Message-ID: {message_id}\r\n\r\n{command}\r\n"
        ).encode()
        stored = InboundMail.objects.create(
            raw=raw, size=len(raw), via="pipe", message_id=message_id, envelope_from=seat.player.email
        )
        return int(stored.pk)

    client = Client()

    def page(game: Game) -> None:
        seat = Seat.objects.get(game=game, position=0)
        response = client.get("/" + seat_page_url(seat).split("://", 1)[-1].partition("/")[2])
        assert response.status_code == 200, response.status_code

    game = new_game()
    for _ in range(2):  # warm: the second reply and page are traced
        process(reply(game))
        page(game)
    mail = reply(game)
    report("an inbound reply", trace(lambda: process(mail)))
    report("a seat page", trace(lambda: page(game)))


if __name__ == "__main__":
    main()
