"""What grows: rows and bytes per finished game, and what the sweep, the standings
and the pages cost as the finished games pile up.

``DATABASE_URL=postgres://... python -m bench.growth`` (its own ``<name>_bench`` database):

1. three real games are played to their end through ``games.services`` by the self-play bots
   (4-player kosmos, 5-player designer, 6-player kosmos) in one league season, with the mail
   outbox on; every move is answered as by mail (a reply of about 4 kB stored raw, as a
   client's reply quoting our mail is) and every outbox row is rendered and sent through the
   real send path to Django's locmem backend, so the rows hold what production's hold;
2. per finished game: rows and bytes (``pg_column_size`` of the rows, indexes apart) of its
   events, snapshots, mails out, mails in and board pictures;
3. the finished games are copied in SQL (new ids, same rows) to 1,000, 10,000 and 100,000
   (``BENCH_GROWTH_STEPS``), and at each step the minute sweep, the season's standings, the
   league page, the archive's first page and a replay page are timed, with the tables' sizes.
   Board pictures are not copied (``notifications.outbound.pictures.prune`` drops them after three
   days), nor, past 10,000 games, the mails (``MAILS_UPTO``).

``python -m bench.growth --league-page`` measures only the pages that could grow with the
games: the three games are played without their mails, copied (games, seats, events,
snapshots, league links and, where the projections exist, the games' result rows) to
``BENCH_LEAGUE_STEPS`` (1,000 and 10,000) finished games, and it prints, for the league page,
the season's page and the own page (/me/) of a player who holds a seat in a third of them,
``<page> at N finished games: X ms, Q queries, K kB``.

Numbers and their reading are in ``docs/SCALING.md``.
"""

from __future__ import annotations

import os
import statistics
import sys
import time
from collections.abc import Callable
from typing import Any

from bench.common import setup_django

STEPS = [int(n) for n in os.environ.get("BENCH_GROWTH_STEPS", "1000,10000,100000").split(",")]
SLOW = 60.0  # seconds: a measure that took longer is not repeated at the next step
# the mails of a finished game are about 1.8 MB (their rendered bodies, the raw replies): past
# this many games they are not copied (100,000 games would need about 180 GB); the steps
# above it have games, seats, events, snapshots and league links only, and the mail tables'
# sizes there are the per-game figure times the games
MAILS_UPTO = int(os.environ.get("BENCH_GROWTH_MAILS_UPTO", "10000"))
LEAGUE_STEPS = [int(n) for n in os.environ.get("BENCH_LEAGUE_STEPS", "1000,10000").split(",")]
TABLES = [
    ("events", "games_event"),
    ("snapshots", "games_snapshot"),
    ("mails out", "notifications_outboundmail"),
    ("mails in", "notifications_inboundmail"),
    ("pictures", "notifications_boardpicture"),  # kept three days, then dropped by the sweep: not copied
]


def main() -> int:
    os.environ["EMAIL_BACKEND"] = "django.core.mail.backends.locmem.EmailBackend"
    os.environ["LOCAL_MAILBOX"] = "false"
    setup_django("bench.growth")
    from django.core.management import call_command
    from django.test.utils import setup_databases, teardown_databases

    old = setup_databases(verbosity=0, interactive=False)
    try:
        call_command("migrate", verbosity=0)
        if "--league-page" in sys.argv[1:]:
            templates, season = play_templates(mails=False)
            league_page(templates, season)
            return 0
        templates, season = play_templates()
        per_game(templates)
        grow(templates, season)
    finally:
        teardown_databases(old, verbosity=0)
    return 0


def play_templates(mails: bool = True) -> tuple[list[int], Any]:
    from django.utils import timezone

    from games import services
    from games.models import Event, Game, Player
    from games.rules import registry
    from leagues.models import League, LeagueGame, Season
    from notifications.inbound import routing
    from notifications.models import InboundMail, OutboundMail
    from notifications.outbound import sending

    rules = registry.get("whitelotus")
    league = League.objects.create(name="Growth League", slug="growth")
    season = Season.objects.create(league=league, name="Season 1")
    people = [Player.objects.create(name=f"Player {i}", email=f"p{i}@growth.invalid") for i in range(60)]
    games = []
    start = time.perf_counter()
    for n, (size, edition) in enumerate(((4, "kosmos"), (5, "designer"), (6, "kosmos"))):
        game = services.create_game(people[n * 6 : n * 6 + size], edition=edition, seed=f"growth-{n}")
        LeagueGame.objects.create(game=game, season=season, round=1)
        services.start_game(game)
        bots = [rules.about.Bot(f"growth-{n}:{s}") for s in range(size)]
        state = services.head_state(game)
        while decisions := rules.pending(state):
            seat = decisions[0].seat
            command = bots[seat].choose(state, seat)
            result = services.submit(game, seat, command, source=Event.Source.MAIL)
            for row, _ in (
                routing.store_each(reply(result.events[0].seq, game.pk, seat), "smtp") if mails else ()
            ):
                InboundMail.objects.filter(pk=row.pk).update(game=game, status=InboundMail.Status.APPLIED)
            state = result.state
        for mail_id in OutboundMail.objects.filter(game=game).values_list("pk", flat=True) if mails else ():
            sending.deliver(mail_id)
        game.refresh_from_db()
        assert game.status == Game.Status.FINISHED, game.status
        games.append(game.pk)
    took = time.perf_counter() - start
    print(
        f"3 games played to the end by bots{', mails rendered and sent' if mails else ''}: {took:.0f} s "
        f"({timezone.now():%Y-%m-%d})"
    )
    return games, season


def reply(seq: int, game: int, seat: int) -> bytes:
    """A reply as clients write them: a command, then our mail quoted (about 4 kB)."""
    quoted = "\n".join(f"> {line}" for line in QUOTE.splitlines())
    return (
        f"Received: from mail.example.org by mx.example.org; Mon, 23 Nov 2026 10:00:00 +0000\n"
        f"DKIM-Signature: v=1; a=rsa-sha256; d=example.org; s=s1; b={'A' * 340}\n"
        f"From: Player <p{seat}@growth.invalid>\nTo: play+token@lotus.example.org\n"
        f"Subject: Re: White Lotus game {game}: your move\n"
        f"Message-ID: <g{game}-{seq}-{seat}@growth.invalid>\nIn-Reply-To: <x@lotus.example.org>\n"
        f"MIME-Version: 1.0\nContent-Type: text/plain; charset=utf-8\n\nplace Ningxia\n\n"
        f"On Mon, 23 Nov 2026 at 09:00, White Lotus wrote:\n{quoted}\n"
    ).encode()


QUOTE = (
    "White Lotus, game 12, year 2, phase 3: place a dignitary.\n\n"
    + "\n".join(f"  {p:<14} red 2  blue 1  green -  palace {p[:3]}  temple 1" for p in ("Ningxia",) * 30)
    + "\n\nYour move, blue: place a dignitary. Reply with one line, for example:\n  place Ningxia\n"
)


def per_game(templates: list[int]) -> None:
    from django.db import connection

    print()
    print(f"{'per finished game':<14} {'rows':>8} {'kB':>9}   (mean of the three games; indexes apart)")
    with connection.cursor() as cursor:
        for label, table in TABLES:
            cursor.execute(
                f"SELECT count(*), coalesce(sum(pg_column_size(t.*)), 0) FROM {table} t "
                "WHERE game_id = ANY(%s)",
                [templates],
            )
            rows, size = cursor.fetchone()
            print(f"{label:<14} {rows / 3:>8.0f} {size / 3 / 1024:>9.1f}")


def grow(templates: list[int], season: Any) -> None:
    from django.db import connection
    from django.test import Client

    from games import services
    from leagues import standings
    from notifications.sweep import sweep

    client = Client(HTTP_HOST="localhost")
    have = len(templates)
    skip: set[str] = set()
    times: dict[str, float | None] = {}

    def timed(name: str, fn: Callable[[], object], repeat: int = 3) -> None:
        if name in skip:
            times[name] = None
            return
        runs = []
        for _ in range(repeat):
            services.clear_caches()
            start = time.perf_counter()
            fn()
            runs.append(time.perf_counter() - start)
            if runs[-1] > SLOW:
                skip.add(name)
                break
        times[name] = statistics.median(runs)

    def show(name: str) -> str:
        value = times[name]
        return "skipped" if value is None else f"{value * 1e3:.0f} ms" if value < 10 else f"{value:.1f} s"

    print()
    print(
        f"{'games':>7} {'sweep':>9} {'standings':>10} {'league pg':>10} {'archive':>9} {'replay':>9}   sizes"
    )
    for target in STEPS:
        copy(templates, have, target)
        have = target
        recount(season)
        with connection.cursor() as cursor:
            cursor.execute("ANALYZE")
        times.clear()
        timed("sweep", sweep)
        timed("standings", lambda: standings.standings(season), repeat=1)
        timed("league", lambda: ok(client.get(f"/leagues/{season.league.slug}/")), repeat=1)
        timed("archive", lambda: ok(client.get("/games/")))
        timed("replay", lambda: ok(client.get(f"/games/{templates[2]}/replay/")))
        print(
            f"{target:>7} {show('sweep'):>9} {show('standings'):>10} {show('league'):>10} "
            f"{show('archive'):>9} {show('replay'):>9}   {table_sizes()}"
        )


def ok(response: Any) -> Any:
    assert response.status_code == 200, response.status_code
    return response


def table_sizes() -> str:
    from django.db import connection

    parts = []
    with connection.cursor() as cursor:
        for label, table in [("games", "games_game"), *TABLES]:
            cursor.execute("SELECT pg_total_relation_size(%s)", [table])
            parts.append(f"{label} {cursor.fetchone()[0] / 2**20:,.0f} MB")
        cursor.execute("SELECT pg_database_size(current_database())")
        parts.append(f"all {cursor.fetchone()[0] / 2**30:.1f} GB")
    return ", ".join(parts)


def copy(templates: list[int], have: int, target: int, mails: bool = True) -> None:
    """Finished games ``have`` .. ``target``: copies of the templates in turn, each table's
    rows copied in SQL with the new game's id (unique keys made unique with it); their mails
    only with ``mails`` (and up to ``MAILS_UPTO``)."""
    from django.db import connection

    from games import models as games_models
    from games.models import Event, Game, Seat, Snapshot
    from leagues.models import LeagueGame
    from notifications.models import InboundMail, OutboundMail

    base = 10_000_000
    unique = {"key", "message_id"}  # suffixed with the copy's game id
    with connection.cursor() as cursor:
        for t, template in enumerate(templates):
            # copies of template t: numbers n in [have, target) with n % 3 == t, ids base + n
            first = have + (t - have) % len(templates)
            if first >= target:
                continue
            series = f"generate_series({first}, {target - 1}, {len(templates)}) AS s"
            # a finished game's result rows, where the checkout has the projection
            results = [m for m in [getattr(games_models, "SeatResult", None)] if m is not None]
            for model in (Game, Seat, Event, Snapshot, LeagueGame, *results, OutboundMail, InboundMail):
                if model in (OutboundMail, InboundMail) and (target > MAILS_UPTO or not mails):
                    continue
                fields = [f for f in model._meta.concrete_fields if not (f.primary_key and model is not Game)]
                cols, exprs = [], []
                for f in fields:
                    cols.append(f'"{f.column}"')
                    if (model is Game and f.primary_key) or f.column == "game_id":
                        exprs.append(f"{base} + s")
                    elif f.column in unique:
                        exprs.append(f"t.\"{f.column}\" || '-' || ({base} + s)")
                    else:
                        exprs.append(f't."{f.column}"')
                where = "t.id" if model is Game else "t.game_id"
                cursor.execute(
                    f"INSERT INTO {model._meta.db_table} ({', '.join(cols)}) "
                    f"SELECT {', '.join(exprs)} FROM {model._meta.db_table} t, {series} WHERE {where} = %s",
                    [template],
                )


def recount(season: Any) -> None:
    """The season's standings and the league's ratings counted again from the copied result
    rows (what a rollback past a game's end costs at this size), where the projection exists."""
    try:
        from leagues import projection
    except ImportError:  # a checkout without the projection computes the standings on every read
        return
    start = time.perf_counter()
    projection.rebuild_season(season)
    projection.rebuild_ratings(season.league)
    print(f"  (standings and ratings recounted from the results: {time.perf_counter() - start:.1f} s)")


def league_page(templates: list[int], season: Any) -> None:
    """``<page> at N finished games: X ms, Q queries, K kB`` for the league page, the season's
    page and a player's own page, N = ``LEAGUE_STEPS``."""
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext

    from games import services
    from games.models import Seat
    from games.services import links

    client = Client(HTTP_HOST="localhost")
    player = Seat.objects.filter(game_id=templates[0]).order_by("position")[0].player
    pages = [
        ("league page", f"/leagues/{season.league.slug}/"),
        ("season page", f"/leagues/{season.league.slug}/{season.pk}/"),
        ("player page", links.player_page_url(player)),
    ]
    have = len(templates)
    for target in LEAGUE_STEPS:
        copy(templates, have, target, mails=False)
        have = target
        recount(season)
        with connection.cursor() as cursor:
            cursor.execute("ANALYZE")
        for name, url in pages:
            # a first request warms up (templates, the plans after ANALYZE, keys of seats copied
            # without theirs); when it took seconds it is the figure, else the median of five more
            runs: list[float] = []
            for n in range(6):
                services.clear_caches()
                counted = [0]  # counted as run (the capture below keeps only the last 9,000)

                def count(
                    execute: Any,
                    sql: str,
                    params: Any,
                    many: bool,
                    context: Any,
                    counted: list[int] = counted,
                ) -> Any:
                    counted[0] += 1
                    return execute(sql, params, many, context)

                with connection.execute_wrapper(count), CaptureQueriesContext(connection) as captured:
                    start = time.perf_counter()
                    size = len(ok(client.get(url)).content)
                    runs.append(time.perf_counter() - start)
                queries = counted[0]
                if n == 0 and runs[0] > 5:
                    break
            runs = runs if len(runs) == 1 else runs[1:]
            print(
                f"{name} at {target:,} finished games: {statistics.median(runs) * 1e3:.0f} ms, "
                f"{queries} queries, {size / 1024:,.0f} kB"
            )
            slowest = sorted(captured.captured_queries, key=lambda q: -float(q["time"]))[:3]
            for q in slowest:  # where the time goes, for the reading in docs/SCALING.md
                print(f"  {float(q['time']) * 1e3:6.1f} ms  {q['sql'][:150]}")


if __name__ == "__main__":
    sys.exit(main())
